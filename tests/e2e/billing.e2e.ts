import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, GRACE_DAYS, PROGRESS_CLOSE_MS } from '../../src/shared/api/billing.schema';
import { PLANS } from '../../src/shared/billing/plans';
import { findFreePort } from '../support/free-port';
import { createTestApp, type TestApp } from '../support/test-app';
import { callApi, type LoginReplyBody, loginByApi, pathOf, registerAccount, storeSession } from './accounts';
import {
  capture,
  baseUrl,
  closeToasts,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  PHONE,
  screenshot,
  screenshotTop,
  screenshotViewport,
} from './browser';

/**
 * Account Billing end to end: a new account on TRIAL pays for Basic in the sandbox checkout and is active; it
 * pays a custom amount into its balance and changes plan from it ('00'); a refusal shows its message; TRIAL's
 * app limit refuses a third app with its message. On a server of its own with an injected clock, a paid plan
 * runs out, is in its grace period, then inactive (the Deactivated badge and warning), and is paid again. With
 * BILLING=off the page says so. Every state is photographed at desktop and phone width.
 */
const DAY_MS = 86_400_000;

interface SubscriptionReply {
  plan: string;
  state: string;
  periodEnd: string | null;
  accountBalance: number;
}

const getSubscription = async (origin: string, token: string) =>
  (await callApi<SubscriptionReply>(token, '/api/subscription/current', undefined, origin)).data!;

/** The page's plan card of a plan (`BASIC-3`). */
const planCard = (page: Page, plan: string) => page.locator(`article[data-plan="${plan}"]`);
const currentPlan = (page: Page) => page.getByTestId('current-plan');
const statusBadge = (page: Page) => page.getByTestId('subscription-status');

/** Opens the page's Account Billing and waits for the current plan. */
async function openBilling(page: Page) {
  await page.goto('/account-billing');
  await page.getByTestId('billing-current').waitFor();
}

/**
 * Confirms the open plan dialog and pays on the sandbox checkout that opens in a new tab; answers the payment's
 * reference. The progress dialog shows meanwhile.
 */
async function confirmAndApprove(page: Page, confirmLabel: 'Confirm and Pay' | 'Pay', progressShot?: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Make Payment' });
  const [checkoutTab] = await Promise.all([
    page.context().waitForEvent('page'),
    dialog.getByRole('button', { name: confirmLabel, exact: true }).click(),
  ]);
  if (progressShot) {
    // It closes by itself after PROGRESS_CLOSE_MS: photographed as soon as it says so.
    await page.getByRole('dialog', { name: 'Payment', exact: true }).getByText('Payment page opened in a new tab').waitFor();
    await capture(page, progressShot);
  }
  // A new tab starts at about:blank: wait for the checkout's own address.
  await checkoutTab.waitForURL(/\/payments\/sandbox\//);
  const reference = decodeURIComponent(new URL(checkoutTab.url()).pathname.split('/').at(-1)!);
  await checkoutTab.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
  await checkoutTab.getByRole('button', { name: 'Approve' }).click();
  await checkoutTab.getByRole('heading', { name: 'Payment approved' }).waitFor();
  await checkoutTab.close();
  return reference;
}

/**
 * Buys a month of a seeded Ghana extension (150 GHS) through the API and approves it in the sandbox; answers the
 * payment's reference. Other files share the server: the first free dial string of a few is taken.
 */
async function buyGhanaShortcode(token: string): Promise<string> {
  const offered = await callApi<Array<{ uuid: string; provider: string; extLength: number }>>(token, '/api/getAvailableShortCodes/Ghana');
  const open = offered.data!.find((e) => e.provider === 'mtngh' && e.extLength === 2)!;
  for (const digits of ['81', '82', '83', '84', '85']) {
    const bought = await callApi<unknown>(token, '/api/subscription/buyshortcode', {
      extensionUuid: open.uuid,
      leaseCount: 1,
      shortCode: digits,
    });
    if (bought.status !== '01') continue;
    const checkout = new URL((bought as unknown as { redirectUrl: string }).redirectUrl);
    const reference = decodeURIComponent(checkout.pathname.split('/').at(-1)!);
    const decided = await fetch(`${baseUrl()}/payments/sandbox/${encodeURIComponent(reference)}/decide`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve', token: checkout.searchParams.get('token') }),
    });
    if (!decided.ok) throw new Error(`sandbox decide failed: ${decided.status}`);
    return reference;
  }
  throw new Error('no free dial string to buy');
}

/** A whole server on its own database and clock, listening, with this file's settings. */
async function startOwnServer(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; origin: string }> {
  const port = await findFreePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PORT: port, PUBLIC_URL: origin, LOGIN_RATE_LIMIT: 1000, ...overrides });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin };
}

/** A new account on a server of this file; signs in again with `signIn` (a token does not outlive a moved clock). */
async function registerOn(origin: string, fullName: string) {
  const email = `billing-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@e2e.test`;
  const password = 'first-pass-1';
  const res = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullName, email, mobileNumber: '233244000222', companyName: 'Owusu Foods', password }),
  });
  const reply = (await res.json()) as LoginReplyBody;
  if (!reply.token) throw new Error(`registration failed: ${JSON.stringify(reply)}`);
  const signIn = () => loginByApi({ email, password }, origin);
  return { reply, signIn };
}

describeBrowser('account billing', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function open(who: LoginReplyBody, viewport = DESKTOP, origin = baseUrl()): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: origin });
    contexts.push(context);
    const page = await context.newPage();
    await storeSession(page, who);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  describe('on the shared server', () => {
    let buyer: LoginReplyBody;
    beforeAll(async () => {
      buyer = (await registerAccount('Adjoa Owusu')).reply;
    });

    it('a new account is on TRIAL: the sidebar entry, Active, the annual toggle on, every card reads Make Payment; loading, error and empty states', async () => {
      const page = await open(buyer);

      // Loading: the subscription's reply is held until the placeholder has shown.
      const release = await holdRequests(page, '**/api/subscription/current');
      await page.goto('/get-started');
      const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
      await sidebar.locator('[data-sidebar-entry="Account Billing"]').click();
      await page.getByRole('status', { name: 'Loading your plan' }).waitFor();
      expect(pathOf(page)).toBe('/account-billing');
      await screenshotTop(page, 'billing-loading-desktop');
      await release();
      await page.getByTestId('billing-current').waitFor();
      expect(await sidebar.locator('[data-sidebar-entry="Account Billing"]').getAttribute('aria-current')).toBe('page');

      expect(await page.getByRole('tab').allTextContents()).toEqual(['Plans', 'Payment History']);
      expect(await page.getByRole('tab', { name: 'Plans' }).getAttribute('aria-selected')).toBe('true');
      expect(await currentPlan(page).textContent()).toBe('Trial');
      expect(await statusBadge(page).textContent()).toBe('Active');
      expect(await page.getByTestId('current-balance').textContent()).toBe('$0 USD');
      const annual = page.getByRole('switch', { name: 'Pay annually' });
      expect(await annual.isChecked()).toBe(true);
      // The four paid plans of the plan table, a year's worth each with the toggle on; from TRIAL all read Make Payment.
      for (const [plan, price] of [
        ['BASIC-3', '$200'],
        ['BASIC-6', '$170'],
        ['STANDARD', '$150'],
        ['PREMIUM', '$250'],
      ] as const) {
        const card = planCard(page, plan);
        expect(await card.getByTestId('plan-price').textContent()).toBe(price);
        for (const feature of PLANS[plan].features) await card.getByText(feature, { exact: true }).waitFor();
        expect(await card.getByRole('button').allTextContents()).toEqual(['Make Payment']);
      }
      await planCard(page, 'ENTERPRISE').getByRole('link', { name: 'Contact us' }).waitFor();
      // This month's use against TRIAL's limits.
      const usage = page.getByTestId('billing-usage');
      expect(await usage.getByRole('progressbar', { name: /^Apps: / }).getAttribute('aria-label')).toBe(
        `Apps: 0 of ${PLANS.TRIAL.limits.apps} apps`,
      );
      // A bar at 0 has no width: it is there, not visible.
      await usage
        .getByRole('progressbar', { name: `Live sessions this month: 0 of ${PLANS.TRIAL.limits.sessions} sessions` })
        .waitFor({ state: 'attached' });
      // Files kept, as sizes (Trial keeps 50 MB).
      await usage
        .getByRole('progressbar', { name: 'Files kept (photos, documents, voice notes): 0 MB of 50 MB' })
        .waitFor({ state: 'attached' });
      await screenshotTop(page, 'billing-trial-desktop');

      // Toggle off: one period's price.
      await annual.click();
      expect(await planCard(page, 'BASIC-3').getByTestId('plan-price').textContent()).toBe('$50');
      expect(await planCard(page, 'BASIC-3').textContent()).toContain('/ 3 months');
      await annual.click();
      expect(await planCard(page, 'BASIC-3').getByTestId('plan-price').textContent()).toBe('$200');

      // Error: the server is not reached; Try again loads it once it is.
      await page.route('**/api/subscription/current', (route) => route.abort());
      await page.reload();
      const failure = page.getByTestId('billing-error');
      await failure.getByText('Your plan was not loaded').waitFor();
      expect(await failure.textContent()).toContain('Check your connection');
      await screenshotTop(page, 'billing-error-desktop');
      await page.unroute('**/api/subscription/current');
      await failure.getByRole('button', { name: 'Try again' }).click();
      await page.getByTestId('billing-current').waitFor();

      // Payment History: nothing paid yet; then its error state.
      await page.getByRole('tab', { name: 'Payment History' }).click();
      await page.getByTestId('history-empty').getByText('No payments yet').waitFor();
      expect(new URL(page.url()).search).toBe('?tab=history');
      await screenshotTop(page, 'billing-history-empty-desktop');
      await page.route('**/api/subscription/paymentHistory**', (route) => route.abort());
      await page.reload();
      await page.getByTestId('history-error').getByText('Payments not loaded').waitFor();
      await screenshotTop(page, 'billing-history-error-desktop');
      await page.unroute('**/api/subscription/paymentHistory**');
    });

    it('TRIAL to active: Make Payment on Basic 3 months, the progress dialog closes 3 s after the sandbox checkout opens, approved, active, in the history', async () => {
      const page = await open(buyer);
      await page.clock.install();
      await openBilling(page);
      await planCard(page, 'BASIC-3').getByRole('button', { name: 'Make Payment: Basic 3 months' }).click();
      const confirm = page.getByRole('dialog', { name: 'Make Payment' });
      expect(await confirm.getByTestId('confirm-plan').textContent()).toBe('4 × Basic 3 months');
      expect(await confirm.getByTestId('confirm-amount').textContent()).toBe('$200 USD');
      await screenshotViewport(page, 'billing-confirm-desktop');
      // Cancel changes nothing.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      await planCard(page, 'BASIC-3').getByRole('button', { name: 'Make Payment: Basic 3 months' }).click();

      // The reply is held: the progress dialog shows while the server starts the payment.
      const release = await holdRequests(page, '**/api/subscription/makePayment');
      await confirm.getByRole('button', { name: 'Confirm and Pay' }).click();
      const progress = page.getByRole('dialog', { name: 'Payment', exact: true });
      await progress.getByText('Starting the payment…').waitFor();
      await screenshotViewport(page, 'billing-progress-starting-desktop');
      // On the page's clock, paused: the dialog is there 2999 ms after the payment page opened, gone at 3000.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      const [checkoutTab] = await Promise.all([page.context().waitForEvent('page'), release()]);
      await progress.getByText('Payment page opened in a new tab').waitFor();
      expect(await progress.textContent()).toContain(BILLING_MESSAGES.checkout);
      await page.clock.runFor(PROGRESS_CLOSE_MS - 1);
      expect(await progress.getByText('Payment page opened in a new tab').isVisible()).toBe(true);
      await page.clock.runFor(1);
      await page.clock.resume();
      await progress.waitFor({ state: 'detached' });
      // The page keeps the link in case the tab was blocked (the new tab starts at about:blank: wait for its address).
      await checkoutTab.waitForURL(/\/payments\/sandbox\//);
      expect(
        await page.getByTestId('billing-payment-notice').getByRole('link', { name: 'Open the payment page' }).getAttribute('href'),
      ).toBe(checkoutTab.url());

      expect(await checkoutTab.getByLabel('Amount').textContent()).toContain('200');
      const reference = decodeURIComponent(new URL(checkoutTab.url()).pathname.split('/').at(-1)!);
      await checkoutTab.getByRole('button', { name: 'Approve' }).click();
      await checkoutTab.getByRole('heading', { name: 'Payment approved' }).waitFor();
      await screenshot(checkoutTab, 'billing-sandbox-approved-desktop');
      await checkoutTab.close();

      const paid = await getSubscription(baseUrl(), buyer.token);
      expect(paid).toMatchObject({ plan: 'BASIC-3', state: 'active' });
      await page.reload();
      await currentPlan(page).getByText('Basic 3 months').waitFor();
      expect(await statusBadge(page).textContent()).toBe('Active');
      const until = await page.evaluate(
        (iso) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }),
        paid.periodEnd!,
      );
      expect(await page.getByTestId('current-period').textContent()).toBe(`Until ${until}`);
      // On the current plan the card reads Make Payment, the others Change Plan.
      expect(await planCard(page, 'BASIC-3').getByRole('button').textContent()).toBe('Make Payment');
      for (const plan of ['BASIC-6', 'STANDARD', 'PREMIUM'])
        expect(await planCard(page, plan).getByRole('button').textContent()).toBe('Change Plan');
      await screenshotTop(page, 'billing-active-desktop');

      await page.getByRole('tab', { name: 'Payment History' }).click();
      const row = page.getByTestId('history-table').locator(`tr[data-row="${reference}"]`);
      await row.getByTestId('payment-status').filter({ visible: true }).getByText('SUCCESS').waitFor();
      expect(await page.getByTestId('history-table').getByRole('columnheader').allTextContents()).toEqual([
        'Description',
        'Date',
        'Amount (USD)',
        'Status',
        'Reference',
      ]);
      expect(await row.textContent()).toContain('Basic 3 months (12 months)');
      expect(await row.textContent()).toContain('$200');

      // A shortcode is charged in GHS, and this server has no rate from GHS to USD: the USD column says so, and
      // what was charged is labelled as such, never shown as if it were USD.
      const shortcodeReference = await buyGhanaShortcode(buyer.token);
      await page.reload();
      await page.getByRole('tab', { name: 'Payment History' }).click();
      const shortcodeRow = page.getByTestId('history-table').locator(`tr[data-row="${shortcodeReference}"]`);
      await shortcodeRow.getByTestId('payment-status').filter({ visible: true }).getByText('SUCCESS').waitFor();
      const amountCell = shortcodeRow.getByTestId('payment-amount').filter({ visible: true });
      expect(await amountCell.textContent()).toBe('no USD ratecharged 150 GHS');
      expect(await row.getByTestId('payment-amount').filter({ visible: true }).textContent()).toBe('$200');
      await screenshotTop(page, 'billing-history-desktop');
    });

    it('a custom amount into the balance (cancel and empty do nothing), then Change Plan paid from it answers 00; a refusal shows its message', async () => {
      const page = await open(buyer);
      await openBilling(page);
      const credits: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/subscription/creditAccount') credits.push(request.postData() ?? '');
      });

      const makePayment = page.getByTestId('billing-current').getByRole('button', { name: 'Make Payment into your balance' });
      await makePayment.click();
      const dialog = page.getByRole('dialog', { name: 'Make Payment' });
      const amount = dialog.getByRole('textbox', { name: 'Amount (USD)' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await makePayment.click();
      // Pay with nothing typed: nothing happens, the dialog stays.
      await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
      expect(await dialog.isVisible()).toBe(true);
      await amount.fill('12.345');
      await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
      await dialog.getByText(BILLING_MESSAGES.amount).waitFor();
      await screenshotViewport(page, 'billing-credit-error-desktop');
      expect(credits).toEqual([]);
      await amount.fill('150');
      const reference = await confirmAndApprove(page, 'Pay', 'billing-progress-desktop');
      expect(credits.map((body) => JSON.parse(body))).toEqual([{ plan: 'BASIC-3', amount: 150 }]);
      expect((await getSubscription(baseUrl(), buyer.token)).accountBalance).toBe(150);
      await page.reload();
      expect(await page.getByTestId('current-balance').textContent()).toBe('$150 USD');

      // Change Plan to Standard: its one year costs $150, which the balance covers: '00', changed at once.
      await closeToasts(page).catch(() => undefined);
      await planCard(page, 'STANDARD').getByRole('button', { name: 'Change Plan: Standard 1 year' }).click();
      const change = page.getByRole('dialog', { name: 'Change Plan' });
      expect(await change.getByTestId('confirm-plan').textContent()).toBe('Standard 1 year');
      expect(await change.getByTestId('confirm-amount').textContent()).toBe('$150 USD');
      await screenshotViewport(page, 'billing-change-confirm-desktop');
      await change.getByRole('button', { name: 'Change Plan' }).click();
      await page.locator('.mantine-Notification-root').getByText(BILLING_MESSAGES.changedFromBalance).waitFor();
      await currentPlan(page).getByText('Standard 1 year').waitFor();
      expect(await page.getByTestId('current-balance').textContent()).toBe('$0 USD');
      await screenshotTop(page, 'billing-changed-desktop');
      await closeToasts(page);

      // Anything but '01' and '00' shows the server's message.
      const refusal = `${BILLING_MESSAGES.paymentRefused}: card declined`;
      await page.route('**/api/subscription/makePayment', (route) => route.fulfill({ json: { status: '03', message: refusal } }));
      await planCard(page, 'STANDARD').getByRole('button', { name: 'Make Payment: Standard 1 year' }).click();
      await page.getByRole('dialog', { name: 'Make Payment' }).getByRole('button', { name: 'Confirm and Pay' }).click();
      await page.locator('.mantine-Notification-root').getByText(refusal).waitFor();
      await page.getByRole('dialog', { name: 'Payment', exact: true }).waitFor({ state: 'detached' });
      await screenshotTop(page, 'billing-refused-desktop');
      await page.unroute('**/api/subscription/makePayment');

      await page.getByRole('tab', { name: 'Payment History' }).click();
      const history = page.getByTestId('history-table');
      await history.locator(`tr[data-row="${reference}"]`).getByText('Account credit').waitFor();
      expect(await history.locator('tbody tr').first().textContent()).toContain('Standard 1 year');
    });

    it("a plan's limit: TRIAL's third app is refused with its message and the apps bar is full", async () => {
      const owner = (await registerAccount('Kofi Limit')).reply;
      for (const name of ['Limit One', 'Limit Two']) {
        const created = await callApi(owner.token, '/api/createApp', {
          appName: name,
          description: 'Counts against TRIAL',
          country: 'ghana',
          connectionMode: 'existing-shortcode',
          customShortCode: `*384*${name.length}${name.at(-1)!.charCodeAt(0)}#`,
          useTemplateTag: false,
        });
        expect(created.status).toBe('00');
      }
      const page = await open(owner);
      await page.goto('/create-app');
      await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Limit Three');
      await page.getByRole('textbox', { name: 'Description', exact: true }).fill('One app too many');
      await page.getByRole('combobox', { name: 'Country' }).click();
      await page.getByRole('option', { name: 'Ghana', exact: true }).click();
      await page.getByRole('radio', { name: 'Existing shortcode' }).click();
      await page.getByRole('textbox', { name: 'Short Code', exact: true }).fill('*384*77#');
      await page.getByRole('button', { name: 'Create App' }).click();
      const message = BILLING_MESSAGES.appLimit(PLANS.TRIAL.limits.apps!, PLANS.TRIAL.title);
      await page.getByTestId('form-alert').getByText(message).waitFor();
      await screenshotTop(page, 'billing-app-limit-desktop');

      await openBilling(page);
      await page
        .getByTestId('billing-usage')
        .getByRole('progressbar', { name: `Apps: 2 of ${PLANS.TRIAL.limits.apps} apps` })
        .waitFor();
      await screenshotTop(page, 'billing-trial-full-desktop');
    });

    it('at phone width: the plans, the dialogs and the folded history, nothing sideways', async () => {
      const page = await open(buyer, PHONE);
      await openBilling(page);
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, 'billing-active-phone');
      await planCard(page, 'PREMIUM').getByRole('button', { name: 'Change Plan: Premium 1 year' }).click();
      await page.getByRole('dialog', { name: 'Change Plan' }).getByTestId('confirm-amount').waitFor();
      await expectNoSidewaysScroll(page);
      await screenshotViewport(page, 'billing-change-confirm-phone');
      await page.getByRole('dialog', { name: 'Change Plan' }).getByRole('button', { name: 'Cancel' }).click();
      await page.getByTestId('billing-current').getByRole('button', { name: 'Make Payment into your balance' }).click();
      await page.getByRole('dialog', { name: 'Make Payment' }).getByRole('textbox', { name: 'Amount (USD)' }).waitFor();
      await screenshotViewport(page, 'billing-credit-phone');
      await page.getByRole('dialog', { name: 'Make Payment' }).getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('tab', { name: 'Payment History' }).click();
      const table = page.getByTestId('history-table');
      await table.waitFor();
      // Folded: one column, the date, amount, status and reference under the description.
      expect(await table.getByRole('columnheader').filter({ visible: true }).allTextContents()).toEqual(['Description']);
      await table.locator('tbody tr').first().getByText('SUCCESS').filter({ visible: true }).first().waitFor();
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, 'billing-history-phone');

      const fresh = await open((await registerAccount('Esi Phone')).reply, PHONE);
      await openBilling(fresh);
      await expectNoSidewaysScroll(fresh);
      await screenshotTop(fresh, 'billing-trial-phone');
      await fresh.getByRole('tab', { name: 'Payment History' }).click();
      await fresh.getByTestId('history-empty').waitFor();
      await screenshotTop(fresh, 'billing-history-empty-phone');
      const release = await holdRequests(fresh, '**/api/subscription/current');
      await fresh.goto('/account-billing');
      await fresh.getByRole('status', { name: 'Loading your plan' }).waitFor();
      await screenshotTop(fresh, 'billing-loading-phone');
      await release();
      await fresh.route('**/api/subscription/current', (route) => route.abort());
      await fresh.reload();
      await fresh.getByTestId('billing-error').waitFor();
      await expectNoSidewaysScroll(fresh);
      await screenshotTop(fresh, 'billing-error-phone');
    });
  });

  describe('on a server with its own clock', () => {
    let own: { t: TestApp; origin: string };
    beforeAll(async () => {
      own = await startOwnServer();
    });
    afterAll(() => own?.t.close());

    it('a paid plan runs out: grace, then Deactivated with the warning; Make Payment pays again and it is active', async () => {
      const account = await registerOn(own.origin, 'Yaa Lapse');
      const page = await open(account.reply, DESKTOP, own.origin);
      /** The clock moved past the sign-in's life: sign in again and open the page. */
      const reopen = async (target: Page) => {
        await storeSession(target, await account.signIn());
        await openBilling(target);
      };
      await openBilling(page);
      await page.getByRole('switch', { name: 'Pay annually' }).click();
      await planCard(page, 'BASIC-3').getByRole('button', { name: 'Make Payment: Basic 3 months' }).click();
      expect(await page.getByRole('dialog', { name: 'Make Payment' }).getByTestId('confirm-amount').textContent()).toBe('$50 USD');
      await confirmAndApprove(page, 'Confirm and Pay');
      const paid = await getSubscription(own.origin, (await account.signIn()).token);
      expect(paid).toMatchObject({ plan: 'BASIC-3', state: 'active' });

      // A day past the period's end: still working, payment due.
      own.t.advanceClock(new Date(paid.periodEnd!).getTime() - Date.now() + DAY_MS);
      await reopen(page);
      await page.getByTestId('billing-grace').getByText('Payment due').waitFor();
      expect(await statusBadge(page).textContent()).toBe('Active');
      await screenshotTop(page, 'billing-grace-desktop');
      const gracePhone = await open(await account.signIn(), PHONE, own.origin);
      await openBilling(gracePhone);
      await gracePhone.getByTestId('billing-grace').waitFor();
      await expectNoSidewaysScroll(gracePhone);
      await screenshotTop(gracePhone, 'billing-grace-phone');

      // Past the grace period: inactive.
      own.t.advanceClock(GRACE_DAYS * DAY_MS);
      expect((await getSubscription(own.origin, (await account.signIn()).token)).state).toBe('inactive');
      await reopen(page);
      const warning = page.getByTestId('billing-deactivated');
      await warning.getByText(BILLING_MESSAGES.deactivated, { exact: true }).waitFor();
      expect(await statusBadge(page).textContent()).toBe('Deactivated');
      await screenshotTop(page, 'billing-deactivated-desktop');
      const phone = await open(await account.signIn(), PHONE, own.origin);
      await openBilling(phone);
      await phone.getByTestId('billing-deactivated').waitFor();
      await expectNoSidewaysScroll(phone);
      await screenshotTop(phone, 'billing-deactivated-phone');

      // Make Payment retries the current plan.
      await warning.getByRole('button', { name: 'Make Payment' }).click();
      expect(await page.getByRole('dialog', { name: 'Make Payment' }).getByTestId('confirm-plan').textContent()).toBe('4 × Basic 3 months');
      await confirmAndApprove(page, 'Confirm and Pay');
      expect(await getSubscription(own.origin, (await account.signIn()).token)).toMatchObject({ plan: 'BASIC-3', state: 'active' });
      await page.reload();
      expect(await statusBadge(page).textContent()).toBe('Active');
      expect(await warning.count()).toBe(0);
      await screenshotTop(page, 'billing-reactivated-desktop');
    });
  });

  describe('on a server with BILLING=off', () => {
    let own: { t: TestApp; origin: string };
    beforeAll(async () => {
      own = await startOwnServer({ BILLING: 'off' });
    });
    afterAll(() => own?.t.close());

    it('the page says billing is off, lifts every limit and offers no payment', async () => {
      const account = (await registerOn(own.origin, 'Kwame Selfhost')).reply;
      for (const viewport of [DESKTOP, PHONE]) {
        const page = await open(account, viewport, own.origin);
        await openBilling(page);
        await page.getByTestId('billing-off').getByText(BILLING_MESSAGES.billingOff).waitFor();
        expect(await page.getByRole('button', { name: /^(Make Payment|Change Plan)/ }).count()).toBe(0);
        expect(await page.getByRole('switch', { name: 'Pay annually' }).count()).toBe(0);
        await page
          .getByTestId('billing-usage')
          .getByRole('progressbar', { name: 'Apps: 0 apps · Unlimited' })
          .waitFor({ state: 'attached' });
        await expectNoSidewaysScroll(page);
        await screenshotTop(page, `billing-off-${viewport === PHONE ? 'phone' : 'desktop'}`);
      }
    });
  });
});
