import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { toDataURL } from 'qrcode';
import type { Db } from '../../../db/client';
import { rememberedDevices, transactions, twoFactorChallenges, twoFactorRecoveryCodes, twoFactorSecrets, users } from '../../../db/schema';
import { isUuid } from '../../../shared/ids';
import { getPermissionScope, getRoles, type RoleSubject } from '../../../shared/roles';
import {
  CHALLENGE_ATTEMPTS,
  CHALLENGE_MINUTES,
  RECOVERY_CODE_COUNT,
  REMEMBER_DEVICE_DAYS,
  TWO_FACTOR_MESSAGES as M,
  type RememberedDevice,
  type TwoFactorChallengeReply,
  type TwoFactorLoginBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../../shared/api/two-factor.schema';
import { conflict, invalid, notAllowed, notFound, unauthenticated } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { openText, sealText } from '../../sealed-text';
import { recordAdminAction } from '../../core/audit-log';
import { sendMail } from '../../core/mail';
import { PAYMENT_TRANSACTION_TYPE } from '../../core/settlements';
import { verifyPassword } from '../../core/passwords';
import { createOpaqueToken, hashToken } from './tokens';

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, six digits, 30-second steps. */
const STEP_SECONDS = 30;
/** One step either side of now: a phone's clock a little off, or a code typed as it changed. */
const WINDOW_STEPS = 1;
const ISSUER = 'Dialflow';

/** Who two-factor concerns: the signed-in user's id, email and roles. */
type Subject = RoleSubject & { id: string; email: string };

const toAdditionalData = (userId: string) => `two-factor\n${userId}`;

function createTotp(secret: Secret, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret, algorithm: 'SHA1', digits: 6, period: STEP_SECONDS });
}

/** The 30-second step a code belongs to, if it is the code of a step within the window around `now`; else null. */
function findCodeStep(secret: Secret, code: string, now: Date): number | null {
  const delta = createTotp(secret, '').validate({ token: code, timestamp: now.getTime(), window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / STEP_SECONDS) + delta;
}

async function findSecretRow(db: Db, userId: string) {
  const [row] = await db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
  return row;
}

export async function isTwoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: twoFactorSecrets.userId })
    .from(twoFactorSecrets)
    .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)));
  return !!row;
}

/** Admins must have two-factor while TWO_FACTOR_REQUIRED_FOR_ADMINS is on. API keys never carry admin roles. */
export function isTwoFactorRequired(ctx: AppContext, subject: RoleSubject): boolean {
  return ctx.config.TWO_FACTOR_REQUIRED_FOR_ADMINS && getRoles(subject).isAdmin;
}

/**
 * Accepts a code once. The step of the last accepted code moves forward in the statement that checks it, so the
 * same code (or an older one) is refused afterwards, even when two requests carry it at the same moment.
 */
async function acceptCode(ctx: AppContext, userId: string, code: string, options: { isEnabled: boolean }): Promise<boolean> {
  const row = await findSecretRow(ctx.db, userId);
  if (!row || !!row.enabledAt !== options.isEnabled) return false;
  const secret = Secret.fromBase32(openText(ctx.getTwoFactorKey(), row.sealedSecret, toAdditionalData(userId)));
  const step = findCodeStep(secret, code, ctx.now());
  if (step === null) return false;
  const [accepted] = await ctx.db
    .update(twoFactorSecrets)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(twoFactorSecrets.userId, userId),
        eq(twoFactorSecrets.sealedSecret, row.sealedSecret),
        or(isNull(twoFactorSecrets.lastUsedStep), lt(twoFactorSecrets.lastUsedStep, step)),
      ),
    )
    .returning({ userId: twoFactorSecrets.userId });
  return !!accepted;
}

async function requireCode(ctx: AppContext, userId: string, code: string): Promise<void> {
  if (!(await isTwoFactorEnabled(ctx.db, userId))) throw invalid(M.notEnabled);
  if (!(await acceptCode(ctx, userId, code, { isEnabled: true }))) throw invalid(M.invalidCode, { field: 'code' });
}

/** Recovery codes as shown: 16 base32 characters (80 random bits) in groups of four, `abcd-efgh-ijkl-mnop`. */
function createRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const chars = [...randomBytes(16)].map((byte) => alphabet[byte % 32]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** What a typed recovery code is compared as: lower case, without dashes or spaces. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

async function replaceRecoveryCodes(db: Pick<Db, 'insert' | 'delete'>, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, createRecoveryCode);
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashToken(normalizeRecoveryCode(code)) })));
  return codes;
}

/** Uses a recovery code up in the statement that finds it: a code works once, even under a race. */
async function spendRecoveryCode(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  const [used] = await ctx.db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: ctx.now() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, hashToken(normalizeRecoveryCode(code))),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return !!used;
}

export async function getTwoFactorStatus(ctx: AppContext, user: Subject): Promise<TwoFactorStatus> {
  const enabled = await isTwoFactorEnabled(ctx.db, user.id);
  const required = isTwoFactorRequired(ctx, user);
  const [left] = await ctx.db
    .select({ n: count() })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.userId, user.id), isNull(twoFactorRecoveryCodes.usedAt)));
  let recommended = !required && getRoles(user).isMerchant;
  if (!required && !recommended) {
    const [payment] = await ctx.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.userId, user.id), eq(transactions.transactionType, PAYMENT_TRANSACTION_TYPE)))
      .limit(1);
    recommended = !!payment;
  }
  return { enabled, required, recommended, recoveryCodesLeft: enabled ? (left?.n ?? 0) : 0 };
}

/**
 * Starts (or restarts) enrolment with a new secret, sealed before it is stored. Two-factor stays off until
 * {@link enableTwoFactor} gets a code of it: a scan that failed never locks the user out.
 */
export async function setupTwoFactor(ctx: AppContext, user: Subject): Promise<TwoFactorSetup> {
  if (await isTwoFactorEnabled(ctx.db, user.id)) throw conflict(M.alreadyEnabled);
  const secret = new Secret({ size: 20 });
  const sealedSecret = sealText(ctx.getTwoFactorKey(), secret.base32, toAdditionalData(user.id));
  await ctx.db
    .insert(twoFactorSecrets)
    .values({ userId: user.id, sealedSecret })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { sealedSecret, enabledAt: null, lastUsedStep: null, createdAt: ctx.now() },
    });
  const otpauthUri = createTotp(secret, user.email).toString();
  return { secret: secret.base32, otpauthUri, qrDataUrl: await toDataURL(otpauthUri, { margin: 1, width: 240 }) };
}

/** Confirms enrolment with a first code; returns the recovery codes, shown this once. */
export async function enableTwoFactor(ctx: AppContext, user: Subject, code: string): Promise<string[]> {
  const row = await findSecretRow(ctx.db, user.id);
  if (!row) throw invalid(M.setupFirst);
  if (row.enabledAt) throw conflict(M.alreadyEnabled);
  if (!(await acceptCode(ctx, user.id, code, { isEnabled: false }))) throw invalid(M.invalidCode, { field: 'code' });
  return ctx.db.transaction(async (tx) => {
    await tx.update(twoFactorSecrets).set({ enabledAt: ctx.now() }).where(eq(twoFactorSecrets.userId, user.id));
    return replaceRecoveryCodes(tx, user.id);
  });
}

/** Removes the secret, the recovery codes and the remembered devices. */
async function removeTwoFactor(db: Pick<Db, 'delete' | 'update'>, userId: string, at: Date): Promise<void> {
  await db.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await db
    .update(rememberedDevices)
    .set({ revokedAt: at })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
}

/** Turning it off takes the password and a code: a session token alone (a borrowed laptop) is not enough. */
export async function disableTwoFactor(ctx: AppContext, user: Subject, body: { password: string; code: string }): Promise<void> {
  if (isTwoFactorRequired(ctx, user)) throw notAllowed(M.requiredForAdmins);
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
  if (!row || !(await verifyPassword(row.passwordHash, body.password))) throw invalid(M.wrongPassword, { field: 'password' });
  await requireCode(ctx, user.id, body.code);
  await ctx.db.transaction((tx) => removeTwoFactor(tx, user.id, ctx.now()));
}

export async function regenerateRecoveryCodes(ctx: AppContext, user: Subject, code: string): Promise<string[]> {
  await requireCode(ctx, user.id, code);
  return ctx.db.transaction((tx) => replaceRecoveryCodes(tx, user.id));
}

/** The second step a password sign-in of an enrolled user answers with, instead of a token. */
export async function createChallenge(ctx: AppContext, userId: string): Promise<TwoFactorChallengeReply> {
  const { token, tokenHash } = createOpaqueToken();
  const expiresAt = new Date(ctx.now().getTime() + CHALLENGE_MINUTES * 60_000);
  await ctx.db.insert(twoFactorChallenges).values({ userId, challengeHash: tokenHash, expiresAt });
  return { status: '00', message: M.challenge, twoFactorRequired: true, challengeId: token, expiresIn: CHALLENGE_MINUTES * 60 };
}

/** The account a challenge belongs to (the per-account limit's key), or undefined for an unknown one. */
export async function findChallengeUserId(db: Db, challengeId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: twoFactorChallenges.userId })
    .from(twoFactorChallenges)
    .where(eq(twoFactorChallenges.challengeHash, hashToken(challengeId)));
  return row?.userId;
}

/**
 * Checks the second step and uses the challenge up; returns the user to sign in. The attempt is counted before
 * the code is checked, in one statement, so parallel guesses cannot all slip under the five allowed.
 */
export async function verifyChallenge(ctx: AppContext, body: TwoFactorLoginBody): Promise<string> {
  const now = ctx.now();
  const challengeHash = hashToken(body.challengeId);
  const isOpen = and(
    eq(twoFactorChallenges.challengeHash, challengeHash),
    isNull(twoFactorChallenges.usedAt),
    gt(twoFactorChallenges.expiresAt, now),
  );
  const [challenge] = await ctx.db
    .update(twoFactorChallenges)
    .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
    .where(and(isOpen, lt(twoFactorChallenges.attempts, CHALLENGE_ATTEMPTS)))
    .returning({ userId: twoFactorChallenges.userId });
  if (!challenge) {
    const [open] = await ctx.db.select({ id: twoFactorChallenges.id }).from(twoFactorChallenges).where(isOpen);
    throw unauthenticated(open ? M.tooManyCodes : M.challengeExpired);
  }
  const isAccepted = body.code
    ? await acceptCode(ctx, challenge.userId, body.code, { isEnabled: true })
    : (await isTwoFactorEnabled(ctx.db, challenge.userId)) && (await spendRecoveryCode(ctx, challenge.userId, body.recoveryCode ?? ''));
  if (!isAccepted) throw unauthenticated(body.code ? M.invalidCode : M.invalidRecoveryCode);
  const [used] = await ctx.db.update(twoFactorChallenges).set({ usedAt: now }).where(isOpen).returning({ id: twoFactorChallenges.id });
  if (!used) throw unauthenticated(M.challengeExpired);
  return challenge.userId;
}

/** Remembers the device for REMEMBER_DEVICE_DAYS; returns its token, which the browser keeps. */
export async function rememberDevice(ctx: AppContext, userId: string, label: string): Promise<string> {
  const { token, tokenHash } = createOpaqueToken();
  const expiresAt = new Date(ctx.now().getTime() + REMEMBER_DEVICE_DAYS * 86_400_000);
  await ctx.db.insert(rememberedDevices).values({ userId, tokenHash, label: label.slice(0, 200) || 'Unknown device', expiresAt });
  return token;
}

/** Whether the token is a live remembered device of this user (and notes its use). */
export async function isRememberedDevice(ctx: AppContext, userId: string, deviceToken: string | undefined): Promise<boolean> {
  if (!deviceToken) return false;
  const now = ctx.now();
  const [device] = await ctx.db
    .update(rememberedDevices)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(rememberedDevices.tokenHash, hashToken(deviceToken)),
        eq(rememberedDevices.userId, userId),
        isNull(rememberedDevices.revokedAt),
        gt(rememberedDevices.expiresAt, now),
      ),
    )
    .returning({ id: rememberedDevices.id });
  return !!device;
}

export async function findRememberedDevices(ctx: AppContext, user: Subject): Promise<RememberedDevice[]> {
  const rows = await ctx.db
    .select()
    .from(rememberedDevices)
    .where(and(eq(rememberedDevices.userId, user.id), isNull(rememberedDevices.revokedAt), gt(rememberedDevices.expiresAt, ctx.now())))
    .orderBy(desc(rememberedDevices.createdAt));
  return rows.map((row) => ({
    uuid: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Another account's device, or an unknown one, answers 404. */
export async function revokeRememberedDevice(ctx: AppContext, user: Subject, uuid: string): Promise<void> {
  if (!isUuid(uuid)) throw notFound(M.deviceNotFound);
  const [revoked] = await ctx.db
    .update(rememberedDevices)
    .set({ revokedAt: ctx.now() })
    .where(and(eq(rememberedDevices.id, uuid), eq(rememberedDevices.userId, user.id), isNull(rememberedDevices.revokedAt)))
    .returning({ id: rememberedDevices.id });
  if (!revoked) throw notFound(M.deviceNotFound);
}

/**
 * An admin turns another user's two-factor off when they lost their device: audited, and the user is told by
 * mail (so a reset they did not ask for is noticed). Only a super admin resets an admin's: an ADMIN could
 * otherwise strip a super admin's second factor.
 */
export async function resetTwoFactor(ctx: AppContext, actor: Subject, userUuid: string): Promise<void> {
  if (!getPermissionScope(actor, 'twoFactor.reset')) throw notAllowed();
  if (!isUuid(userUuid)) throw notFound(M.userNotFound);
  const [target] = await ctx.db.select().from(users).where(eq(users.id, userUuid));
  if (!target) throw notFound(M.userNotFound);
  if (target.id === actor.id) throw invalid(M.resetSelf);
  if (getRoles(target).isAdmin && !getRoles(actor).isSuperAdmin) throw notAllowed(M.resetAdminNeedsSuperAdmin);
  if (!(await findSecretRow(ctx.db, target.id))) throw invalid(M.notEnabled);
  await ctx.db.transaction(async (tx) => {
    await removeTwoFactor(tx, target.id, ctx.now());
    await recordAdminAction(tx, actor, 'two_factor_reset', target.id, { email: target.email });
  });
  ctx.background.run('two-factor reset mail', () =>
    sendMail(ctx, {
      to: target.email,
      subject: 'Your Dialflow two-factor sign-in was reset',
      text: `Hello ${target.fullName},\n\nAn administrator (${actor.email}) turned off two-factor sign-in on your Dialflow account. You can now sign in with your password alone; set two-factor up again in Account Settings.\n\nIf you did not ask for this, change your password and tell your administrator.`,
    }),
  );
}
