import { z } from 'zod';

/** A new password has at least 6 characters. */
export const PASSWORD_MIN = 6;

/** A missing email is 'Email is required', not a malformed one: the form shows the first. */
const email = z.string().trim().toLowerCase().min(1, { message: 'Email is required', abort: true }).email('Invalid email').max(254);

/**
 * A password being chosen: at least PASSWORD_MIN characters, of which at least PASSWORD_MIN are not white space
 * (six spaces is not a password). Kept exactly as typed, never trimmed: a space inside a password is the user's.
 * Passwords being checked (login, the old password) are not held to this, so older passwords still sign in.
 */
export function newPasswordSchema(label: string) {
  return z
    .string()
    .min(PASSWORD_MIN, { message: `${label} must be at least ${PASSWORD_MIN} characters long.`, abort: true })
    .max(200)
    .refine(
      (v) => v.replace(/\s/g, '').length >= PASSWORD_MIN,
      `${label} must have at least ${PASSWORD_MIN} characters other than spaces.`,
    );
}

export const SAME_PASSWORD_MESSAGE = 'New password must be different from the old password.';

export const registerBodySchema = z.object({
  fullName: z.string().trim().min(1, 'Full name is required').max(120),
  email,
  mobileNumber: z.string().trim().min(1, 'Mobile number is required').max(32),
  companyName: z.string().trim().max(120).default(''),
  password: newPasswordSchema('Password'),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Please fill all the fields').max(254),
  password: z.string().min(1, 'Please fill all the fields').max(200),
  /** A remembered device's token (two-factor sign-in): with it the second step is skipped. */
  deviceToken: z.string().max(200).optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const forgotPasswordBodySchema = z.object({ email });
export const resetPasswordBodySchema = z.object({
  token: z.string().min(1).max(200),
  password: newPasswordSchema('New password'),
});

/** POST /api/changePassword's body is `{password, newPassword}` (the old password is `password`). */
export const changePasswordBodySchema = z
  .object({
    password: z.string().min(1, 'Old password is required.').max(200),
    newPassword: newPasswordSchema('New password'),
  })
  .refine((body) => body.newPassword !== body.password, { path: ['newPassword'], message: SAME_PASSWORD_MESSAGE });

/** The signed-in user as the console stores it (the login response and stored session values, docs/product.md). */
export const sessionUserSchema = z.object({
  uuid: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobileNumber: z.string(),
  companyName: z.string(),
  role: z.string(),
  roles: z.array(z.string()),
  userType: z.string(),
  merchantUser: z.boolean(),
  merchantUuid: z.string().nullable(),
  merchantName: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** Login response entity: `token` at the top level, the user in `data`. */
export const loginReplySchema = z.object({
  status: z.literal('00'),
  message: z.string(),
  token: z.string(),
  data: sessionUserSchema,
});
export type LoginReply = z.infer<typeof loginReplySchema>;
