import type { z } from 'zod';
import type {
  RememberedDevice,
  TwoFactorChallengeReply,
  TwoFactorLoginBody,
  TwoFactorSetup,
  TwoFactorStatus,
  recoveryCodesSchema,
} from '../../../shared/api/two-factor.schema';
import type { SessionUser } from '../../../shared/api/auth.schema';
import { api, type ApiReply } from '../../lib/api';
import type { LoginResult } from './auth.api';

type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** A password sign-in that stopped at the second step (shared/api/two-factor.schema.ts). */
export function isTwoFactorChallenge(reply: ApiReply): reply is ApiReply & TwoFactorChallengeReply {
  return reply.status === '00' && reply.twoFactorRequired === true && typeof reply.challengeId === 'string';
}

/** Never sends the stored token: like the password step, it starts a session. */
export const loginWithTwoFactor = (body: Partial<TwoFactorLoginBody> & { challengeId: string }) =>
  api<SessionUser>('/api/auth/login/two-factor', { body, auth: false }) as Promise<LoginResult & { deviceToken?: string }>;

export const getTwoFactorStatus = () => api<TwoFactorStatus>('/api/auth/two-factor');
export const setupTwoFactor = () => api<TwoFactorSetup>('/api/auth/two-factor/setup', { method: 'POST' });
export const enableTwoFactor = (code: string) => api<RecoveryCodes>('/api/auth/two-factor/enable', { body: { code } });
export const disableTwoFactor = (body: { password: string; code: string }) => api('/api/auth/two-factor/disable', { body });
export const regenerateRecoveryCodes = (code: string) => api<RecoveryCodes>('/api/auth/two-factor/recovery-codes', { body: { code } });
export const findRememberedDevices = () => api<RememberedDevice[]>('/api/auth/two-factor/devices');
export const revokeRememberedDevice = (uuid: string) => api('/api/auth/two-factor/devices/revoke', { body: { uuid } });
export const resetTwoFactor = (userUuid: string) => api('/api/admin/two-factor/reset', { body: { userUuid } });

/**
 * Remembered devices' tokens, by email (several people may share a browser): kept apart from the session
 * values, so signing out keeps the device trusted until it expires or is revoked in Account Settings.
 */
const DEVICE_TOKENS_KEY = 'dialflow.deviceTokens';

function readDeviceTokens(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEVICE_TOKENS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function getDeviceToken(email: string): string | undefined {
  return readDeviceTokens()[email.trim().toLowerCase()];
}

/** Stores the token for the email, or forgets it (`undefined`): a token the server no longer accepts. */
export function setDeviceToken(email: string, token: string | undefined): void {
  const tokens = readDeviceTokens();
  const key = email.trim().toLowerCase();
  if (token) tokens[key] = token;
  else delete tokens[key];
  localStorage.setItem(DEVICE_TOKENS_KEY, JSON.stringify(tokens));
}
