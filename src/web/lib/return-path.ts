import { useLocation, useSearchParams } from 'react-router';

/** A made-up origin to resolve paths against: whatever leaves it is not a path of this site. */
const PROBE_ORIGIN = 'https://return-path.invalid';

/**
 * A path of this site to go back to (`/account-billing?plan=STANDARD`), or null for anything else: another site
 * (`https://evil.example`, `//evil.example`, `/\evil.example`), a scheme (`javascript:`), or a value with
 * whitespace or control characters (browsers drop tabs and newlines from URLs, so `/\t/evil.example` would
 * become `//evil.example`). A crafted link to the sign-in or a template's emulator cannot send the visitor away.
 */
export function toSafeReturnPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//')) return null;
  if (/[\s\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  return url.origin === PROBE_ORIGIN ? `${url.pathname}${url.search}${url.hash}` : null;
}

/** The query parameter the sign-in screens read the return path from: `/login?next=%2Faccount-billing`. */
export const RETURN_PATH_PARAM = 'next';

/** The sign-in (or register) screen's address that comes back to `returnPath` afterwards, when it is a safe path. */
export function withReturnPath(screen: string, returnPath: string | null | undefined): string {
  const safe = toSafeReturnPath(returnPath);
  return safe ? `${screen}?${RETURN_PATH_PARAM}=${encodeURIComponent(safe)}` : screen;
}

export const LOGIN_PATH = '/login';

/** `/login`, coming back to the page shown now (its query and fragment too) once the user has signed in. */
export function useLoginPath(): string {
  const { pathname, search, hash } = useLocation();
  return withReturnPath(LOGIN_PATH, `${pathname}${search}${hash}`);
}

/** Screens a sign-in never returns to: the sign-in screens themselves, and logout (a link would sign the user out again). */
const NOT_AFTER_SIGN_IN = /^\/(login|register|logout|forgot-password|reset-password|merchant\/login)(?=[/?#]|$)/;

/**
 * Where the sign-in screens go once the user is in: the page they asked for (`?next=`, a path of this site only),
 * else the signed-in home.
 */
export function useAfterSignInPath(): string {
  const [searchParams] = useSearchParams();
  return toAfterSignInPath(searchParams.get(RETURN_PATH_PARAM));
}

export function toAfterSignInPath(next: string | null): string {
  const path = toSafeReturnPath(next);
  return path && !NOT_AFTER_SIGN_IN.test(path) ? path : AFTER_SIGN_IN_PATH;
}

/** The signed-in home, where a sign-in with nowhere else to go lands. */
export const AFTER_SIGN_IN_PATH = '/get-started';
