import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { tooManyAttempts } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { getSignedInUser } from '../../plugins/guard';
import { getSignInLimitKey } from './auth.service';
import { hashToken } from './tokens';

/**
 * At most `max` attempts a minute under each key, counted in Redis when REDIS_URL is set (shared by every
 * process), else in this process. An attempt is counted before it is served, successful or not: a check
 * before and a count after would let a burst of parallel requests all pass the check.
 */
export function createLimit(
  app: FastifyInstance,
  name: string,
  max: number,
  readKey: (req: FastifyRequest) => string | Promise<string>,
): preHandlerAsyncHookHandler {
  const count = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: async (req) => `${name}:${await readKey(req)}` });
  return async function limitAttempts(req) {
    const result = await count(req);
    if (!result.isAllowed && result.isExceeded) throw tooManyAttempts();
  };
}

/** The client's address as TRUST_PROXY allows us to believe it; IPv6 by /64, which one subscriber usually holds. */
export const readAddress = (req: FastifyRequest) => normalizeIP(req.ip);

/** Emails are hashed so the limiter's keys (in Redis) hold no addresses. */
const readEmail = (req: FastifyRequest) => String((req.body as { email?: unknown }).email ?? '');
const readEmailKey = (req: FastifyRequest) => hashToken(readEmail(req));

export type AuthLimits = Record<
  'signIn' | 'register' | 'forgotPassword' | 'resetPassword' | 'changePassword',
  preHandlerAsyncHookHandler[]
>;

/**
 * The limits on every route that checks a password or sends mail (docs/operations.md, "Sign-in limits").
 * Each list runs in order and stops at the first refusal, which the later limits then never count: the
 * global ceiling comes before the per-account limit, so a spray over many emails, refused by the ceiling,
 * neither reaches the database nor fills the per-account counters.
 */
export function createAuthLimits(app: FastifyInstance, ctx: AppContext): AuthLimits {
  const { LOGIN_RATE_LIMIT: perAccount, LOGIN_ADDRESS_RATE_LIMIT: perAddress, LOGIN_GLOBAL_RATE_LIMIT: perMinute } = ctx.config;
  return {
    // Shared by the console's and the merchant's login: one count, whichever door is tried.
    signIn: [
      createLimit(app, 'sign-in-address', perAddress, readAddress),
      createLimit(app, 'sign-in-all', perMinute, () => 'all'),
      createLimit(app, 'sign-in-account', perAccount, (req) => getSignInLimitKey(ctx, readEmail(req))),
    ],
    register: [
      createLimit(app, 'register-address', perAddress, readAddress),
      createLimit(app, 'register-account', perAccount, readEmailKey),
    ],
    // Apart from sign-in, so an account locked by someone else's guesses can still ask for a reset link.
    forgotPassword: [
      createLimit(app, 'forgot-address', perAddress, readAddress),
      createLimit(app, 'forgot-account', perAccount, readEmailKey),
    ],
    resetPassword: [createLimit(app, 'reset-address', perAddress, readAddress)],
    // After the guard: the signed-in user's old-password guesses.
    changePassword: [createLimit(app, 'change-password-account', perAccount, (req) => getSignedInUser(req).id)],
  };
}
