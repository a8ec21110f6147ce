import { z } from 'zod';

/** Spec section 5/9: password minimum length is 6. */
export const PASSWORD_MIN = 6;

const email = z.string().trim().toLowerCase().email('Invalid email').max(254);

export const registerBodySchema = z.object({
  fullName: z.string().trim().min(1, 'Full name is required').max(120),
  email,
  mobileNumber: z.string().trim().min(1, 'Mobile number is required').max(32),
  companyName: z.string().trim().max(120).default(''),
  password: z.string().min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long.`).max(200),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Please fill all the fields').max(254),
  password: z.string().min(1, 'Please fill all the fields').max(200),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const forgotPasswordBodySchema = z.object({ email });
export const resetPasswordBodySchema = z.object({
  token: z.string().min(1).max(200),
  password: z.string().min(PASSWORD_MIN, `New password must be at least ${PASSWORD_MIN} characters long.`).max(200),
});

/** The spec's POST /api/changePassword body is `{password, newPassword}` (the old password is `password`). */
export const changePasswordBodySchema = z.object({
  password: z.string().min(1, 'Old password is required.').max(200),
  newPassword: z.string().min(PASSWORD_MIN, `New password must be at least ${PASSWORD_MIN} characters long.`).max(200),
});

/** The signed-in user as the console stores it (spec: login response entity and stored session values). */
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
