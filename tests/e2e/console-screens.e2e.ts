import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getSidebar } from '../../src/shared/roles';
import { describeBrowser, DESKTOP, launchBrowser, openPage, PHONE, screenshot, signIn, waitForAnimations } from './browser';
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
