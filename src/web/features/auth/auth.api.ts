import type { LoginBody, LoginReply, RegisterBody, SessionUser } from '../../../shared/api/auth.schema';
import { SIGN_IN_PROOF_HEADER, type SignInChallenge, signInChallengeSchema, solveSignInChallenge } from '../../../shared/api/sign-in-proof';
// @noble/hashes: WebCrypto exists only in secure contexts, and a console served over plain HTTP on a LAN address
// has none; synchronous, so the proof's tens of thousands of short hashes take no await each.
import { sha256 } from '@noble/hashes/sha2.js';
import { api, type ApiReply } from '../../lib/api';

/** The login response entity as it arrives: `token` at the top level, the user in `data`. */
export type LoginResult = ApiReply<SessionUser> & { token?: string };

export function isLoginReply(reply: LoginResult): reply is LoginResult & Pick<LoginReply, 'token' | 'data'> {
  return reply.status === '00' && typeof reply.token === 'string' && !!reply.data;
}

/** A sign-in's reply past the platform's ceiling: a challenge to solve (sign-in-proof.ts) before trying again. */
export type LoginChallengeReply = LoginResult & { challenge: SignInChallenge };

export function isLoginChallenge(reply: LoginResult): reply is LoginChallengeReply {
  return signInChallengeSchema.safeParse((reply as { challenge?: unknown }).challenge).success;
}

/**
 * POST the sign-in; past the platform's ceiling the server asks for a proof of work, which is solved here (under
 * a second) and the same sign-in sent once more with it. Sign-in calls never send a stored token: a stale one
 * would only make the server answer 401 for it.
 */
async function signIn(path: string, body: LoginBody): Promise<LoginResult> {
  const reply = (await api<SessionUser>(path, { body, auth: false })) as LoginResult;
  if (!isLoginChallenge(reply)) return reply;
  const encoder = new TextEncoder();
  const proof = await solveSignInChallenge(reply.challenge, (text) => sha256(encoder.encode(text)));
  return (await api<SessionUser>(path, { body, auth: false, headers: { [SIGN_IN_PROOF_HEADER]: proof } })) as LoginResult;
}

export const loginUser = (body: LoginBody) => signIn('/api/auth/login', body);

export const loginMerchant = (body: LoginBody) => signIn('/api/merchant/login', body);

export const registerUser = (body: RegisterBody) => api<SessionUser>('/api/auth/register', { body, auth: false }) as Promise<LoginResult>;

export const requestPasswordReset = (email: string) => api('/api/auth/forgot-password', { body: { email }, auth: false });

export const resetPassword = (token: string, password: string) =>
  api('/api/auth/reset-password', { body: { token, password }, auth: false });

export const logoutUser = () => api('/api/auth/logout', { method: 'POST' });

export const getCurrentUser = () => api<SessionUser>('/api/auth/me');

/** POST /api/changePassword `{password, newPassword}`; the reply carries a new token (old ones are revoked). */
export const changePassword = (body: { password: string; newPassword: string }) =>
  api('/api/changePassword', { body }) as Promise<ApiReply & { token?: string }>;
