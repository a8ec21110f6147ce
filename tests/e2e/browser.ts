import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { describe, expect, inject } from 'vitest';
import { E2E_USERS, type E2eUserKind } from './fixtures';
import { storeSession, type LoginReplyBody } from './accounts';
import { launchChromium } from './chromium';

export const baseUrl = () => inject('baseUrl');

/** `describe` when Chromium is there, else a skipped describe (global setup already said so loudly). */
export const describeBrowser: typeof describe = (inject('hasBrowser') ? describe : describe.skip) as typeof describe;

/**
 * The tier's one Chromium (global setup launches it; connecting takes about half of what a launch does), or one of
 * the file's own when E2E_SHARED_BROWSER=0. Closing what this returns closes the file's contexts, not the browser.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function openPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl() });
  return context.newPage();
}

/**
 * Resolves once the page has drawn two more frames and no animation or transition that ends is still running
 * (a dialog's pop-in, a drawer sliding open, a layout moving): what a screenshot waits for. Endless ones
 * (spinners) are not waited for.
 */
export async function waitForAnimations(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
  );
}

/**
 * Resolves once every request the page started before this call has been reported: the page asks for
 * /api/health and this waits for that request, which comes after them. For checking that a page sent nothing.
 */
export async function waitForEarlierRequests(page: Page): Promise<void> {
  await Promise.all([
    page.waitForRequest((request) => new URL(request.url()).pathname === '/api/health'),
    page.evaluate(() => fetch('/api/health')),
  ]);
}

/** Closes every toast with its own button and waits until none is left (a toast can cover what a test clicks or shows). */
export async function closeToasts(page: Page): Promise<void> {
  const toasts = page.locator('.mantine-Notification-root');
  for (const close of await toasts.locator('button').all()) await close.click().catch(() => undefined);
  await toasts.first().waitFor({ state: 'detached' });
}

/**
 * Whether the browser tests write their screenshots: yes where a person runs them (to look at the screens), not in
 * CI, where nobody opens them and a full page costs up to a second and a half of a 2-core machine's time.
 * E2E_SCREENSHOTS=1 or 0 decides either way.
 */
export const TAKES_SCREENSHOTS = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS === '1' : !process.env.CI;

/** Writes test-results/screenshots/<name>.png of a page or an element, when screenshots are taken (TAKES_SCREENSHOTS). */
export async function capture(
  target: Pick<Page, 'screenshot'> | Pick<Locator, 'screenshot'>,
  name: string,
  options: { fullPage?: boolean; animations?: 'disabled' } = {},
): Promise<void> {
  if (!TAKES_SCREENSHOTS) return;
  mkdirSync('test-results/screenshots', { recursive: true });
  await target.screenshot({ path: `test-results/screenshots/${name}.png`, ...options });
}

/** Screenshots land in test-results/screenshots/ so a person can look at them. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await capture(page, name, { fullPage: true });
}

/** The top of the page, once nothing moves, in test-results/screenshots/. */
export async function screenshotTop(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await waitForAnimations(page);
  await screenshot(page, name);
}

/** What the viewport shows, once nothing moves: for a dialog over the page (a full page would leave the page below uncovered). */
export async function screenshotViewport(page: Page, name: string): Promise<void> {
  await waitForAnimations(page);
  await capture(page, name);
}

/** Nothing on the page scrolls sideways (a phone's width). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${new URL(page.url()).pathname} scrolls sideways`).toBeLessThanOrEqual(0);
}

/**
 * Holds the page's requests to `url` (a glob) until the returned function is called, to look at a loading
 * state; calling it lets them through and stops holding.
 */
export async function holdRequests(page: Page, url: string): Promise<() => Promise<void>> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handlers: Promise<void>[] = [];
  await page.route(url, (route) => {
    const handler = held.then(() => route.continue());
    handlers.push(handler);
    return handler;
  });
  return async () => {
    release();
    // Unrouted while a request is still held, Playwright would let it through itself and the handler's own
    // continue would fail: the held ones go first.
    await Promise.all(handlers);
    await page.unroute(url);
  };
}

/** Signs in through the API and stores the session the way the login screen does. */
export async function signIn(page: Page, kind: E2eUserKind): Promise<void> {
  const user = E2E_USERS[kind];
  const path = kind === 'merchant' ? '/api/merchant/login' : '/api/auth/login';
  const res = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  const reply = (await res.json()) as LoginReplyBody;
  if (!reply.token) throw new Error(`sign-in failed for ${kind}: ${JSON.stringify(reply)}`);
  await storeSession(page, reply);
}
