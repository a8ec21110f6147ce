import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getSidebar } from '../../src/shared/roles';
import { callApi, registerAccount, storeSession, waitForPath, type LoginReplyBody } from './accounts';
import { capture, baseUrl, DESKTOP, describeBrowser, launchBrowser, openPage, PHONE, screenshot, signIn } from './browser';
import type { E2eUserKind } from './fixtures';

// The sidebar table of docs/product.md, written out per kind of user (the UI must show exactly these).
const EVERYONE = [
  'Get Started',
  'Create App',
  'My Custom Actions',
  'Sub-flows',
  'Templates',
  'Buy USSD ShortCode',
  'My USSD Extensions',
  'SMS Outbox',
  'Inbox',
  'Contacts',
  'Campaigns',
  'Account Billing',
];
const ADMIN = [
  ...EVERYONE,
  'USSD Apps',
  'Merchant Management',
  'ShortCode Providers',
  'Available USSD Extensions',
  'WhatsApp Bots',
  'Contact Requests',
  'Subscriptions',
];
const EXPECTED_SIDEBAR: Record<E2eUserKind, string[]> = {
  private: [...EVERYONE, 'My USSD Apps'],
  admin: ADMIN,
  superAdmin: [...ADMIN, 'User Management', 'Mail Outbox', 'Subscriber Data'],
  chatbot: [...EVERYONE, 'My USSD Apps', 'WhatsApp Bots'],
  merchant: [...EVERYONE, 'My USSD Apps', 'Manage Merchant Account', 'Merchant Transactions'],
  support: [...EVERYONE, 'USSD Apps', 'Merchant Management', 'Contact Requests', 'Subscriptions'],
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

/** Everything a page load complains about: console warnings and errors, uncaught errors, and failed requests. */
function collectComplaints(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') complaints.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => complaints.push(`uncaught: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) complaints.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return complaints;
}

/** A logo's mark as markup, without what differs between two copies of it (size, the gradient's generated id). */
async function readMarkMarkup(page: Page, link: string): Promise<string> {
  const svg = page.getByRole('link', { name: link }).first().locator('svg').first();
  const html = await svg.evaluate((element) => element.outerHTML);
  return html.replace(/\s(width|height|id)="[^"]*"/g, '').replace(/url\(#[^)]*\)/g, 'url()');
}

/** True when two boxes share any area. */
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describeBrowser('console shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const kind of Object.keys(EXPECTED_SIDEBAR) as E2eUserKind[]) {
    it(`shows a ${kind} user exactly its sidebar entries, in getSidebar's order`, async () => {
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
    expect(childLabels).toEqual(['All Merchants', 'My Merchants', 'Register Merchant', 'All Users', 'Create Admin', 'Audit Log']);
    await page.context().close();
  });

  it('links every entry to its screen', async () => {
    const page = await openPage(browser);
    await signIn(page, 'chatbot');
    await page.goto('/get-started');
    await readSidebarLabels(page);
    const getStarted = sidebar(page).locator('[data-sidebar-entry="Get Started"]');
    expect(await getStarted.getAttribute('href')).toBe('/get-started');
    expect(await getStarted.getAttribute('aria-current')).toBe('page');
    // Every entry is a link, or a group of links (src/web/routes.test.ts checks that each path has a screen).
    expect(await sidebar(page).locator('[data-sidebar-entry]:not(a[href]):not(button)').count()).toBe(0);

    const bots = sidebar(page).locator('[data-sidebar-entry="WhatsApp Bots"]');
    expect(await bots.getAttribute('href')).toBe('/whatsapp-bots');
    await bots.click();
    await waitForPath(page, '/whatsapp-bots');
    await expect.poll(() => bots.getAttribute('aria-current')).toBe('page');

    // No entry links anywhere but to a built screen.
    const hrefs = await sidebar(page)
      .locator('a[href]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual([
      '/get-started',
      '/create-app',
      '/app-list',
      '/custom-functions',
      '/subflows',
      '/app-templates',
      '/buy-shortcode',
      '/my-shortcodes',
      '/sms-outbox',
      '/whatsapp-bots',
      '/inbox',
      '/contacts',
      '/campaigns',
      '/account-billing',
    ]);
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
    const manage = merchantPage.locator('header').getByRole('link', { name: 'Manage Merchant Account' });
    await manage.waitFor();
    expect(await manage.getAttribute('href')).toBe('/merchant/manage-account');
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

  it('loads pages, lazily loaded screens included, without a warning or a failed request; the tab has the favicon', async () => {
    const owner = await registerAccount('Akua Boateng');
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Akua Shop',
      description: 'Console shell e2e',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*78#',
      useTemplateTag: false,
    });
    const appId = app.data.appId;
    const complaints: Record<string, string[]> = {};
    const icons: Record<string, string[]> = {};
    for (const path of ['/', '/login', '/get-started', `/app/dashboard/${appId}`, `/app/design/${appId}`, '/custom-functions']) {
      const page = await openPage(browser);
      await storeSession(page, owner.reply);
      const heard = collectComplaints(page);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      if (heard.length > 0) complaints[path] = heard;
      icons[path] = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      await page.context().close();
    }
    expect(complaints).toEqual({});
    for (const [path, hrefs] of Object.entries(icons)) expect(hrefs, path).toEqual(['/favicon.svg']);
    const favicon = await fetch(`${baseUrl()}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await favicon.text()).toMatch(/^<svg[^>]+viewBox="0 0 32 32"/);
  });

  it('the public site and the console show one logo', async () => {
    const page = await openPage(browser);
    await page.goto('/');
    const publicMark = await readMarkMarkup(page, 'Dialflow home');
    expect(publicMark.match(/<circle/g)).toHaveLength(9);
    await screenshot(page, 'console-shell-public-logo-desktop');
    await signIn(page, 'private');
    await page.goto('/get-started');
    expect(await readMarkMarkup(page, 'Dialflow, get started')).toBe(publicMark);
    await page.context().close();

    const phone = await openPage(browser, PHONE);
    await phone.goto('/');
    expect(await readMarkMarkup(phone, 'Dialflow home')).toBe(publicMark);
    await screenshot(phone, 'console-shell-public-logo-phone');
    await phone.context().close();
  });

  it("notifications never cover the top bar's Account and Logout", async () => {
    const owner: { reply: LoginReplyBody } = await registerAccount('Kojo Antwi');
    const action = await callApi(owner.reply.token, '/api/custom-action/create', {
      actionName: 'toaster',
      description: 'Shows a toast',
      code: 'return 1;',
    });
    for (const [viewport, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await openPage(browser, viewport);
      await storeSession(page, owner.reply);
      await page.goto(`/custom-functions/${action.uuid}`);
      await page.getByRole('button', { name: 'Save Function' }).click();
      const toast = page.getByRole('alert').filter({ hasText: 'Function code saved' });
      await toast.waitFor();
      await toast.click({ trial: true }); // waits until the toast has stopped moving
      const header = page.locator('header');
      const targets =
        viewport === DESKTOP
          ? [header.getByRole('link', { name: 'Account' }), header.getByRole('link', { name: 'Logout' })]
          : [page.getByRole('button', { name: 'Account menu' })];
      const toastBox = (await toast.boundingBox())!;
      for (const target of targets) expect(overlaps(toastBox, (await target.boundingBox())!), name).toBe(false);
      await capture(page, `console-shell-toast-${name}`);
      await page.context().close();
    }
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
