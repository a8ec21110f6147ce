import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getSidebar } from '../../src/shared/roles';
import { MAIL_OUTBOX_EMPTY_TEXT } from '../../src/web/features/mail/mail-outbox-page';
import { SMS_OUTBOX_EMPTY_TEXT } from '../../src/web/features/sms/sms-outbox-page';
import { callApi, registerAccount, storeSession, waitForPath } from './accounts';
import {
  baseUrl,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  signIn,
  waitForAnimations,
} from './browser';
import type { E2eUserKind } from './fixtures';

/**
 * Screenshots of every auth and console-shell screen at desktop and phone width, for a person to look at; each
 * checks first that the screen shows what it must (its title, its messages, its entries).
 */
const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const;

async function shoot(page: Page, name: string) {
  // Transitions (navbar, tooltips, notifications) end before the picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await waitForAnimations(page);
  await screenshot(page, name);
}

const shows = (locator: Locator) => locator.waitFor({ state: 'visible' });

/** SMS sent by one app's Send SMS action: 12 callers (one session each) dial its test URL; the last is the newest. */
const SMS_CALLERS = Array.from({ length: 12 }, (_, i) => `2332440001${String(i).padStart(2, '0')}`);

const receiptTo = (caller: string) => new RegExp(`^Receipt for \\+?${caller}: GHS 20\\.00 paid\\. Thank you!$`);

async function sendSmsFromApp(token: string): Promise<void> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: 'Mensah Receipts',
    description: 'Texts a receipt',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    useTemplateTag: false,
    customShortCode: '*920*83#',
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const menu = await callApi(token, '/api/createMenu', {
    appId: app.data.appId,
    isFirst: true,
    userDefinedName: 'receipt',
    displayText: 'Your receipt is on its way.',
    terminate: true,
    actions: [
      {
        actionName: 'receipt',
        actionType: 'pre',
        inheritsPlugin: 'sendsms',
        code: {
          smsSender: 'Mensah',
          mobile: '{{ session.mobile }}',
          smsMessage: 'Receipt for {{ session.mobile }}: GHS 20.00 paid. Thank you!',
        },
      },
    ],
  });
  if (menu.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(menu)}`);
  for (const [i, caller] of SMS_CALLERS.entries()) {
    const res = await fetch(`${baseUrl()}/ussd/${app.data.appId}/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sessionId: `sms-outbox-${Date.now()}-${i}`,
        phoneNumber: caller,
        serviceCode: '*920*83#',
        text: '',
      }).toString(),
    });
    const text = await res.text();
    if (!text.startsWith('END Your receipt')) throw new Error(`the hop answered ${res.status} ${text}`);
  }
}

describeBrowser('console screens (screenshots)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`auth screens at ${width} width`, async () => {
      const page = await openPage(browser, viewport);
      for (const [path, name, title, button] of [
        ['/login', 'login', 'Log in to Dialflow', 'Log in'],
        ['/register', 'register', 'Create your account', 'Create account'],
        ['/forgot-password', 'forgot-password', 'Forgot your password?', 'Send reset link'],
        ['/reset-password/example-token', 'reset-password', 'Choose a new password', 'Reset password'],
        ['/merchant/login', 'merchant-login', 'Login As Merchant', 'SIGN IN'],
      ] as const) {
        await page.goto(path);
        await shows(page.getByRole('heading', { name: title, exact: true }));
        await shows(page.locator('form').getByRole('button', { name: button }).first());
        await shoot(page, `auth-${name}-${width}`);
      }
      await page.goto('/login');
      await page.getByLabel('Email').fill('demo@dialflow.local');
      await page.getByLabel('Password', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await shows(page.getByTestId('form-alert').filter({ hasText: 'Invalid email or password' }));
      await shoot(page, `auth-login-error-${width}`);
      await page.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await shows(page.getByText('Full name is required', { exact: true }));
      await shows(page.getByText('Email is required', { exact: true }));
      await shows(page.getByText('Mobile number is required', { exact: true }));
      await shoot(page, `auth-register-errors-${width}`);
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await shows(page.getByTestId('form-alert').filter({ hasText: 'Check your email' }));
      await shoot(page, `auth-forgot-password-sent-${width}`);
      await page.context().close();
    });

    it(`console screens at ${width} width`, async () => {
      const page = await openPage(browser, viewport);
      await signIn(page, 'private');
      await page.goto('/get-started');
      await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
      expect(await page.getByTestId('greeting').textContent()).toBe('Hello, Ama');
      await shoot(page, `console-get-started-${width}`);
      await page.goto('/account-profile');
      await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
      await shows(page.getByTestId('profile-details').getByText('Ama', { exact: false }).first());
      await shoot(page, `console-account-profile-${width}`);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await shows(page.getByText('Old password is required.', { exact: true }));
      await shows(page.getByText('New password must be at least 6 characters long.', { exact: true }));
      await shoot(page, `console-account-profile-errors-${width}`);
      if (width === 'phone') {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        const nav = page.locator('nav[aria-label="Main navigation"]');
        await shows(nav.locator('[data-sidebar-entry="Get Started"]'));
        await shows(nav.locator('[data-sidebar-entry="My USSD Apps"]'));
        await shoot(page, `console-navbar-open-${width}`);
        await page.getByRole('button', { name: 'Close navigation' }).click();
        await page.getByRole('button', { name: 'Account menu' }).click();
        await shows(page.getByRole('menu').getByRole('menuitem', { name: 'Account', exact: true }));
        await shows(page.getByRole('menu').getByRole('menuitem', { name: 'Logout' }));
        await shoot(page, `console-account-menu-${width}`);
      }
      await page.goto('/logout');
      await page.getByText('Logging out...').waitFor();
      await screenshot(page, `auth-logout-${width}`);
      await page.context().close();
    });
  }

  it("SMS Outbox: the account's SMS newest first, ten a page, from the sidebar; another account's empty outbox; loading and error; both widths", async () => {
    const owner = await registerAccount('Kojo Mensah', { plan: 'ENTERPRISE' });
    const stranger = await registerAccount('Esi Quaye');
    await sendSmsFromApp(owner.reply.token);

    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto('/get-started');
    // Held, the list shows its loading state first.
    const release = await holdRequests(page, '**/api/sms/outbox**');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'SMS Outbox' }).click();
    await waitForPath(page, '/sms-outbox');
    await shows(page.getByRole('status', { name: 'Loading the SMS outbox' }));
    await shoot(page, 'sms-outbox-loading-desktop');
    await release();
    const table = page.getByTestId('sms-outbox-table');
    await shows(table);
    await shows(page.getByText('1-10 of 12 messages'));
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(10);
    // Newest first: the last caller's message heads the list, with its sender, text and app.
    const newest = rows.first();
    expect(await newest.locator('td').nth(1).textContent()).toContain(SMS_CALLERS.at(-1));
    await shows(newest.getByText('from Mensah', { exact: true }));
    await shows(newest.getByText(receiptTo(SMS_CALLERS.at(-1)!)));
    await shows(newest.getByText('Mensah Receipts').filter({ visible: true }));
    await shows(newest.getByText(/^(QUEUED|SENT)$/));
    await shoot(page, 'sms-outbox-desktop');
    await page.getByRole('button', { name: '2' }).click();
    await shows(page.getByText('11-12 of 12 messages'));
    expect(await rows.count()).toBe(2);
    await shows(rows.last().getByText(receiptTo(SMS_CALLERS[0]!)));

    // The call fails: the reason and Try again.
    await page.route('**/api/sms/outbox**', (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: 'Database unavailable' } }),
    );
    await page.reload();
    const error = page.getByTestId('sms-outbox-error');
    await shows(error.getByText('Database unavailable'));
    await shoot(page, 'sms-outbox-error-desktop');
    await page.unroute('**/api/sms/outbox**');
    await error.getByRole('button', { name: 'Try again' }).click();
    await shows(table);
    await page.context().close();

    // The phone: the same list folded, nothing sideways.
    const phone = await openPage(browser, PHONE);
    await storeSession(phone, owner.reply);
    await phone.goto('/sms-outbox');
    await shows(phone.getByTestId('sms-outbox-table'));
    await shows(phone.getByText(new RegExp(`^To \\+?${SMS_CALLERS.at(-1)} · from Mensah$`)));
    await expectNoSidewaysScroll(phone);
    await shoot(phone, 'sms-outbox-phone');
    await phone.context().close();

    // Another account sees none of them: its own outbox is empty and says when SMS land there.
    for (const viewport of [DESKTOP, PHONE]) {
      const other = await openPage(browser, viewport);
      await storeSession(other, stranger.reply);
      await other.goto('/sms-outbox');
      await shows(other.getByTestId('sms-outbox-empty').getByText(SMS_OUTBOX_EMPTY_TEXT));
      expect(await other.getByText('Mensah Receipts').count()).toBe(0);
      await expectNoSidewaysScroll(other);
      await shoot(other, `sms-outbox-empty-${viewport === DESKTOP ? 'desktop' : 'phone'}`);
      await other.context().close();
    }
  });

  it('Mail Outbox: super admins read the platform mail from the sidebar, at both widths; an ADMIN is sent away', async () => {
    const account = await registerAccount('Yaw Boakye');
    await fetch(`${baseUrl()}/api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email }),
    });
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const page = await openPage(browser, viewport);
      await signIn(page, 'superAdmin');
      if (width === 'desktop') {
        await page.goto('/get-started');
        await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Mail Outbox' }).click();
      } else {
        await page.goto('/admin/mail-outbox');
      }
      const table = page.getByTestId('mail-outbox-table');
      await shows(table);
      const row = table.locator('tbody tr').filter({ hasText: account.email }).first();
      await shows(row.getByText(/reset-password\//));
      await shows(row.getByText('Kept here'));
      await expectNoSidewaysScroll(page);
      await shoot(page, `mail-outbox-${width}`);
      // Empty (a fresh install) and failing states.
      await page.route('**/api/admin/mail-outbox**', (route) => route.fulfill({ json: { status: '00', message: 'OK', data: [] } }));
      await page.reload();
      await shows(page.getByTestId('mail-outbox-empty').getByText(MAIL_OUTBOX_EMPTY_TEXT));
      await expectNoSidewaysScroll(page);
      await shoot(page, `mail-outbox-empty-${width}`);
      await page.route('**/api/admin/mail-outbox**', (route) =>
        route.fulfill({ status: 500, json: { status: '99', message: 'Database unavailable' } }),
      );
      await page.reload();
      await shows(page.getByTestId('mail-outbox-error').getByText('Database unavailable'));
      await shoot(page, `mail-outbox-error-${width}`);
      await page.context().close();
    }
    const admin = await openPage(browser, DESKTOP);
    await signIn(admin, 'admin');
    await admin.goto('/admin/mail-outbox');
    await waitForPath(admin, '/get-started');
    expect(await admin.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Mail Outbox' }).count()).toBe(0);
    await admin.context().close();
  });

  for (const kind of ['superAdmin', 'merchant', 'chatbot'] as E2eUserKind[]) {
    it(`sidebar of a ${kind}`, async () => {
      const page = await openPage(browser, DESKTOP);
      await signIn(page, kind);
      await page.goto('/get-started');
      const nav = page.locator('nav[aria-label="Main navigation"]');
      await nav.locator('[data-sidebar-entry]').first().waitFor();
      const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { userType: string; roles: string[] });
      const entries = getSidebar(user);
      const labels = await nav
        .locator('[data-sidebar-entry]')
        .evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.sidebarEntry));
      expect(labels).toEqual(entries.map((entry) => entry.label));
      // Each group opened shows its links.
      for (const entry of entries.filter((e) => e.children)) {
        await nav.getByRole('button', { name: entry.label }).click();
        for (const child of entry.children!) await shows(nav.locator(`[data-sidebar-child="${child.label}"]`));
      }
      await nav.locator('[data-sidebar-entry="Create App"]').hover();
      await shoot(page, `console-sidebar-${kind}-desktop`);
      await page.context().close();
    });
  }
});
