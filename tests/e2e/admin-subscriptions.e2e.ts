import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../src/shared/api/billing.schema';
import { pathOf, registerAccount, waitForPath } from './accounts';
import {
  closeToasts,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshotTop,
  screenshotViewport,
  signIn,
} from './browser';

/**
 * Subscriptions (/admin/subscriptions, docs/billing.md) end to end: an admin finds a new account on TRIAL by its
 * email, is refused with the rules' messages for bad input and with the server's (a TRIAL cannot be extended),
 * activates a plan and extends it with a reason, and sees the new state and the recorded changes; an email no
 * account has shows the empty state; a user who is not an admin is sent away. Photographed at both widths.
 */
const account = (page: Page) => page.getByTestId('account-subscription');
const statusBadge = (page: Page) => page.getByTestId('subscription-status');

async function find(page: Page, email: string) {
  await page.getByLabel('Account email').fill(email);
  await page.getByRole('button', { name: 'Find' }).click();
}

describeBrowser('admin subscriptions', () => {
  let browser: Browser;
  let email = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ email } = await registerAccount('Yaw Mensah'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an admin finds a TRIAL account, is refused for bad input, activates a plan and extends it with a reason', async () => {
    const page = await openPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.goto('/get-started');
    await page.locator('[data-sidebar-entry="Subscriptions"]').click();
    await waitForPath(page, '/admin/subscriptions');
    await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();

    await find(page, 'nobody-here@e2e.test');
    await page.getByTestId('subscription-empty').getByText('No account found').waitFor();

    await find(page, email.toUpperCase());
    await account(page).waitFor();
    expect(await page.getByTestId('current-plan').textContent()).toBe('Trial');
    expect(await page.getByTestId('current-period').textContent()).toBe('No plan paid yet');
    expect(await page.getByTestId('current-balance').textContent()).toBe('$0 USD');
    await page.getByTestId('billing-usage').waitFor();
    await screenshotTop(page, 'admin-subscriptions-trial-desktop');

    // Bad input: the shared rules' messages, nothing sent.
    await page.getByRole('button', { name: 'Extend', exact: true }).click();
    const extend = page.getByRole('dialog', { name: 'Extend subscription' });
    await extend.getByLabel('Days').fill('0');
    await extend.getByRole('button', { name: 'Extend', exact: true }).click();
    await extend.getByText(BILLING_MESSAGES.days).waitFor();
    await extend.getByText(BILLING_MESSAGES.reasonRequired).waitFor();
    await screenshotViewport(page, 'admin-subscriptions-extend-invalid-desktop');

    // The server's refusal shows in the dialog: a TRIAL has no period to extend.
    await extend.getByLabel('Days').fill('30');
    await extend.getByLabel('Reason').fill('Outage on 3 March');
    await extend.getByRole('button', { name: 'Extend', exact: true }).click();
    await extend.getByTestId('form-alert').waitFor();
    expect(await extend.getByTestId('form-alert').textContent()).toContain('This account is on TRIAL: activate a plan instead');
    await screenshotViewport(page, 'admin-subscriptions-extend-refused-desktop');
    await extend.getByRole('button', { name: 'Cancel' }).click();
    await extend.waitFor({ state: 'detached' });

    // Activate plan: no plan and no reason are refused by the rules; TRIAL is not offered.
    await page.getByRole('button', { name: 'Activate plan' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate plan' });
    await activate.getByRole('button', { name: 'Activate plan' }).click();
    await activate.getByText('Choose a plan', { exact: true }).waitFor();
    await activate.getByText(BILLING_MESSAGES.reasonRequired).waitFor();
    await screenshotViewport(page, 'admin-subscriptions-activate-invalid-desktop');
    await activate.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option').last().waitFor();
    expect(await page.getByRole('option').allTextContents()).toEqual([
      'Basic 3 months',
      'Basic 6 months',
      'Standard 1 year',
      'Premium 1 year',
      'Enterprise',
    ]);
    await page.getByRole('option', { name: 'Basic 3 months' }).click();
    await activate.getByLabel('Reason').fill('Signed contract');
    await activate.getByRole('button', { name: 'Activate plan' }).click();
    await activate.waitFor({ state: 'detached' });
    await page.locator('.mantine-Notification-root').getByText('Subscription activated').waitFor();
    await closeToasts(page);
    await expect.poll(() => page.getByTestId('current-plan').textContent()).toBe('Basic 3 months');
    expect(await statusBadge(page).textContent()).toBe('Active');
    const activatedPeriod = await page.getByTestId('current-period').textContent();
    expect(activatedPeriod).toMatch(/^Until /);
    await page.getByTestId('subscription-changes').getByText('Signed contract').waitFor();

    // Now it extends: the period end moves 30 days and the change is listed with its reason.
    await page.getByRole('button', { name: 'Extend', exact: true }).click();
    await extend.getByLabel('Days').fill('30');
    await extend.getByLabel('Reason').fill('Outage on 3 March');
    await extend.getByRole('button', { name: 'Extend', exact: true }).click();
    await extend.waitFor({ state: 'detached' });
    await page.locator('.mantine-Notification-root').getByText('Subscription extended').waitFor();
    await closeToasts(page);
    await expect.poll(() => page.getByTestId('current-period').textContent()).not.toBe(activatedPeriod);
    expect(await page.getByTestId('current-plan').textContent()).toBe('Basic 3 months');
    await page.getByTestId('subscription-changes').getByText('Outage on 3 March').waitFor();
    expect(await page.getByTestId('subscription-changes').locator('li').count()).toBe(2);
    await screenshotTop(page, 'admin-subscriptions-active-desktop');
    await page.context().close();
  });

  it('at phone width the account and its dialogs fit', async () => {
    const page = await openPage(browser, PHONE);
    await signIn(page, 'admin');
    await page.goto(`/admin/subscriptions?email=${encodeURIComponent(email)}`);
    await account(page).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotTop(page, 'admin-subscriptions-phone');
    await page.getByRole('button', { name: 'Extend', exact: true }).click();
    await page.getByRole('dialog', { name: 'Extend subscription' }).getByLabel('Days').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotViewport(page, 'admin-subscriptions-extend-phone');
    await page.context().close();
  });

  it('a user who is not an admin cannot reach the screen', async () => {
    const page = await openPage(browser, DESKTOP);
    await signIn(page, 'private');
    await page.goto('/get-started');
    await page.locator('[data-sidebar-entry="Account Billing"]').waitFor();
    expect(await page.locator('[data-sidebar-entry="Subscriptions"]').count()).toBe(0);
    await page.goto('/admin/subscriptions');
    await waitForPath(page, '/get-started');
    expect(pathOf(page)).toBe('/get-started');
    await page.context().close();
  });
});
