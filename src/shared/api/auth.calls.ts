import { z } from 'zod';
import {
  changePasswordBodySchema,
  forgotPasswordBodySchema,
  loginBodySchema,
  loginReplySchema,
  registerBodySchema,
  resetPasswordBodySchema,
  sessionUserSchema,
} from './auth.schema';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import { passwordLoginReplySchema } from './two-factor.schema';

// Sign-in, sign-out and the account's password (src/shared/api/contract.ts). Calls that start a session never send
// a stored token (`auth: false`): a stale one would only make the server answer 401 for it. Key: ['auth', 'me'].

/** POST /api/auth/register: a new account, signed in (the login reply). */
export const registerUser = defineCall({
  method: 'POST',
  path: '/api/auth/register',
  body: registerBodySchema,
  reply: loginReplySchema,
  auth: false,
});

/** POST /api/auth/login: the login reply, or the second step's challenge (two-factor sign-in). */
export const loginUser = defineCall({
  method: 'POST',
  path: '/api/auth/login',
  body: loginBodySchema,
  reply: passwordLoginReplySchema,
  auth: false,
});

/** POST /api/merchant/login: as loginUser, for merchant users only. */
export const loginMerchant = defineCall({
  method: 'POST',
  path: '/api/merchant/login',
  body: loginBodySchema,
  reply: passwordLoginReplySchema,
  auth: false,
});

/** POST /api/auth/logout: revokes the session's token. */
export const logoutUser = defineCall({ method: 'POST', path: '/api/auth/logout', reply: messageSchema });

/** GET /api/auth/me: the signed-in user, as the console stores it. */
export const getCurrentUser = defineCall({
  method: 'GET',
  path: '/api/auth/me',
  reply: envelopeSchema(sessionUserSchema),
  key: ['auth', 'me'],
});

/** POST /api/auth/forgot-password: mails a reset link when the email has an account (the reply never says). */
export const requestPasswordReset = defineCall({
  method: 'POST',
  path: '/api/auth/forgot-password',
  body: forgotPasswordBodySchema,
  reply: messageSchema,
  auth: false,
});

/** POST /api/auth/reset-password: a new password from a reset link's token. */
export const resetPassword = defineCall({
  method: 'POST',
  path: '/api/auth/reset-password',
  body: resetPasswordBodySchema,
  reply: messageSchema,
  auth: false,
});

/** POST /api/changePassword: the reply carries a new token (the old ones are revoked). */
export const changePassword = defineCall({
  method: 'POST',
  path: '/api/changePassword',
  body: changePasswordBodySchema,
  reply: messageSchema.extend({ token: z.string() }),
});
