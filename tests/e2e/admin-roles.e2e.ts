import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitForPath } from './accounts';
import { describeBrowser, DESKTOP, expectNoSidewaysScroll, launchBrowser, openPage, PHONE, screenshotTop, signIn } from './browser';
import { E2E_USERS } from './fixtures';

/**
 * A SUPPORT admin (docs/product.md, Admin roles) in the console: the sidebar of the role table, and admin screens
 * that read but show no button the server would refuse: Subscriptions without Extend, Activate or the bots
 * switch; All Merchants without New, Edit or Delete; USSD Apps with Clone only. Screens of other roles send them
 * away. No call the screens make is refused. Photographed at both widths.
 */
const nav = (page: Page) => page.locator('nav[aria-label="Main navigation"]');

/** Every refused call the page makes: a screen must not offer what the role cannot do. */
function collectRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403 || response.status() === 404) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return refused;
}

describeBrowser('a SUPPORT admin', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`reads the admin screens without a button that would be refused (${width})`, async () => {
      const page = await openPage(browser, viewport);
      const refused = collectRefusals(page);
      await signIn(page, 'support');

      await page.goto('/get-started');
      if (width === 'phone') await page.getByRole('button', { name: /navigation/i }).click();
      await nav(page).locator('[data-sidebar-entry="Merchant Management"]').click();
      await nav(page).locator('[data-sidebar-child="My Merchants"]').waitFor();
      expect(await nav(page).locator('[data-sidebar-child]').allTextContents()).toEqual(['All Merchants', 'My Merchants']);
      await screenshotTop(page, `admin-roles-support-sidebar-${width}`);

      await page.goto(`/admin/subscriptions?email=${encodeURIComponent(E2E_USERS.private.email)}`);
      await page.getByTestId('account-subscription').waitFor();
      await page.getByTestId('billing-usage').waitFor();
      expect(await page.getByRole('button', { name: 'Extend' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Activate plan' }).count()).toBe(0);
      expect(await page.getByTestId('bot-access-switch').count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, `admin-roles-support-subscriptions-${width}`);

      await page.goto('/merchant/list');
      await page.getByRole('heading', { name: 'All Merchants' }).waitFor();
      // None is assigned to them: All Merchants lists the assigned ones only, and offers no registration.
      await page.getByText('No merchants are assigned to you').waitFor();
      expect(await page.getByRole('link', { name: 'New Merchant' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
      await screenshotTop(page, `admin-roles-support-merchants-${width}`);

      await page.goto('/app-list-admin');
      await page.getByRole('heading', { name: 'USSD Apps' }).waitFor();
      const actions = page.getByTestId(width === 'phone' ? 'app-cards' : 'app-table');
      await actions
        .getByRole('button', { name: /^Clone / })
        .first()
        .waitFor();
      expect(await actions.getByRole('button', { name: /^(Delete|Export) / }).count()).toBe(0);
      expect(await actions.getByRole('link', { name: /^(Design|Settings of|Monitor) / }).count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, `admin-roles-support-apps-${width}`);

      await page.goto('/admin/contact-requests');
      await page.getByRole('heading', { name: 'Contact Requests' }).waitFor();
      await screenshotTop(page, `admin-roles-support-contact-requests-${width}`);

      expect(refused).toEqual([]);
      await page.context().close();
    });
  }

  it('is sent away from the screens of other roles', async () => {
    const page = await openPage(browser, DESKTOP);
    await signIn(page, 'support');
    await page.goto('/admin/list');
    await waitForPath(page, '/get-started');
    await page.goto('/admin/audit-log');
    await waitForPath(page, '/get-started');
    await page.goto('/merchant/register');
    await waitForPath(page, '/get-started');
    await page.goto('/shortcode-providers');
    await waitForPath(page, '/buy-shortcode');
    await page.context().close();
  });
});
