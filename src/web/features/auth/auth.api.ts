import type { LoginBody, LoginReply, RegisterBody, SessionUser } from '../../../shared/api/auth.schema';
import { api, type ApiReply } from '../../lib/api';

/** The login response entity as it arrives: `token` at the top level, the user in `data`. */
export type LoginResult = ApiReply<SessionUser> & { token?: string };

export function isLoginReply(reply: LoginResult): reply is LoginResult & Pick<LoginReply, 'token' | 'data'> {
  return reply.status === '00' && typeof reply.token === 'string' && !!reply.data;
}

// Sign-in calls never send a stored token: a stale one would only make the server answer 401 for it.
export const loginUser = (body: LoginBody) => api<SessionUser>('/api/auth/login', { body, auth: false }) as Promise<LoginResult>;

export const loginMerchant = (body: LoginBody) => api<SessionUser>('/api/merchant/login', { body, auth: false }) as Promise<LoginResult>;

export const registerUser = (body: RegisterBody) => api<SessionUser>('/api/auth/register', { body, auth: false }) as Promise<LoginResult>;

export const requestPasswordReset = (email: string) => api('/api/auth/forgot-password', { body: { email }, auth: false });

export const resetPassword = (token: string, password: string) =>
  api('/api/auth/reset-password', { body: { token, password }, auth: false });

export const logoutUser = () => api('/api/auth/logout', { method: 'POST' });

export const getCurrentUser = () => api<SessionUser>('/api/auth/me');

/** POST /api/changePassword `{password, newPassword}`; the reply carries a new token (old ones are revoked). */
export const changePassword = (body: { password: string; newPassword: string }) =>
  api('/api/changePassword', { body }) as Promise<ApiReply & { token?: string }>;
