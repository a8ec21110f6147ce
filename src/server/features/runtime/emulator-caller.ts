import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, secureAttribute } from '../../http';

/**
 * Who runs an emulator session. Featured templates can be run by anyone, so a session id alone must not be
 * enough to continue a session or read what it collected: the runtime keys each emulator session by its
 * caller, and marks every row the session writes with it.
 *
 * - a signed-in user: `user:<user id>`;
 * - a browser without an account: `anon:<id>`, where the id is 128 random bits the server issued in an
 *   HttpOnly, SameSite=Strict cookie on the browser's first emulator call (scoped to the emulator's path).
 *
 * A request without that cookie (or with a malformed one) gets a new id, so a replayed or guessed session id
 * reaches a new, empty session of its own.
 *
 * @example getUserCaller('9b2f...') === 'user:9b2f...'
 */
export type EmulatorCaller = `user:${string}` | `anon:${string}`;

export const EMULATOR_CALLER_COOKIE = 'df_emulator';
const ANONYMOUS_ID = /^[A-Za-z0-9_-]{22}$/;

export const getUserCaller = (userId: string): EmulatorCaller => `user:${userId}`;

/** The anonymous id the request's cookie carries, if it is one the server could have issued. */
function readAnonymousId(cookieHeader: string | undefined): string | null {
  const value = readCookie(cookieHeader, EMULATOR_CALLER_COOKIE);
  return value !== null && ANONYMOUS_ID.test(value) ? value : null;
}

/** The caller of an emulator request; issues an anonymous id (Set-Cookie) when a signed-out browser has none. */
export function getEmulatorCaller(req: FastifyRequest, reply: FastifyReply): EmulatorCaller {
  if (req.user) return getUserCaller(req.user.id);
  const existing = readAnonymousId(req.headers.cookie);
  if (existing) return `anon:${existing}`;
  const id = randomBytes(16).toString('base64url');
  reply.header('set-cookie', `${EMULATOR_CALLER_COOKIE}=${id}; Path=/ussd-emulator; HttpOnly; SameSite=Strict${secureAttribute(req)}`);
  return `anon:${id}`;
}
