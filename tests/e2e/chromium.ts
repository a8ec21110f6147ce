import { chromium, type Browser, type Page } from 'playwright-core';
import type { LoginReplyBody } from './accounts';

/**
 * Chromium as the browser tests run it, and the session the login screen stores. No vitest in here: a benchmark
 * (bench/flowmap-fps.ts) drives the same browser the same way.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Writes a login reply into localStorage the way the login screen does (the stored session values of
 * docs/product.md). Self-contained, so Playwright can run it in the page (`page.evaluate`, `addInitScript`).
 */
export function writeStoredSession(r: Pick<LoginReplyBody, 'token' | 'data'>): void {
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
}

/**
 * Stores a login reply the way the login screen does. It writes the console origin's localStorage from a small
 * page of that origin (the health check's JSON), not the login screen: booting the console only to leave it costs
 * a page load per sign-in, and every caller opens the screen it tests next.
 */
export async function storeSession(page: Page, reply: Pick<LoginReplyBody, 'token' | 'data'>): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate(writeStoredSession, reply);
}
