import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { hasLeadingZeroBits, SIGN_IN_PROOF_HEADER, type SignInChallenge } from '../../../shared/api/sign-in-proof';
import { AppError, tooManyAttempts } from '../../../shared/errors';
import { loadKeyFile } from '../../key-file';
import type { AppContext } from '../../context';
import { readCookie, secureAttribute } from '../../http';
import { getSignedInUser } from '../../plugins/guard';
import { createCount, createLimit, readAddress } from '../../core/rate-limits';
import { getSignInLimitKey } from './auth.service';
import { hashToken } from './tokens';
import { findChallengeUserId } from './two-factor.service';

/** Emails are hashed so the limiter's keys (in Redis) hold no addresses. */
const readEmail = (req: FastifyRequest) => String((req.body as { email?: unknown }).email ?? '');
const readEmailKey = (req: FastifyRequest) => hashToken(readEmail(req));

/** The known-device cookie: set by a successful sign-in, sent back only to the sign-in calls' prefix. */
export const KNOWN_DEVICE_COOKIE = 'df_device';
export const SIGN_IN_KEY_FILE = 'sign-in.key';
const KNOWN_DEVICE_DAYS = 90;
/** About 65,000 SHA-256 hashes to find on average: under a second in a browser, milliseconds in native code. */
export const SIGN_IN_PROOF_BITS = 16;
const CHALLENGE_MS = 5 * 60_000;

function sign(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

function isSignedBy(secret: string, text: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, text));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `<expiry ms>.<signature>`, signed over the account's email and the expiry: it names one account only. */
function createDeviceMark(secret: string, email: string, now: number): string {
  const expires = now + KNOWN_DEVICE_DAYS * 86_400_000;
  return `${expires}.${sign(secret, `device\n${email}\n${expires}`)}`;
}

function isKnownDevice(secret: string, req: FastifyRequest, email: string, now: number): boolean {
  const [expires = '', signature = '', ...rest] = (readCookie(req.headers.cookie, KNOWN_DEVICE_COOKIE) ?? '').split('.');
  return (
    rest.length === 0 &&
    /^\d{1,15}$/.test(expires) &&
    Number(expires) > now &&
    isSignedBy(secret, `device\n${email}\n${expires}`, signature)
  );
}

/** A challenge for one email: `v1.<expiry ms>.<random>.<signature>`. */
function createChallenge(secret: string, email: string, now: number): SignInChallenge {
  const body = `v1.${now + CHALLENGE_MS}.${randomBytes(12).toString('base64url')}`;
  return { token: `${body}.${sign(secret, `challenge\n${email}\n${body}`)}`, difficulty: SIGN_IN_PROOF_BITS };
}

/**
 * The request's `x-sign-in-proof`: a challenge issued for this email, not expired, and a nonce that gives the
 * hash its zero bits. A proof may be sent again for the same email until the challenge expires; the per-account
 * limit bounds what that buys, and a proof is worth nothing for another email.
 */
function hasProofOfWork(secret: string, req: FastifyRequest, email: string, now: number): boolean {
  const proof = req.headers[SIGN_IN_PROOF_HEADER];
  if (typeof proof !== 'string' || proof.length > 400) return false;
  const match = proof.match(/^(v1\.(\d{1,15})\.[\w-]{16})\.([\w-]{43}):\d{1,12}$/);
  if (!match || Number(match[2]) <= now || !isSignedBy(secret, `challenge\n${email}\n${match[1]}`, match[3]!)) return false;
  return hasLeadingZeroBits(createHash('sha256').update(proof).digest(), SIGN_IN_PROOF_BITS);
}

export interface AuthLimits
  extends Record<
    'signIn' | 'register' | 'forgotPassword' | 'resetPassword' | 'changePassword' | 'twoFactorSignIn' | 'twoFactorCode',
    preHandlerAsyncHookHandler[]
  > {
  /** onSend of the sign-in and register routes: a reply that issued a token marks the browser as a known device of that account. */
  rememberDevice(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
}

/** The second step's account: the challenge's user, or the challenge itself when it is unknown (it fails anyway). */
async function readChallengeAccount(ctx: AppContext, req: FastifyRequest): Promise<string> {
  const challengeId = String((req.body as { challengeId?: unknown }).challengeId ?? '');
  return (await findChallengeUserId(ctx.db, challengeId)) ?? `challenge:${hashToken(challengeId)}`;
}

/**
 * The limits on every route that checks a password or sends mail (docs/operations.md, "Sign-in limits").
 * Each list runs in order and stops at the first refusal, which the later limits then never count.
 *
 * Sign-in: a browser the account signed in from before (a known device: a signed cookie naming the account)
 * is held only to the per-account limit. Any other attempt is counted per address, then against the platform's
 * ceiling; past the ceiling it is not refused outright but answered with a proof-of-work challenge, which the
 * console's form solves and sends again. So nobody can use the ceiling up to lock others out, and a spray of
 * one password over many emails still pays for every guess past it. The per-account limit comes last, so a
 * spray refused earlier neither reaches the database nor fills the per-account counters.
 */
export function createAuthLimits(app: FastifyInstance, ctx: AppContext): AuthLimits {
  const { LOGIN_RATE_LIMIT: perAccount, LOGIN_ADDRESS_RATE_LIMIT: perAddress, LOGIN_GLOBAL_RATE_LIMIT: perMinute } = ctx.config;
  const secret = ctx.config.SIGN_IN_SECRET ?? loadKeyFile(ctx.config.DATA_DIR, SIGN_IN_KEY_FILE, 'SIGN_IN_SECRET').toString('hex');
  const isAddressExceeded = createCount(app, 'sign-in-address', perAddress, readAddress);
  const isCeilingExceeded = createCount(app, 'sign-in-all', perMinute, () => 'all');
  return {
    // Shared by the console's and the merchant's login: one count, whichever door is tried.
    signIn: [
      async function limitUnknownDevices(req) {
        const email = readEmail(req);
        const now = ctx.now().getTime();
        if (isKnownDevice(secret, req, email, now)) return;
        if (await isAddressExceeded(req)) throw tooManyAttempts();
        if (!(await isCeilingExceeded(req)) || hasProofOfWork(secret, req, email, now)) return;
        throw new AppError('tooManyRequests', tooManyAttempts().message, { extra: { challenge: createChallenge(secret, email, now) } });
      },
      createLimit(app, 'sign-in-account', perAccount, (req) => getSignInLimitKey(ctx, readEmail(req))),
    ],
    async rememberDevice(req, reply, payload) {
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      // A right password is what makes a device known: the reply carries a token, or asks for the second step.
      const body = JSON.parse(payload) as { status?: unknown; token?: unknown; twoFactorRequired?: unknown };
      if (body.status !== '00' || (typeof body.token !== 'string' && body.twoFactorRequired !== true)) return payload;
      const mark = createDeviceMark(secret, readEmail(req), ctx.now().getTime());
      reply.header(
        'set-cookie',
        `${KNOWN_DEVICE_COOKIE}=${mark}; Path=/api; Max-Age=${KNOWN_DEVICE_DAYS * 86_400}; HttpOnly; SameSite=Strict${secureAttribute(req)}`,
      );
      return payload;
    },
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
    // A six-digit code is guessable where a password is not: besides five tries per challenge, the account's
    // codes a minute are counted whichever challenge brings them, so new challenges do not buy more guesses.
    twoFactorSignIn: [
      createLimit(app, 'two-factor-address', perAddress, readAddress),
      createLimit(app, 'two-factor-account', perAccount, (req) => readChallengeAccount(ctx, req)),
    ],
    // After the guard: codes typed on the signed-in screens (enable, disable, new recovery codes).
    twoFactorCode: [createLimit(app, 'two-factor-code-account', perAccount, (req) => getSignedInUser(req).id)],
  };
}
