import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { authTokens, merchants, passwordResets, users } from '../../../db/schema';
import { SAME_PASSWORD_MESSAGE, type LoginBody, type RegisterBody, type SessionUser } from '../../../shared/api/auth.schema';
import { getRoleLabel } from '../../../shared/roles';
import type { TwoFactorLoginBody } from '../../../shared/api/two-factor.schema';
import { invalid, notFound, unauthenticated } from '../../../shared/errors';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { sendMail } from '../../core/mail';
import { type UserRow, createUser } from '../../core/accounts';
import { getDummyHash, hashPassword, verifyPassword } from '../../core/passwords';
import { createOpaqueToken, hashToken } from './tokens';
import { createChallenge, isRememberedDevice, isTwoFactorEnabled, rememberDevice, verifyChallenge } from './two-factor.service';

export const RESET_TOKEN_MINUTES = 30;
const INVALID_LOGIN = 'Invalid email or password';
const INVALID_RESET = 'This reset link is invalid or has expired. Please ask for a new one.';
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this email, we have sent a link to reset the password. The link is valid for 30 minutes.';

export async function getSessionUser(db: Db, userId: string): Promise<SessionUser> {
  const [row] = await db
    .select({ user: users, merchantName: merchants.companyName })
    .from(users)
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
  return toSessionUser(row.user, row.merchantName);
}

export function toSessionUser(user: UserRow, merchantName: string | null): SessionUser {
  return {
    uuid: user.id,
    fullName: user.fullName,
    email: user.email,
    mobileNumber: user.mobileNumber,
    companyName: user.companyName,
    role: getRoleLabel(user),
    roles: user.roles,
    userType: user.userType,
    merchantUser: user.userType === 'merchant',
    merchantUuid: user.merchantId,
    merchantName,
  };
}

async function issueToken(ctx: AppContext, userId: string): Promise<string> {
  const { token, tokenHash } = createOpaqueToken();
  const expiresAt = new Date(ctx.now().getTime() + ctx.config.TOKEN_TTL_DAYS * 86_400_000);
  await ctx.db.insert(authTokens).values({ userId, tokenHash, expiresAt });
  return token;
}

async function createLoginReply(ctx: AppContext, user: UserRow, message: string) {
  const token = await issueToken(ctx, user.id);
  return { status: '00' as const, message, token, data: await getSessionUser(ctx.db, user.id) };
}

export async function register(ctx: AppContext, body: RegisterBody) {
  const user = await createUser(ctx.db, body);
  return createLoginReply(ctx, user, 'Account created');
}

/**
 * `merchantOnly` is the merchant login screen: only merchant users may sign in there. A user with two-factor on
 * gets a challenge instead of a token (POST /api/auth/login/two-factor completes it), unless the body carries a
 * live remembered device of theirs.
 */
export async function login(ctx: AppContext, body: LoginBody, options: { merchantOnly?: boolean } = {}) {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, body.email));
  const isMatch = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), body.password);
  if (!user || !isMatch) throw unauthenticated(INVALID_LOGIN);
  if (options.merchantOnly && user.userType !== 'merchant') throw unauthenticated('This account is not a merchant account');
  if ((await isTwoFactorEnabled(ctx.db, user.id)) && !(await isRememberedDevice(ctx, user.id, body.deviceToken)))
    return createChallenge(ctx, user.id);
  return createLoginReply(ctx, user, 'Login successful');
}

/** The second step of a sign-in: a code or a recovery code for the challenge; remembers the device if asked. */
export async function loginWithTwoFactor(ctx: AppContext, body: TwoFactorLoginBody, deviceLabel: string) {
  const userId = await verifyChallenge(ctx, body);
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw unauthenticated();
  const reply = await createLoginReply(ctx, user, 'Login successful');
  return body.rememberDevice ? { ...reply, deviceToken: await rememberDevice(ctx, user.id, deviceLabel) } : reply;
}

/**
 * The key the per-account sign-in limit counts under: the email with the account's current password hash,
 * both hashed. A password reset changes the hash and so starts a new count: the owner of an account that
 * someone else's guesses have locked gets back in with the mailed link.
 */
export async function getSignInLimitKey(ctx: AppContext, email: string): Promise<string> {
  const [user] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.email, email));
  return hashToken(`${email}\n${user?.passwordHash ?? ''}`);
}

/** Finds the user behind a bearer token; undefined when it is unknown, revoked or expired. */
export async function findUserByToken(ctx: AppContext, token: string): Promise<AuthUser | undefined> {
  const tokenHash = hashToken(token);
  const [row] = await ctx.db
    .select({ user: users })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, ctx.now())));
  if (!row) return undefined;
  const { id, email, fullName, userType, roles, merchantId, agentOf } = row.user;
  return { id, email, fullName, userType, roles, merchantId, agentOf, tokenHash };
}

export async function logout(ctx: AppContext, user: AuthUser): Promise<void> {
  await ctx.db.update(authTokens).set({ revokedAt: ctx.now() }).where(eq(authTokens.tokenHash, user.tokenHash));
}

async function revokeAllTokens(db: Db, userId: string, at: Date): Promise<void> {
  await db
    .update(authTokens)
    .set({ revokedAt: at })
    .where(and(eq(authTokens.userId, userId), isNull(authTokens.revokedAt)));
}

/** Revokes every token of the user (other devices too) and returns a fresh one for this session. */
export async function changePassword(ctx: AppContext, user: AuthUser, body: { password: string; newPassword: string }) {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw unauthenticated();
  if (!(await verifyPassword(row.passwordHash, body.password))) throw invalid('Old password is incorrect.');
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(body.newPassword), updatedAt: ctx.now() })
    .where(eq(users.id, user.id));
  await revokeAllTokens(ctx.db, user.id, ctx.now());
  const token = await issueToken(ctx, user.id);
  return { status: '00' as const, message: 'Password changed successfully.', token };
}

/**
 * Looks the account up and mails the link in the background: the caller answers at once, with the same
 * words and after the same work whether or not the account exists.
 */
export function requestPasswordReset(ctx: AppContext, email: string): void {
  ctx.background.run('password reset mail', () => sendPasswordResetMail(ctx, email));
}

/** The link's origin is fixed at boot (PUBLIC_URL or this server's port), never a request's Host header. */
async function sendPasswordResetMail(ctx: AppContext, email: string): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  if (!user) return;
  const { token, tokenHash } = createOpaqueToken();
  const expiresAt = new Date(ctx.now().getTime() + RESET_TOKEN_MINUTES * 60_000);
  await ctx.db.insert(passwordResets).values({ userId: user.id, tokenHash, expiresAt });
  const link = `${getPublicOrigin(ctx.config)}/reset-password/${token}`;
  await sendMail(ctx, {
    to: user.email,
    subject: 'Reset your Dialflow password',
    text: `Hello ${user.fullName},\n\nUse this link within ${RESET_TOKEN_MINUTES} minutes to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail.`,
  });
}

export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  const now = ctx.now();
  const isUsable = and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now));
  const [reset] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(isUsable);
  if (!reset) throw invalid(INVALID_RESET);
  // Before the token is used up, so the same link still works with a different password.
  if (await verifyPassword(reset.passwordHash, password)) throw invalid(SAME_PASSWORD_MESSAGE, { field: 'password' });
  // Marking the token used in the same statement that finds it makes a reused token fail even under a race.
  const [used] = await ctx.db.update(passwordResets).set({ usedAt: now }).where(isUsable).returning({ userId: passwordResets.userId });
  if (!used) throw invalid(INVALID_RESET);
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(password), updatedAt: now })
    .where(eq(users.id, used.userId));
  await revokeAllTokens(ctx.db, used.userId, now);
}
