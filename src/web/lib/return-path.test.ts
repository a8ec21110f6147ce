import { describe, expect, it } from 'vitest';
import { toAfterSignInPath, toSafeReturnPath, withReturnPath } from './return-path';

describe('toSafeReturnPath', () => {
  it('keeps paths of this site with their query and fragment', () => {
    expect(toSafeReturnPath('/')).toBe('/');
    expect(toSafeReturnPath('/account-billing')).toBe('/account-billing');
    expect(toSafeReturnPath('/app-templates?clone=abc&x=1#top')).toBe('/app-templates?clone=abc&x=1#top');
  });

  it.each([
    null,
    undefined,
    '',
    'account-billing',
    'https://evil.example',
    'http://evil.example/login',
    '//evil.example',
    '//evil.example/account-billing',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /account-billing',
    'javascript:alert(1)',
    '/%0a/evil.example x',
  ])('refuses %j', (value) => {
    expect(toSafeReturnPath(value)).toBeNull();
  });
});

describe('withReturnPath', () => {
  it('adds a safe path as next, and leaves anything else out', () => {
    expect(withReturnPath('/login', '/app-templates?clone=a1')).toBe('/login?next=%2Fapp-templates%3Fclone%3Da1');
    expect(withReturnPath('/login', '//evil.example')).toBe('/login');
    expect(withReturnPath('/register', null)).toBe('/register');
  });
});

describe('toAfterSignInPath', () => {
  it('goes to the page asked for, else /get-started; never back to a sign-in screen or logout', () => {
    expect(toAfterSignInPath('/account-billing?plan=STANDARD')).toBe('/account-billing?plan=STANDARD');
    expect(toAfterSignInPath(null)).toBe('/get-started');
    expect(toAfterSignInPath('https://evil.example')).toBe('/get-started');
    for (const path of ['/logout', '/login', '/login?next=/x', '/register', '/merchant/login', '/reset-password/abc'])
      expect(toAfterSignInPath(path), path).toBe('/get-started');
    expect(toAfterSignInPath('/login-help')).toBe('/login-help');
  });
});
