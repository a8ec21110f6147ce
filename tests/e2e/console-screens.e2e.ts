import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { describeBrowser, DESKTOP, launchBrowser, openPage, PHONE, screenshot, signIn } from './browser';
import type { E2eUserKind } from './fixtures';

/** Screenshots of every auth and console-shell screen at desktop and phone width, for a person to look at. */
const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const;

async function shoot(page: Page, name: string) {
  // Let transitions (navbar, tooltips, notifications) settle before the picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(400);
  await screenshot(page, name);
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
      for (const [path, name] of [
        ['/login', 'login'],
        ['/register', 'register'],
        ['/forgot-password', 'forgot-password'],
        ['/reset-password/example-token', 'reset-password'],
        ['/merchant/login', 'merchant-login'],
      ] as const) {
        await page.goto(path);
        await page.locator('form').waitFor();
        await shoot(page, `auth-${name}-${width}`);
      }
      await page.goto('/login');
      await page.getByLabel('Email').fill('demo@dialflow.local');
      await page.getByLabel('Password', { exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByTestId('form-alert').waitFor();
      await shoot(page, `auth-login-error-${width}`);
      await page.goto('/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      await shoot(page, `auth-register-errors-${width}`);
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill('someone@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByTestId('form-alert').waitFor();
      await shoot(page, `auth-forgot-password-sent-${width}`);
      await page.context().close();
    });

    it(`console screens at ${width} width`, async () => {
      const page = await openPage(browser, viewport);
      await signIn(page, 'private');
      await page.goto('/get-started');
      await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
      await shoot(page, `console-get-started-${width}`);
      await page.goto('/account-profile');
      await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
      await shoot(page, `console-account-profile-${width}`);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await shoot(page, `console-account-profile-errors-${width}`);
      if (width === 'phone') {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await shoot(page, `console-navbar-open-${width}`);
        await page.getByRole('button', { name: 'Close navigation' }).click();
        await page.getByRole('button', { name: 'Account menu' }).click();
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
      await page.locator('[data-sidebar-entry]').first().waitFor();
      for (const group of ['Merchant Management', 'User Management']) {
        const button = page.getByRole('button', { name: group });
        if (await button.count()) await button.click();
      }
      await page.locator('[data-sidebar-entry="Create App"]').hover();
      await shoot(page, `console-sidebar-${kind}-desktop`);
      await page.context().close();
    });
  }
});
