import type { Page } from 'playwright-core';
import { baseUrl } from './browser';

export interface LoginReplyBody {
  status: string;
  message: string;
  token: string;
  data: {
    fullName: string;
    email: string;
    role: string;
    userType: string;
    roles: string[];
    merchantUser: boolean;
    merchantUuid: string | null;
    merchantName: string | null;
    uuid: string;
  };
}

let counter = 0;

/** A fresh account for tests that change it (password...), so the seeded accounts stay as other files expect. */
export async function registerAccount(fullName = 'Efua Asante'): Promise<{ email: string; password: string; reply: LoginReplyBody }> {
  counter += 1;
  const email = `e2e-${Date.now()}-${counter}@e2e.test`;
  const password = 'first-pass-1';
  const res = await fetch(`${baseUrl()}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName, email, mobileNumber: '233244000111', companyName: 'Asante Foods', password }),
  });
  const reply = (await res.json()) as LoginReplyBody;
  if (!reply.token) throw new Error(`registration failed: ${JSON.stringify(reply)}`);
  return { email, password, reply };
}

/** Stores a login reply the way the login screen does (the stored session values of docs/product.md). */
export async function storeSession(page: Page, reply: Pick<LoginReplyBody, 'token' | 'data'>): Promise<void> {
  await page.goto('/login');
  await page.evaluate((r) => {
    const u = r.data;
    localStorage.setItem('token', r.token);
    localStorage.setItem('user', JSON.stringify(u));
    localStorage.setItem('userRole', u.role);
    localStorage.setItem('userType', u.userType);
    localStorage.setItem('roles', JSON.stringify(u.roles));
    localStorage.setItem('merchantUser', String(u.merchantUser));
    localStorage.setItem('merchantUuid', u.merchantUuid ?? '');
    localStorage.setItem('merchantName', u.merchantName ?? '');
    localStorage.setItem('uuid', u.uuid);
  }, reply);
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the page is at exactly this path (waitForURL globs would let /merchant/login pass for /login). */
export async function waitForPath(page: Page, path: string, timeout = 10_000): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout });
}
