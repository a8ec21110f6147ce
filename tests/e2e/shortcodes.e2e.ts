import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SHORTCODE_MESSAGES, formatExtensionLengthMessage } from '../../src/shared/api/shortcodes.schema';
import { callApi, type LoginReplyBody, pathOf, registerAccount, storeSession, waitForPath } from './accounts';
import {
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
  signIn,
} from './browser';
import type { E2eUserKind } from './fixtures';

/**
 * The shortcodes area end to end: an admin registers a provider and puts two extensions of it in the catalogue
 * (a fixed *920*34# and an open *920*5 + 2 digits), provisions one to a buyer; the buyer buys *920*34#, pays in
 * the sandbox checkout, connects an app, and the dial string reaches that app through the provider's URL in two
 * gateway formats; then renews it. Every screen is checked for what it must show and photographed at desktop
 * and phone width.
 */
const PROVIDER_ID = 'e2e-agg';
const PROVIDER_NAME = 'E2E Aggregator';
const FIXED_DIAL = '*920*34#';
const OPEN_EXAMPLE = '*920*512#';
/** How the catalogue shows that open extension: X for each digit the buyer chooses. */
const OPEN_PATTERN = '*920*5XX#';
const APP_NAME = 'Akua Shop';
const WELCOME = 'Welcome to Akua Shop\nWhat is your name?';

interface PurchaseRow {
  uuid: string;
  shortCode: string;
  status: string;
  startDate: string | null;
  expiryDate: string | null;
  existingConnection: { appId: string; appName: string } | null;
  linkedAppEnv: string | null;
}

/** An app of two menus: its first screen asks a name, the next greets it. */
async function createShopApp(token: string): Promise<string> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: APP_NAME,
    description: 'Answers the rented shortcode',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*384*99#',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const appId = app.data.appId;
  const menu = async (body: Record<string, unknown>) => {
    const reply = await callApi(token, '/api/createMenu', { appId, ...body });
    if (reply.status !== '00' || !reply.uniqueId) throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId;
  };
  const done = await menu({ userDefinedName: 'done', displayText: 'Akwaaba {{ session.inputs.name }}!', terminate: true });
  await menu({
    isFirst: true,
    userDefinedName: 'name',
    displayText: WELCOME,
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: done }],
  });
  return appId;
}

const findPurchases = async (token: string) => (await callApi<PurchaseRow[]>(token, '/api/myPurchasedShortCodes')).data ?? [];

/** The Provider Url with its key, as the admin copied it for the aggregator (set by the providers test). */
let providerUrl = '';

/** One Africa's Talking hop through the provider's URL; `text` is cumulative. */
async function atHop(sessionId: string, text: string): Promise<string> {
  const res = await fetch(providerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sessionId, serviceCode: FIXED_DIAL, phoneNumber: '+233240000001', networkCode: '62001', text }).toString(),
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** One Hubtel hop through the provider's URL. */
async function hubtelHop(body: Record<string, unknown>): Promise<{ Type: string; Message: string }> {
  const res = await fetch(providerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { Type: string; Message: string };
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The visible text of a field's error, by the field's label. */
const fieldError = (page: Page, message: string) => page.getByText(message, { exact: true }).filter({ visible: true });

/** A row of a table on the page (`data-row` is the row's key value: a provider id, a dial string). */
const row = (page: Page, testId: string, mark: string) => page.getByTestId(testId).locator(`tr[data-row="${mark}"]`);

/** The text a date has on the shortcode screens, formatted by the page itself. */
const formatDayInPage = (page: Page, iso: string) =>
  page.evaluate((value) => new Date(value).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }), iso);

describeBrowser('shortcodes', () => {
  let browser: Browser;
  let buyer: { email: string; reply: LoginReplyBody };
  let appId: string;
  const contexts: BrowserContext[] = [];

  async function open(who: E2eUserKind | LoginReplyBody, viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: baseUrl(), permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(context);
    const page = await context.newPage();
    if (typeof who === 'string') await signIn(page, who);
    else await storeSession(page, who);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    buyer = await registerAccount('Akua Mensah');
    appId = await createShopApp(buyer.reply.token);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it('a buyer with no shortcodes sees the empty state; the admin screens are not theirs', async () => {
    const page = await open(buyer.reply);
    await page.goto('/my-shortcodes');
    await page.getByRole('heading', { name: 'My Shortcode Extensions' }).waitFor();
    await page.getByTestId('purchases-empty').getByText('You have no shortcode extensions yet').waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await sidebar.locator('[data-sidebar-entry="Buy USSD ShortCode"]').getAttribute('href')).toBe('/buy-shortcode');
    expect(await sidebar.locator('[data-sidebar-entry="My USSD Extensions"]').getAttribute('href')).toBe('/my-shortcodes');
    expect(await sidebar.locator('[data-sidebar-entry="ShortCode Providers"]').count()).toBe(0);
    await screenshotTop(page, 'shortcodes-my-empty-desktop');
    await page.getByRole('main').getByRole('link', { name: 'Buy an Extension' }).first().click();
    await waitForPath(page, '/buy-shortcode');
    for (const path of ['/shortcode-providers', '/provision-shortcode']) {
      await page.goto(path);
      await waitForPath(page, '/buy-shortcode');
    }
  });

  it('ShortCode Providers (admin): loading, empty and error states, the New Provider messages, the Url to copy, delete', async () => {
    const page = await open('admin');
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });

    // Loading: the list's reply is held until the placeholder has shown.
    const release = await holdRequests(page, '**/api/getAllProviders');
    await page.goto('/shortcode-providers');
    await page.getByRole('status', { name: 'Loading providers' }).waitFor();
    await screenshotTop(page, 'shortcodes-providers-loading-desktop');
    await release();
    await page.getByTestId('providers-table').waitFor();
    expect(await sidebar.locator('[data-sidebar-entry="ShortCode Providers"]').getAttribute('aria-current')).toBe('page');
    expect(await sidebar.locator('[data-sidebar-entry="Available USSD Extensions"]').getAttribute('href')).toBe('/provision-shortcode');

    // Empty: the seeded providers cannot go (their extensions are in the catalogue), so an empty list is served.
    await page.route('**/api/getAllProviders', (route) => route.fulfill({ json: { status: '00', message: 'OK', data: [] } }));
    await page.reload();
    await page.getByTestId('providers-empty').getByText(SHORTCODE_MESSAGES.noProviders).waitFor();
    await screenshotTop(page, 'shortcodes-providers-empty-desktop');
    // Error: the server is not reached; Try again loads the list once it is.
    await page.unroute('**/api/getAllProviders');
    await page.route('**/api/getAllProviders', (route) => route.abort());
    await page.reload();
    const failure = page.getByTestId('shortcodes-error');
    await failure.getByText('Providers not loaded').waitFor();
    expect(await failure.textContent()).toContain('Check your connection');
    await screenshotTop(page, 'shortcodes-providers-error-desktop');
    await page.unroute('**/api/getAllProviders');
    await failure.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('providers-table').waitFor();
    expect(await page.getByTestId('providers-table').getByRole('columnheader').allTextContents()).toEqual([
      'Provider Name',
      'Provider ID',
      'Provider Url',
      'Actions',
    ]);

    // New Provider: both messages, then the Id's format, then saved.
    await page.getByRole('button', { name: 'New Provider' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Provider' });
    await dialog.getByRole('button', { name: 'Save Provider' }).click();
    await fieldError(page, SHORTCODE_MESSAGES.providerNameRequired).waitFor();
    await fieldError(page, SHORTCODE_MESSAGES.providerIdRequired).waitFor();
    await screenshotViewport(page, 'shortcodes-provider-new-errors-desktop');
    await dialog.getByRole('textbox', { name: 'Provider Name' }).fill(PROVIDER_NAME);
    await dialog.getByRole('textbox', { name: 'Provider Id' }).fill('e2e agg');
    await dialog.getByRole('button', { name: 'Save Provider' }).click();
    await fieldError(page, SHORTCODE_MESSAGES.providerIdFormat).waitFor();
    await dialog.getByRole('textbox', { name: 'Provider Id' }).fill(PROVIDER_ID);
    await dialog.getByRole('button', { name: 'Save Provider' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The server's reply says what the title would: the toast says it once (src/web/lib/toast.ts).
    const registered = page.locator('.mantine-Notification-root').filter({ hasText: 'Provider registered' });
    await registered.waitFor();
    expect((await registered.textContent())?.split('Provider registered')).toHaveLength(2);
    await screenshotTop(page, 'shortcodes-provider-registered-desktop');
    await page.setViewportSize(PHONE);
    await screenshotTop(page, 'shortcodes-provider-registered-phone');
    await page.setViewportSize(DESKTOP);
    const providerRow = row(page, 'providers-table', PROVIDER_ID);
    // The key ends the Url, hidden until revealed.
    const url = `${baseUrl()}/ussd/provider/${PROVIDER_ID}/`;
    // The Url column's copy (the one folded under the name is for phones, hidden here).
    const shownUrl = providerRow.getByTestId('provider-url').last();
    expect(await shownUrl.textContent()).toBe(`${url}${'•'.repeat(12)}`);
    await providerRow.getByRole('button', { name: `Show the key of ${PROVIDER_NAME}` }).click();
    const revealed = (await shownUrl.textContent()) ?? '';
    expect(revealed.startsWith(url) && revealed.length === url.length + 43).toBe(true);
    await screenshotViewport(page, 'shortcodes-provider-key-desktop');

    // The same Id again: the server's message in the dialog, nothing added.
    await page.getByRole('button', { name: 'New Provider' }).first().click();
    await dialog.getByRole('textbox', { name: 'Provider Name' }).fill('Another name');
    await dialog.getByRole('textbox', { name: 'Provider Id' }).fill(PROVIDER_ID);
    await dialog.getByRole('button', { name: 'Save Provider' }).click();
    await dialog.getByTestId('form-alert').getByText(SHORTCODE_MESSAGES.providerIdTaken).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await providerRow.count()).toBe(1);

    // Copy the Url.
    await closeToasts(page);
    await providerRow.getByRole('button', { name: `Copy Provider Url of ${PROVIDER_NAME}` }).click();
    await page.locator('.mantine-Notification-root').getByText('Copied').waitFor();
    providerUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(providerUrl).toBe(revealed);
    // Without the key the aggregator's traffic is refused before any session.
    expect((await fetch(url.slice(0, -1), { method: 'POST', body: 'sessionId=x' })).status).toBe(401);
    await closeToasts(page);

    // Delete asks first; a provider nobody uses goes.
    await page.getByRole('button', { name: 'New Provider' }).first().click();
    await dialog.getByRole('textbox', { name: 'Provider Name' }).fill('Temporary Provider');
    await dialog.getByRole('textbox', { name: 'Provider Id' }).fill('e2e-temp');
    await dialog.getByRole('button', { name: 'Save Provider' }).click();
    await row(page, 'providers-table', 'e2e-temp').waitFor();
    await closeToasts(page);
    await row(page, 'providers-table', 'e2e-temp').getByRole('button', { name: 'Delete Temporary Provider' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Temporary Provider' });
    await confirm.getByText('Are you sure you want to delete the provider Temporary Provider').waitFor();
    await screenshotViewport(page, 'shortcodes-provider-delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row(page, 'providers-table', 'e2e-temp').count()).toBe(1);
    await row(page, 'providers-table', 'e2e-temp').getByRole('button', { name: 'Delete Temporary Provider' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(page, 'providers-table', 'e2e-temp').waitFor({ state: 'detached' });
    await screenshotTop(page, 'shortcodes-providers-desktop');
  });

  it('Available USSD Extensions (admin): the New Extension messages in order, two extensions, Provision to the buyer, delete', async () => {
    const page = await open('admin');
    await page.goto('/provision-shortcode');
    await page.getByRole('heading', { name: 'Available USSD Extensions' }).waitFor();
    await page.getByTestId('extensions-table').waitFor();
    expect(await page.getByTestId('extensions-table').getByRole('columnheader').allTextContents()).toEqual([
      'Short Code',
      'Provider',
      'Http Method',
      'Status',
      'Provision',
      'Delete',
    ]);

    // Each message in the form's order, each field filled in turn.
    await page.getByRole('button', { name: 'New Extension' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Extension' });
    const save = dialog.getByRole('button', { name: 'Save Extension' });
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.countryRequired).waitFor();
    await pickOption(page, 'Country', 'Ghana');
    expect(await dialog.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('GHS');
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.providerRequired).waitFor();
    await pickOption(page, 'Provider', 'Other');
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.extensionRequired).waitFor();
    await dialog.getByRole('textbox', { name: 'Extension', exact: true }).fill('34');
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.methodRequired).waitFor();
    await pickOption(page, 'Http Method', 'POST');
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.otherProviderRequired).waitFor();
    await screenshotViewport(page, 'shortcodes-extension-new-errors-desktop');
    // The provider registered on the providers screen is a choice of its own.
    await pickOption(page, 'Provider', `${PROVIDER_NAME} (${PROVIDER_ID})`);
    await save.click();
    await fieldError(page, SHORTCODE_MESSAGES.priceRequired).waitFor();
    await dialog.getByRole('textbox', { name: 'Price per month' }).fill('150');
    expect(await dialog.getByTestId('extension-example').textContent()).toBe(FIXED_DIAL);
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const fixedRow = row(page, 'extensions-table', FIXED_DIAL).filter({ hasText: PROVIDER_NAME });
    await fixedRow.waitFor();
    expect(await fixedRow.textContent()).toContain('150 GHS per month');
    expect(await fixedRow.textContent()).toContain('Available');

    // An open extension: *920*5 and 2 digits the buyer chooses, on GET.
    await page.getByRole('button', { name: 'New Extension' }).first().click();
    await pickOption(page, 'Country', 'Ghana');
    await pickOption(page, 'Provider', `${PROVIDER_NAME} (${PROVIDER_ID})`);
    await dialog.getByRole('textbox', { name: 'Extension', exact: true }).fill('5');
    await dialog.getByRole('textbox', { name: 'Digits the buyer chooses' }).fill('2');
    await pickOption(page, 'Http Method', 'GET');
    await dialog.getByRole('textbox', { name: 'Price per month' }).fill('90');
    expect(await dialog.getByTestId('extension-example').textContent()).toBe(OPEN_EXAMPLE);
    await screenshotViewport(page, 'shortcodes-extension-new-filled-desktop');
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const openRow = row(page, 'extensions-table', OPEN_PATTERN);
    await openRow.waitFor();
    expect(await openRow.textContent()).toContain('GET');
    // The catalogue shows the pattern, never one buyer's digits.
    expect(await row(page, 'extensions-table', OPEN_EXAMPLE).count()).toBe(0);

    // Provision the open one to the buyer: the email and the digits are asked for first.
    await closeToasts(page);
    await openRow.getByRole('button', { name: `Provision ${OPEN_PATTERN}` }).click();
    const provision = page.getByRole('dialog', { name: 'Provision Extension' });
    expect(await provision.getByRole('radio', { name: 'Myself' }).isChecked()).toBe(true);
    await provision.getByRole('radio', { name: 'Another account' }).check();
    await provision.getByRole('button', { name: 'Provision' }).click();
    await fieldError(page, SHORTCODE_MESSAGES.userEmailRequired).waitFor();
    await fieldError(page, SHORTCODE_MESSAGES.numericExtension).waitFor();
    await screenshotViewport(page, 'shortcodes-extension-provision-errors-desktop');
    await provision.getByRole('textbox', { name: 'Account email' }).fill(buyer.email);
    await provision.getByRole('textbox', { name: 'Extension digits' }).fill('7');
    await provision.getByRole('button', { name: 'Provision' }).click();
    await fieldError(page, formatExtensionLengthMessage(2)).waitFor();
    await provision.getByRole('textbox', { name: 'Extension digits' }).fill('77');
    await provision.getByRole('button', { name: 'Provision' }).click();
    await provision.waitFor({ state: 'detached' });
    const given = (await findPurchases(buyer.reply.token)).find((p) => p.shortCode === '*920*577#');
    expect(given).toMatchObject({ status: 'active' });

    // An extension someone holds cannot be deleted yet... (its provider neither); an unused one goes.
    await page.getByRole('button', { name: 'New Extension' }).first().click();
    await pickOption(page, 'Country', 'Kenya');
    await pickOption(page, 'Provider', `${PROVIDER_NAME} (${PROVIDER_ID})`);
    await dialog.getByRole('textbox', { name: 'Extension', exact: true }).fill('35');
    await pickOption(page, 'Http Method', 'PUT');
    await dialog.getByRole('textbox', { name: 'Price per month' }).fill('12.5');
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const unused = row(page, 'extensions-table', '*920*35#').filter({ hasText: PROVIDER_NAME });
    expect(await unused.textContent()).toContain('12.50 KES per month');
    await closeToasts(page);
    await unused.getByRole('button', { name: 'Delete *920*35#' }).click();
    await page.getByRole('dialog', { name: 'Delete *920*35#' }).getByRole('button', { name: 'Delete' }).click();
    await unused.waitFor({ state: 'detached' });

    // A fixed extension provisioned (held) reads Taken and offers no Provision.
    await page.getByRole('button', { name: 'New Extension' }).first().click();
    await pickOption(page, 'Country', 'Kenya');
    await pickOption(page, 'Provider', `${PROVIDER_NAME} (${PROVIDER_ID})`);
    await dialog.getByRole('textbox', { name: 'Extension', exact: true }).fill('36');
    await pickOption(page, 'Http Method', 'POST');
    await dialog.getByRole('textbox', { name: 'Price per month' }).fill('20');
    await save.click();
    await dialog.waitFor({ state: 'detached' });
    const held = row(page, 'extensions-table', '*920*36#').filter({ hasText: PROVIDER_NAME });
    await closeToasts(page);
    await held.getByRole('button', { name: 'Provision *920*36#' }).click();
    await provision.getByRole('button', { name: 'Provision' }).click();
    await provision.waitFor({ state: 'detached' });
    await held.getByTestId('provision-taken').waitFor();
    expect(await held.textContent()).toContain('Taken');
    expect(await held.getByRole('button', { name: 'Provision *920*36#' }).count()).toBe(0);
    await screenshotTop(page, 'shortcodes-extensions-desktop');

    await page.goto('/shortcode-providers');
    await closeToasts(page).catch(() => undefined);
    await row(page, 'providers-table', PROVIDER_ID)
      .getByRole('button', { name: `Delete ${PROVIDER_NAME}` })
      .click();
    await page
      .getByRole('dialog', { name: `Delete ${PROVIDER_NAME}` })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.locator('.mantine-Notification-root').getByText(SHORTCODE_MESSAGES.providerInUse).waitFor();
    expect(await row(page, 'providers-table', PROVIDER_ID).count()).toBe(1);
    await screenshotTop(page, 'shortcodes-provider-in-use-desktop');
  }, 120_000);

  it('buy: the messages, Confirm Purchase, the sandbox checkout in a new tab, and the purchase active from today', async () => {
    const page = await open(buyer.reply);
    await page.goto('/buy-shortcode');
    await page.getByRole('heading', { name: 'Buy ShortCode Extension' }).waitFor();
    const countries = page.getByRole('radiogroup', { name: 'Country' });
    // The segmented control's radios are drawn as their labels.
    for (const country of ['Ghana', 'Nigeria', 'Eswatini', 'Kenya'])
      await countries.getByRole('radio', { name: country }).waitFor({ state: 'attached' });
    expect(await countries.getByRole('radio', { name: 'Ghana' }).isChecked()).toBe(true);
    const table = page.getByTestId('buy-table');
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Start Code', 'Extension', 'Example', 'Pricing', 'Select']);
    const fixed = row(page, 'buy-table', FIXED_DIAL).filter({ hasText: '150 GHS per month' });
    const openOne = row(page, 'buy-table', OPEN_EXAMPLE);
    await fixed.waitFor();
    expect(await openOne.textContent()).toContain('90 GHS per month');

    const checkout = page.getByRole('button', { name: 'Checkout' });
    await checkout.click();
    await fieldError(page, SHORTCODE_MESSAGES.selectExtension).waitFor();
    await screenshotTop(page, 'shortcodes-buy-select-error-desktop');
    await openOne.getByRole('radio', { name: `Select ${OPEN_EXAMPLE}` }).check();
    const digits = page.getByRole('textbox', { name: 'Your extension digits' });
    await digits.fill('ab');
    await checkout.click();
    await fieldError(page, SHORTCODE_MESSAGES.numericExtension).waitFor();
    await digits.fill('1');
    await checkout.click();
    await fieldError(page, formatExtensionLengthMessage(2)).waitFor();
    await screenshotTop(page, 'shortcodes-buy-digits-error-desktop');

    // Another country's list.
    await countries.getByText('Kenya', { exact: true }).click();
    await page.getByText('Shortcodes in Kenya').or(page.getByText('No shortcodes on sale in Kenya right now')).first().waitFor();
    await expect.poll(() => fixed.count()).toBe(0);
    await countries.getByText('Ghana', { exact: true }).click();
    await fixed.waitFor();

    await fixed.getByRole('radio', { name: `Select ${FIXED_DIAL}` }).check();
    await expect.poll(() => digits.count()).toBe(0);
    await pickOption(page, 'Period', '3 months');
    expect(await page.getByTestId('buy-summary').textContent()).toContain('Total 450 GHS');
    await checkout.click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Purchase' });
    expect(await confirm.getByTestId('confirm-shortcode').textContent()).toBe(FIXED_DIAL);
    expect(await confirm.getByTestId('confirm-total').textContent()).toBe('450 GHS');
    await screenshotViewport(page, 'shortcodes-buy-confirm-desktop');

    const [checkoutTab] = await Promise.all([
      page.context().waitForEvent('page'),
      confirm.getByRole('button', { name: 'Confirm and Pay' }).click(),
    ]);
    await page.getByTestId('payment-notice').getByText('Payment page opened in a new tab').waitFor();
    expect(await page.getByTestId('payment-notice').textContent()).toContain(FIXED_DIAL);
    await screenshotTop(page, 'shortcodes-buy-payment-opened-desktop');
    // A new tab starts at about:blank: wait for the checkout's own address.
    await checkoutTab.waitForURL(/\/payments\/sandbox\//);
    await checkoutTab.getByRole('heading', { name: 'Approve this payment?' }).waitFor();
    expect(await checkoutTab.getByLabel('Amount').textContent()).toContain('450');
    await checkoutTab.getByRole('button', { name: 'Approve' }).click();
    await checkoutTab.getByRole('heading', { name: 'Payment approved' }).waitFor();
    await screenshot(checkoutTab, 'shortcodes-sandbox-checkout-approved-desktop');
    await checkoutTab.close();

    const bought = (await findPurchases(buyer.reply.token)).find((p) => p.shortCode === FIXED_DIAL)!;
    expect(bought.status).toBe('active');
    await page.goto('/my-shortcodes');
    const mine = row(page, 'purchases-table', FIXED_DIAL);
    await mine.getByText('Active').waitFor();
    expect(await page.getByTestId('purchases-table').getByRole('columnheader').allTextContents()).toEqual([
      'Shortcode',
      'Country',
      'Start Date',
      'Expiry Date',
      'Actions',
    ]);
    const today = await page.evaluate(() => new Date().toISOString());
    expect(await mine.textContent()).toContain(await formatDayInPage(page, today));
    expect(await mine.textContent()).toContain(await formatDayInPage(page, bought.expiryDate!));
    const start = new Date(bought.startDate!);
    const expiry = new Date(bought.expiryDate!);
    expect((expiry.getUTCFullYear() - start.getUTCFullYear()) * 12 + expiry.getUTCMonth() - start.getUTCMonth()).toBe(3);
    // The provisioned one is there too, and the table holds both.
    await row(page, 'purchases-table', '*920*577#').getByText('Active').waitFor();
    await screenshotTop(page, 'shortcodes-my-desktop');
  });

  it('connect: the app and environment, back to /my-shortcodes after 1 s; the dial string reaches the app in two gateway formats', async () => {
    const page = await open(buyer.reply);
    await page.clock.install();
    await page.goto('/my-shortcodes');
    await row(page, 'purchases-table', FIXED_DIAL)
      .getByRole('link', { name: `Connect App to ${FIXED_DIAL}` })
      .click();
    await page.getByRole('heading', { name: 'Connect ShortCode to App' }).waitFor();
    expect(await page.getByTestId('connect-shortcode').textContent()).toBe(FIXED_DIAL);
    await page.getByText('No app is connected to this shortcode yet.').waitFor();
    expect(await page.getByRole('radio', { name: 'Test' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await fieldError(page, SHORTCODE_MESSAGES.selectApp).waitFor();
    await screenshotTop(page, 'shortcodes-connect-error-desktop');
    await pickOption(page, 'App', APP_NAME);

    // On the page's clock: still here 999 ms after the success, at /my-shortcodes at 1000 ms.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByTestId('form-alert').getByText(SHORTCODE_MESSAGES.connected).waitFor();
    const connectPath = pathOf(page);
    await page.clock.runFor(999);
    expect(pathOf(page)).toBe(connectPath);
    await page.clock.runFor(1);
    await waitForPath(page, '/my-shortcodes');
    await page.clock.resume();
    await row(page, 'purchases-table', FIXED_DIAL)
      .getByTestId('purchase-connection')
      .getByText(`Connected to ${APP_NAME} (test)`)
      .waitFor();
    expect(await findPurchases(buyer.reply.token)).toContainEqual(
      expect.objectContaining({ shortCode: FIXED_DIAL, existingConnection: { appId, appName: APP_NAME }, linkedAppEnv: 'test' }),
    );

    // Opened again: the connected app is shown and chosen.
    await page.goto(connectPath);
    await page.getByTestId('current-connection').getByText(APP_NAME).waitFor();
    // The field shows the app's name once the app list (asked for with the form) is in.
    await expect.poll(() => page.getByRole('combobox', { name: 'App' }).inputValue()).toBe(APP_NAME);
    await screenshotTop(page, 'shortcodes-connect-desktop');

    // Dialled through the provider's URL: Africa's Talking (form body, cumulative text)...
    expect(await atHop('sc-at-1', '')).toBe(`CON ${WELCOME}`);
    expect(await atHop('sc-at-1', 'Ama')).toBe('END Akwaaba Ama!');
    // ...and Hubtel (JSON, the dial string in the first message).
    const hubtel = { SessionId: 'sc-hub-1', ServiceCode: '920', Operator: 'mtn', Mobile: '233240000002', Platform: 'USSD' };
    const first = await hubtelHop({ ...hubtel, Type: 'Initiation', Message: FIXED_DIAL, Sequence: 1 });
    expect(first).toMatchObject({ Type: 'Response', Message: WELCOME });
    const second = await hubtelHop({ ...hubtel, Type: 'Response', Message: 'Kwesi', Sequence: 2 });
    expect(second).toMatchObject({ Type: 'Release', Message: 'Akwaaba Kwesi!' });
  });

  it('renew: Make Payment defaults to 1 month, pays in the sandbox and moves the expiry on; an expired extension shows as expired', async () => {
    const page = await open(buyer.reply);
    await page.goto('/my-shortcodes');
    const before = (await findPurchases(buyer.reply.token)).find((p) => p.shortCode === FIXED_DIAL)!;
    await row(page, 'purchases-table', FIXED_DIAL)
      .getByRole('button', { name: `Make Payment for ${FIXED_DIAL}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Make Payment' });
    expect(await dialog.getByRole('combobox', { name: 'Months' }).inputValue()).toBe('1 month');
    expect(await dialog.getByTestId('renew-summary').textContent()).toContain('Total 150 GHS');
    await pickOption(page, 'Months', '2 months');
    expect(await dialog.getByTestId('renew-summary').textContent()).toContain('Total 300 GHS');
    await screenshotViewport(page, 'shortcodes-renew-desktop');
    const [checkoutTab] = await Promise.all([page.context().waitForEvent('page'), dialog.getByRole('button', { name: 'Pay' }).click()]);
    await page.getByTestId('payment-notice').waitFor();
    await checkoutTab.getByRole('button', { name: 'Approve' }).click();
    await checkoutTab.getByRole('heading', { name: 'Payment approved' }).waitFor();
    await checkoutTab.close();
    const after = (await findPurchases(buyer.reply.token)).find((p) => p.shortCode === FIXED_DIAL)!;
    const from = new Date(before.expiryDate!);
    const to = new Date(after.expiryDate!);
    expect((to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth()).toBe(2);
    await page.reload();
    // The desktop cell: the phone's folded line (hidden here) has the date too.
    await row(page, 'purchases-table', FIXED_DIAL)
      .getByText(await formatDayInPage(page, after.expiryDate!))
      .filter({ visible: true })
      .first()
      .waitFor();

    // A day past the expiry on the page's clock: shown as expired, with no Connect App.
    const late = await open(buyer.reply);
    await late.clock.install({ time: new Date(to.getTime() + 86_400_000) });
    await late.goto('/my-shortcodes');
    const expired = row(late, 'purchases-table', FIXED_DIAL);
    await expired.getByTestId('purchase-state').getByText('Expired').waitFor();
    expect(await expired.getByRole('link', { name: `Connect App to ${FIXED_DIAL}` }).count()).toBe(0);
    await screenshotTop(late, 'shortcodes-my-expired-desktop');
  });

  it('every shortcode screen at phone width: folded tables, nothing sideways', async () => {
    const admin = await open('admin', PHONE);
    for (const [path, ready, name] of [
      ['/shortcode-providers', 'providers-table', 'providers'],
      ['/provision-shortcode', 'extensions-table', 'extensions'],
    ] as const) {
      await admin.goto(path);
      await admin.getByTestId(ready).waitFor();
      await expectNoSidewaysScroll(admin);
      await screenshotTop(admin, `shortcodes-${name}-phone`);
      // On a phone the provider's Url folds under its name, still with its copy button.
      if (name === 'providers') {
        await row(admin, 'providers-table', PROVIDER_ID)
          .getByRole('button', { name: `Copy Provider Url of ${PROVIDER_NAME}` })
          .waitFor();
      }
    }
    await admin.getByRole('button', { name: 'New Extension' }).first().click();
    await admin.getByRole('dialog', { name: 'New Extension' }).getByRole('button', { name: 'Save Extension' }).click();
    await fieldError(admin, SHORTCODE_MESSAGES.countryRequired).waitFor();
    await expectNoSidewaysScroll(admin);
    await screenshotViewport(admin, 'shortcodes-extension-new-phone');

    const page = await open(buyer.reply, PHONE);
    await page.goto('/buy-shortcode');
    await row(page, 'buy-table', FIXED_DIAL)
      .or(row(page, 'buy-table', OPEN_EXAMPLE))
      .first()
      .waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotTop(page, 'shortcodes-buy-phone');
    await row(page, 'buy-table', OPEN_EXAMPLE).getByRole('radio').check();
    await page.getByRole('button', { name: 'Checkout' }).click();
    await fieldError(page, SHORTCODE_MESSAGES.numericExtension).waitFor();
    await page.getByRole('textbox', { name: 'Your extension digits' }).fill('42');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.getByRole('dialog', { name: 'Confirm Purchase' }).getByTestId('confirm-shortcode').getByText('*920*542#').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotViewport(page, 'shortcodes-buy-confirm-phone');
    await page.getByRole('dialog', { name: 'Confirm Purchase' }).getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/my-shortcodes');
    await row(page, 'purchases-table', FIXED_DIAL).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotTop(page, 'shortcodes-my-phone');
    await row(page, 'purchases-table', FIXED_DIAL)
      .getByRole('link', { name: `Connect App to ${FIXED_DIAL}` })
      .click();
    await page.getByTestId('current-connection').waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotTop(page, 'shortcodes-connect-phone');
  });
});
