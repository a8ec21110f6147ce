import type { TwoFactorChallengeReply } from '../../../shared/api/two-factor.schema';
import type { ApiReply } from '../../lib/api';

// Two-factor sign-in's console side; its calls are declared in src/shared/api/two-factor.calls.ts.

/** A password sign-in that stopped at the second step (shared/api/two-factor.schema.ts). */
export function isTwoFactorChallenge(reply: ApiReply): reply is ApiReply & TwoFactorChallengeReply {
  return reply.status === '00' && reply.twoFactorRequired === true && typeof reply.challengeId === 'string';
}

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
