import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getSidebar } from '../../src/shared/roles';
import { pathOf, waitForPath } from './accounts';
import { describeBrowser, launchBrowser, openPage, PHONE, signIn } from './browser';
import type { E2eUserKind } from './fixtures';

// The spec's section 6 table, written out per kind of user (the UI must show exactly these).
const EVERYONE = ['Get Started', 'Create App', 'My Custom Actions', 'Templates', 'Buy USSD ShortCode', 'My USSD Extensions', 'Account Billing'];
const ADMIN = [...EVERYONE, 'USSD Apps', 'Merchant Management', 'ShortCode Providers', 'Available USSD Extensions', 'WhatsApp Bots'];
const EXPECTED_SIDEBAR: Record<E2eUserKind, string[]> = {
  private: [...EVERYONE, 'My USSD Apps'],
  admin: ADMIN,
  superAdmin: [...ADMIN, 'User Management'],
  chatbot: [...EVERYONE, 'My USSD Apps', 'WhatsApp Bots'],
  merchant: [...EVERYONE, 'My USSD Apps', 'Manage Merchant Account', 'Merchant Transactions'],
};

const sidebar = (page: Page) => page.locator('nav[aria-label="Main navigation"]');

async function readSidebarLabels(page: Page): Promise<string[]> {
  await sidebar(page).locator('[data-sidebar-entry]').first().waitFor();
  return sidebar(page)
    .locator('[data-sidebar-entry]')
    .evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.sidebarEntry ?? ''));
}

/** On a phone the collapsed navbar is moved off to the left rather than hidden. */
const IS_NAV_OFF_SCREEN = () => {
  const nav = document.querySelector('nav[aria-label="Main navigation"]');
  return !!nav && nav.getBoundingClientRect().right <= 0;
};
const isOffScreen = (page: Page) => page.evaluate(IS_NAV_OFF_SCREEN);

const sorted = (labels: string[]) => [...labels].sort();

describeBrowser('console shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const kind of Object.keys(EXPECTED_SIDEBAR) as E2eUserKind[]) {
    it(`shows a ${kind} user exactly the spec's sidebar entries, in getSidebar's order`, async () => {
      const page = await openPage(browser);
      await signIn(page, kind);
      await page.goto('/get-started');
      const labels = await readSidebarLabels(page);
      expect(sorted(labels)).toEqual(sorted(EXPECTED_SIDEBAR[kind]));
      const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { userType: string; roles: string[] });
      expect(labels).toEqual(getSidebar(user).map((entry) => entry.label));
      // Every label is on screen, not only in the DOM.
      for (const label of labels) expect(await sidebar(page).locator(`[data-sidebar-entry="${label}"]`).isVisible()).toBe(true);
      await page.context().close();
    });
  }

  it('marks admin-only entries, not "My USSD Apps", for an admin', async () => {
    const page = await openPage(browser);
    await signIn(page, 'admin');
    await page.goto('/get-started');
    const labels = await readSidebarLabels(page);
    expect(labels).toContain('USSD Apps');
    expect(labels).not.toContain('My USSD Apps');
    expect(labels).not.toContain('User Management');
    await page.context().close();
  });

  it('nests Merchant Management and User Management for a super admin', async () => {
    const page = await openPage(browser);
    await signIn(page, 'superAdmin');
    await page.goto('/get-started');
    await readSidebarLabels(page);
    await sidebar(page).getByRole('button', { name: 'Merchant Management' }).click();
    await sidebar(page).getByRole('button', { name: 'User Management' }).click();
    const children = sidebar(page).locator('[data-sidebar-child]');
    await children.last().waitFor();
    const childLabels = await children.evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.sidebarChild));
    expect(childLabels).toEqual(['All Merchants', 'My Merchants', 'Register Merchant', 'All Users', 'Create Admin']);
    await page.context().close();
  });

  it('links built screens and shows the rest disabled with a Soon badge and a tooltip', async () => {
    const page = await openPage(browser);
    await signIn(page, 'private');
    await page.goto('/get-started');
    await readSidebarLabels(page);
    const getStarted = sidebar(page).locator('[data-sidebar-entry="Get Started"]');
    expect(await getStarted.getAttribute('href')).toBe('/get-started');
    expect(await getStarted.getAttribute('aria-current')).toBe('page');

    const customActions = sidebar(page).locator('[data-sidebar-entry="Buy USSD ShortCode"]');
    expect(await customActions.getAttribute('aria-disabled')).toBe('true');
    expect(await customActions.getAttribute('href')).toBeNull();
    expect(await customActions.textContent()).toContain('Soon');
    await customActions.hover();
    await page.getByRole('tooltip').filter({ hasText: 'Coming soon' }).waitFor();
    // Playwright treats aria-disabled as disabled; force the click to prove nothing happens.
    await customActions.click({ force: true });
    await page.waitForTimeout(200);
    expect(pathOf(page)).toBe('/get-started');

    // No entry links anywhere but to a built screen.
    const hrefs = await sidebar(page).locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(['/get-started', '/create-app', '/app-list', '/custom-functions', '/app-templates']);
    await page.context().close();
  });

  it('top bar: greeting, Docs in a new tab, Account, Logout; Manage Merchant Account only for merchants', async () => {
    const page = await openPage(browser);
    await signIn(page, 'private');
    await page.goto('/get-started');
    const header = page.locator('header');
    await expect(page.getByTestId('greeting').textContent()).resolves.toBe('Hello, Ama');
    const docs = header.getByRole('link', { name: 'Docs' });
    expect([await docs.getAttribute('href'), await docs.getAttribute('target')]).toEqual(['/api/docs', '_blank']);
    expect(await header.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/logout');
    expect(await header.getByText('Manage Merchant Account').count()).toBe(0);
    await header.getByRole('link', { name: 'Account' }).click();
    await waitForPath(page, '/account-profile');
    await page.context().close();

    const merchantPage = await openPage(browser);
    await signIn(merchantPage, 'merchant');
    await merchantPage.goto('/get-started');
    const manage = merchantPage.locator('header').getByRole('button', { name: /Manage Merchant Account/ });
    await manage.waitFor();
    expect(await manage.getAttribute('aria-disabled')).toBe('true');
    await expect(merchantPage.getByTestId('greeting').textContent()).resolves.toBe('Hello, Kofi');
    await merchantPage.context().close();
  });

  it('get started: heading, the four steps, and New App leading to /create-app', async () => {
    const page = await openPage(browser);
    await signIn(page, 'private');
    await page.goto('/get-started');
    await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
    const steps = await page.locator('section[aria-labelledby="getting-started-heading"] li').allTextContents();
    expect(steps).toHaveLength(4);
    expect(steps.join(' ')).toMatch(/Create an app.*Design your menus.*Test in the emulator.*Deploy/);
    await page.getByRole('link', { name: 'New App' }).click();
    await waitForPath(page, '/create-app');
    await page.context().close();
  });

  it('on a phone: burger opens the sidebar, following a link closes it, the account menu has the top-bar links', async () => {
    const page = await openPage(browser, PHONE);
    await signIn(page, 'merchant');
    await page.goto('/account-profile');
    const nav = sidebar(page);
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    expect(await isOffScreen(page)).toBe(true);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await nav.locator('[data-sidebar-entry="Merchant Transactions"]').waitFor({ state: 'visible' });
    await nav.locator('[data-sidebar-entry="Get Started"]').click();
    await waitForPath(page, '/get-started');
    await page.waitForFunction(IS_NAV_OFF_SCREEN);

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Account', exact: true }).waitFor();
    await menu.getByRole('menuitem', { name: /Manage Merchant Account/ }).waitFor();
    await menu.getByRole('menuitem', { name: /Docs/ }).waitFor();
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await waitForPath(page, '/merchant/login');
    await page.context().close();
  });
});
