/**
 * Per-minute attempt limits keyed by anything a request carries: sign-in (auth) and the app import (apps) count
 * with the same limiter, in Redis when REDIS_URL is set.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { tooManyAttempts } from '../../shared/errors';

export type Count = (req: FastifyRequest) => Promise<boolean>;

/**
 * Counts an attempt under its key and says whether the key is past `max` this minute. Counted in Redis when
 * REDIS_URL is set (shared by every process), else in this process. An attempt is counted before it is served,
 * successful or not: a check before and a count after would let a burst of parallel requests all pass the check.
 */
export function createCount(
  app: FastifyInstance,
  name: string,
  max: number,
  readKey: (req: FastifyRequest) => string | Promise<string>,
): Count {
  const count = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: async (req) => `${name}:${await readKey(req)}` });
  return async (req) => {
    const result = await count(req);
    return !result.isAllowed && result.isExceeded;
  };
}

/** At most `max` attempts a minute under each key, then 429 (with `message`, else "Too many attempts..."). */
export function createLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  readKey: (req: FastifyRequest) => string | Promise<string>,
  message?: string,
): preHandlerAsyncHookHandler {
  const isExceeded = createCount(app, name, max, readKey);
  return async function limitAttempts(req) {
    if (await isExceeded(req)) throw tooManyAttempts(message);
  };
}

/** The client's address as TRUST_PROXY allows us to believe it; IPv6 by /64, which one subscriber usually holds. */
export const readAddress = (req: FastifyRequest) => normalizeIP(req.ip);
