import { z } from 'zod';
import { loginReplySchema } from './auth.schema';

/**
 * Two-factor sign-in (docs/security.md, Two-factor sign-in): a TOTP app's six-digit codes (RFC 6238, 30-second
 * steps), ten single-use recovery codes, and remembered devices. Replies are the envelope.
 *
 * - `POST /api/auth/login` (and `/api/merchant/login`) for an enrolled user -> {@link twoFactorChallengeReplySchema}
 * - `POST /api/auth/login/two-factor` {@link twoFactorLoginBodySchema} -> the login response entity, plus
 *   `deviceToken` when `rememberDevice` was asked
 * - `GET  /api/auth/two-factor` -> `data`: {@link twoFactorStatusSchema}
 * - `POST /api/auth/two-factor/setup` -> `data`: {@link twoFactorSetupSchema}
 * - `POST /api/auth/two-factor/enable` {code} -> `data`: {@link recoveryCodesSchema}
 * - `POST /api/auth/two-factor/disable` {password, code}
 * - `POST /api/auth/two-factor/recovery-codes` {code} -> `data`: recoveryCodesSchema (the old ones stop working)
 * - `GET  /api/auth/two-factor/devices` -> `data`: {@link rememberedDeviceSchema}[]
 * - `POST /api/auth/two-factor/devices/revoke` {uuid}
 * - `POST /api/admin/two-factor/reset` {userUuid}: an admin turns another user's two-factor off (audited, mailed)
 */

export const RECOVERY_CODE_COUNT = 10;
export const REMEMBER_DEVICE_DAYS = 30;
export const CHALLENGE_MINUTES = 5;
export const CHALLENGE_ATTEMPTS = 5;

export const TWO_FACTOR_MESSAGES = {
  challenge: 'Enter the code from your authenticator app.',
  invalidCode: 'That code is not right. Check your authenticator app and try again.',
  invalidRecoveryCode: 'That recovery code is not right, or it was used already.',
  challengeExpired: 'This sign-in has expired or was used. Please sign in again.',
  tooManyCodes: 'Too many wrong codes. Please sign in again.',
  codeRequired: 'Enter the six-digit code from your authenticator app, or a recovery code.',
  notEnabled: 'Two-factor sign-in is not turned on for this account.',
  alreadyEnabled: 'Two-factor sign-in is already on. Turn it off first to enrol a new device.',
  setupFirst: 'Start the set-up first: scan the QR code, then enter a code.',
  requiredForAdmins: 'Admins must keep two-factor sign-in on.',
  enrolmentRequired: 'Two-factor sign-in is required for admin accounts. Set it up in Account Settings (Two-factor) before anything else.',
  wrongPassword: 'Password is incorrect.',
  enabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-factor sign-in is off.',
  regenerated: 'New recovery codes made. The old ones no longer work.',
  deviceRevoked: 'Device forgotten. It will be asked for a code at its next sign-in.',
  deviceNotFound: 'Remembered device not found',
  userNotFound: 'User not found',
  resetSelf: 'To turn off your own two-factor sign-in, use Account Settings.',
  resetAdminNeedsSuperAdmin: "Only a super admin may reset an admin's two-factor sign-in.",
  reset: 'Two-factor sign-in was reset. The user signs in with the password alone (admins are asked to enrol again).',
} as const;

/** Six digits; spaces a user typed between groups are dropped. */
const totpCode = z
  .string()
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the six-digit code from your authenticator app.'));

/** A recovery code as shown (`abcd-efgh-ijkl-mnop`), any case, with or without dashes and spaces. */
const recoveryCode = z.string().trim().min(1).max(64);

export const twoFactorChallengeReplySchema = z.object({
  status: z.literal('00'),
  message: z.string(),
  twoFactorRequired: z.literal(true),
  challengeId: z.string(),
  /** Seconds the challenge is good for. */
  expiresIn: z.number(),
});
export type TwoFactorChallengeReply = z.infer<typeof twoFactorChallengeReplySchema>;

/** What a password sign-in answers: the login response entity, or the second step's challenge. */
export const passwordLoginReplySchema = z.union([loginReplySchema, twoFactorChallengeReplySchema]);

export const twoFactorLoginBodySchema = z
  .object({
    challengeId: z.string().min(1).max(200),
    code: totpCode.optional(),
    recoveryCode: recoveryCode.optional(),
    rememberDevice: z.boolean().default(false),
  })
  .strict()
  .refine((b) => !!b.code !== !!b.recoveryCode, { message: TWO_FACTOR_MESSAGES.codeRequired });
export type TwoFactorLoginBody = z.infer<typeof twoFactorLoginBodySchema>;

export const twoFactorLoginReplySchema = loginReplySchema.extend({
  /** Present when the device is to be remembered: sent back as `deviceToken` with the next password sign-in. */
  deviceToken: z.string().optional(),
});

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** This account must have it (an admin while TWO_FACTOR_REQUIRED_FOR_ADMINS is on). */
  required: z.boolean(),
  /** Merchant users and accounts that take payments are advised to turn it on. */
  recommended: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

export const twoFactorSetupSchema = z.object({
  /** Base32, for typing into an app that cannot scan. */
  secret: z.string(),
  otpauthUri: z.string(),
  /** The URI as a QR code, a `data:image/png;base64,...` URL. */
  qrDataUrl: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const twoFactorCodeBodySchema = z.object({ code: totpCode }).strict();
export const twoFactorDisableBodySchema = z
  .object({ password: z.string().min(1, 'Password is required.').max(200), code: totpCode })
  .strict();

export const rememberedDeviceSchema = z.object({
  uuid: z.string(),
  label: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type RememberedDevice = z.infer<typeof rememberedDeviceSchema>;

export const revokeDeviceBodySchema = z.object({ uuid: z.string().max(64) }).strict();
export const resetTwoFactorBodySchema = z.object({ userUuid: z.string().max(64) }).strict();
