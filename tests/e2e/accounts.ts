import type { Page } from 'playwright-core';
import { baseUrl } from './browser';
import { E2E_USERS } from './fixtures';

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

/** Puts an account on a plan through the super admin's call, as support would for a customer (docs/billing.md). */
async function activatePlan(email: string, plan: 'ENTERPRISE'): Promise<void> {
  const post = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { status: string; token?: string };
  };
  const admin = await post('/api/auth/login', E2E_USERS.superAdmin);
  const activated = await post('/api/subscription/activate', { email, plan, reason: 'browser tests build freely' }, admin.token);
  if (activated.status !== '00') throw new Error(`activating ${plan} failed: ${JSON.stringify(activated)}`);
}

/**
 * A fresh account for tests that change it (password...), so the seeded accounts stay as other files expect. It
 * is on TRIAL, as a newly registered account is; `plan: 'ENTERPRISE'` lifts the plan limits for tests that build
 * more apps or menus than TRIAL allows.
 */
export async function registerAccount(
  fullName = 'Efua Asante',
  options: { plan?: 'TRIAL' | 'ENTERPRISE' } = {},
): Promise<{ email: string; password: string; reply: LoginReplyBody }> {
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
  if (options.plan === 'ENTERPRISE') await activatePlan(email, options.plan);
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
