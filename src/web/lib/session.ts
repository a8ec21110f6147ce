import type { LoginReply, SessionUser } from '../../shared/api/auth.schema';

/**
 * The stored session values (local storage, docs/product.md): token, user, userRole, userType, roles, merchantUser,
 * merchantUuid, merchantName, uuid, dialerMobile. `user` holds the whole signed-in user as JSON.
 */
const KEYS = ['token', 'user', 'userRole', 'userType', 'roles', 'merchantUser', 'merchantUuid', 'merchantName', 'uuid'] as const;

export function getToken(): string | null {
  return localStorage.getItem('token');
}

export function getStoredUser(): SessionUser | null {
  const raw = localStorage.getItem('user');
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

export function saveSession(reply: Pick<LoginReply, 'token' | 'data'>): void {
  const user = reply.data;
  localStorage.setItem('token', reply.token);
  localStorage.setItem('user', JSON.stringify(user));
  localStorage.setItem('userRole', user.role);
  localStorage.setItem('userType', user.userType);
  localStorage.setItem('roles', JSON.stringify(user.roles));
  localStorage.setItem('merchantUser', String(user.merchantUser));
  localStorage.setItem('merchantUuid', user.merchantUuid ?? '');
  localStorage.setItem('merchantName', user.merchantName ?? '');
  localStorage.setItem('uuid', user.uuid);
  if (!localStorage.getItem('dialerMobile')) localStorage.setItem('dialerMobile', user.mobileNumber);
}

/** Replaces the stored user after a profile refresh (`GET /api/auth/me`), keeping the token. */
export function updateStoredUser(user: SessionUser): void {
  const token = getToken();
  if (token) saveSession({ token, data: user });
}

export function clearSession(): void {
  for (const key of KEYS) localStorage.removeItem(key);
}
