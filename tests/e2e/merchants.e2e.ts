import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_MESSAGES } from '../../src/shared/api/apps.schema';
import { MERCHANT_MESSAGES } from '../../src/shared/api/merchants.schema';
import { callApi, loginByApi, waitForPath } from './accounts';
import {
  baseUrl,
  closeToasts,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  launchBrowser,
  PHONE,
  screenshotTop,
  screenshotViewport,
  signIn,
} from './browser';
import { E2E_USERS, type E2eUserKind } from './fixtures';

/**
 * Merchants and admins end to end (docs/merchants.md): an admin registers a merchant, adds a developer user and
 * clones an app that takes payments into the merchant's account; a caller pays through that app; the merchant
 * user signs in, sees the payment in Merchant Transactions and opens it; a super admin creates an admin, assigns
 * the merchant and changes the admin's roles. Screens are photographed at desktop and phone width.
 */
const COMPANY = 'Kente Crafts E2E';
const MERCHANT_EMAIL = 'hello@kente-e2e.example';
const DEV_EMAIL = 'dev@kente-e2e.example';
const DEV_PASSWORD = 'kente-dev-1';
const SOURCE_APP = 'Kente Checkout Source';
const CLONED_APP = 'Kente Checkout';
const NEW_ADMIN_EMAIL = 'abena.admin@e2e.test';

const login = async (kind: E2eUserKind) => (await loginByApi(E2E_USERS[kind])).token;

/** An app that asks an amount and charges it with a payment prompt. */
async function createPaymentApp(token: string): Promise<string> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: SOURCE_APP,
    description: 'Pay for an order',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*384*77#',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const appId = app.data.appId;
  const pay = await callApi(token, '/api/createMenu', {
    appId,
    userDefinedName: 'pay',
    displayText: 'Approve the prompt to pay GHS {{ session.inputs.amount }}.',
    terminate: true,
    actions: [
      {
        actionName: 'charge',
        actionType: 'pre',
        inheritsPlugin: 'paymentprompt',
        code: { mobile: '{{ session.mobile }}', amount: '{{ session.inputs.amount }}', network: 'MTN' },
      },
    ],
  });
  if (pay.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(pay)}`);
  const first = await callApi(token, '/api/createMenu', {
    appId,
    isFirst: true,
    userDefinedName: 'amount',
    displayText: 'Kente Crafts\nEnter the amount',
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: pay.uniqueId }],
  });
  if (first.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(first)}`);
  return appId;
}

/** One Africa's Talking hop to an app's test URL; `text` is cumulative. */
async function hop(appId: string, sessionId: string, text: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/ussd/${appId}/test`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ sessionId, serviceCode: '*384*77#', phoneNumber: '+233240000042', networkCode: '62001', text }).toString(),
  });
  expect(res.status).toBe(200);
  return res.text();
}

const alertText = (page: Page) => page.getByTestId('form-alert').textContent();

describeBrowser('merchants and admins', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let merchantUuid = '';
  let adminToken = '';

  async function open(who: E2eUserKind | null, viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: baseUrl() });
    contexts.push(context);
    const page = await context.newPage();
    if (who) await signIn(page, who);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    adminToken = await login('admin');
    await createPaymentApp(adminToken);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
  });

  it('an admin registers a merchant (the form says what is missing) and adds a developer user', async () => {
    const page = await open('admin');
    await page.goto('/merchant/register');
    await page.getByRole('heading', { name: 'Register New Merchant' }).waitFor();
    await page.getByRole('button', { name: 'Register Merchant' }).click();
    expect(await alertText(page)).toContain(MERCHANT_MESSAGES.requiredFields);
    await screenshotTop(page, 'merchants-register-refused-desktop');

    await page.getByLabel('Full Name').fill('Kojo Antwi');
    await page.getByLabel('Company Name').fill(COMPANY);
    await page.getByLabel('Email').fill(MERCHANT_EMAIL);
    await page.getByLabel('Mobile Number').fill('233244555666');
    await page.getByRole('combobox', { name: 'Business Category' }).click();
    await page.getByRole('option', { name: 'Retail' }).click();
    await page.getByRole('button', { name: 'Register Merchant' }).click();
    await page.waitForURL(/\/merchant\/list-users\//);
    merchantUuid = page.url().split('/').pop()!;
    await page.getByTestId('merchant-users-empty').waitFor();
    await closeToasts(page);

    // Create New User: the mismatch is refused here, and confirmPassword never leaves the browser.
    await page.getByRole('button', { name: 'Create New User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('Full Name').fill('Ama Dev');
    await dialog.getByLabel('Email').fill(DEV_EMAIL);
    await dialog.getByLabel('Mobile Number').fill('233244555667');
    await dialog.getByLabel(/^Password/).fill(DEV_PASSWORD);
    await dialog.getByLabel('Confirm Password').fill('something-else');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(await dialog.getByTestId('form-alert').textContent()).toContain(MERCHANT_MESSAGES.passwordsDiffer);
    await dialog.getByLabel('Confirm Password').fill(DEV_PASSWORD);
    await dialog.getByLabel('Developer', { exact: true }).check();
    await screenshotViewport(page, 'merchants-user-create-desktop');
    const sent = page.waitForRequest('**/api/merchant/user/create');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(Object.keys((await sent).postDataJSON()).sort()).toEqual([
      'email',
      'fullName',
      'isDeveloper',
      'merchantUuid',
      'mobileNumber',
      'password',
    ]);
    const row = page.getByTestId('merchant-users-table').locator(`tr[data-row="${DEV_EMAIL}"]`);
    await row.waitFor();
    expect(await row.getByTestId('developer-badge').textContent()).toBe('Yes');
    await closeToasts(page);
    await screenshotTop(page, 'merchants-users-desktop');

    await page.goto('/merchant/list');
    await page.getByTestId('merchants-table').locator(`tr[data-row="${MERCHANT_EMAIL}"]`).waitFor();
    await screenshotTop(page, 'merchants-all-desktop');
  });

  it('the admin clones the payment app into the merchant account (Clone stays disabled until one is chosen)', async () => {
    const page = await open('admin');
    await page.goto('/app-list-admin');
    await page
      .getByRole('button', { name: `Clone ${SOURCE_APP}` })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('App Name').fill(CLONED_APP);
    await dialog.getByLabel('Clone into Different Account').check();
    expect(await dialog.getByRole('button', { name: 'Clone' }).isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: 'Account' }).fill('Kente');
    await page.getByRole('option', { name: new RegExp(COMPANY) }).click();
    await screenshotViewport(page, 'merchants-clone-into-account-desktop');
    expect(await dialog.getByRole('button', { name: 'Clone' }).isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Clone' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(CLONED_APP).first().waitFor();
  });

  it('a caller pays through the cloned app; the merchant user signs in, finds the payment and opens it', async () => {
    const apps = await callApi<Array<{ appId: string; appName: string; userEmail: string }>>(adminToken, '/api/getAllApps');
    const cloned = apps.data!.find((a) => a.appName === CLONED_APP)!;
    expect(cloned.userEmail).toBe(DEV_EMAIL);
    expect(await hop(cloned.appId, 'kente-1', '')).toContain('Enter the amount');
    expect(await hop(cloned.appId, 'kente-1', '25')).toContain('Approve the prompt to pay GHS 25');

    const page = await open(null);
    await page.goto('/merchant/login');
    await page.getByLabel('Email').fill(DEV_EMAIL);
    await page.getByRole('textbox', { name: 'Password' }).fill(DEV_PASSWORD);
    await page.getByRole('button', { name: 'SIGN IN' }).click();
    await page.waitForURL((url) => url.pathname !== '/merchant/login');
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    await sidebar.locator('[data-sidebar-entry="Merchant Transactions"]').click();
    await waitForPath(page, '/merchant/trxns');
    // The first search runs by itself once the types are in.
    const table = page.getByTestId('transactions-table');
    await table.waitFor({ timeout: 15_000 });
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect(await table.textContent()).toContain('GHS 25.00');
    expect(await page.getByTestId('transaction-totals').textContent()).toContain('PENDING');
    await screenshotTop(page, 'merchants-transactions-desktop');
    await page.getByRole('button', { name: /^View / }).click();
    const details = page.getByTestId('transaction-details');
    await details.waitFor();
    // The app by its name, a link to its settings (the developer builds it); the server's own fields never come.
    const appLink = details.getByRole('link', { name: CLONED_APP });
    expect(await appLink.getAttribute('href')).toBe(`/app-settings/${cloned.appId}`);
    const detailsText = (await details.textContent()) ?? '';
    for (const internal of ['checkoutToken', 'settledBy', 'checkoutUrl', cloned.appId]) expect(detailsText).not.toContain(internal);
    expect(await page.getByTestId('transaction-metadata').textContent()).toContain('"provider": "sandbox"');
    await screenshotViewport(page, 'merchants-transaction-details-desktop');
    await page.keyboard.press('Escape');

    // A filter that matches nothing.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'FAILED' }).click();
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('transactions-empty').getByText(MERCHANT_MESSAGES.noTransactions).waitFor();

    await sidebar.locator('[data-sidebar-entry="Manage Merchant Account"]').click();
    await page.getByTestId('merchant-details').getByText(COMPANY).waitFor();
    expect(await page.getByRole('button', { name: 'Create New User' }).count()).toBe(0);
    // Admin screens are not theirs.
    await page.goto('/merchant/list');
    await waitForPath(page, '/get-started');
  });

  it('a merchant user who is not a Developer is offered no Create App, Clone or New App, and told why; the server refuses them too', async () => {
    // The seeded merchant user (Boateng Retail) is not a Developer.
    const token = await loginByApi(E2E_USERS.merchant).then((reply) => reply.token);
    for (const [viewport, width] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await open('merchant', viewport);
      await page.goto('/create-app');
      await page.getByTestId('app-builder-notice').getByText(APP_MESSAGES.notAppBuilder).waitFor();
      expect(await page.getByRole('button', { name: 'Create App' }).count()).toBe(0);
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, `merchants-non-developer-create-app-${width}`);

      await page.goto('/app-templates');
      await page.getByTestId('template-grid').locator('article').nth(5).waitFor();
      await page.getByTestId('app-builder-notice').waitFor();
      expect(await page.getByRole('button', { name: /^Clone / }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Test Run / }).count()).toBe(6);
      await screenshotTop(page, `merchants-non-developer-templates-${width}`);

      await page.goto('/get-started');
      await page.getByRole('heading', { name: 'Hello, Welcome to Dialflow' }).waitFor();
      await page.getByTestId('template-grid').locator('article').nth(5).waitFor();
      await page.getByTestId('app-builder-notice').waitFor();
      expect(await page.getByRole('link', { name: 'New App' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Import app' }).count()).toBe(0);
      await screenshotTop(page, `merchants-non-developer-get-started-${width}`);
    }

    const templates = (await (await fetch(`${baseUrl()}/featuredTemplates`)).json()) as { data: Array<{ appId: string }> };
    const clone = await callApi(token, '/api/cloneApp', { appId: templates.data[0]!.appId, appName: 'Mine', description: 'x' });
    expect(clone).toMatchObject({ status: '05', message: APP_MESSAGES.notAppBuilder });
    expect((await callApi<unknown[]>(token, '/api/getAllApps')).data).toEqual([]);
  });

  it('at phone width: the merchant list, the users and the transactions fit', async () => {
    const page = await open('admin', PHONE);
    for (const [path, ready, name] of [
      ['/merchant/list', 'merchants-table', 'merchants-all-phone'],
      [`/merchant/list-users/${merchantUuid}`, 'merchant-users-table', 'merchants-users-phone'],
      [`/merchant/trxns/${merchantUuid}`, 'transactions-table', 'merchants-transactions-phone'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(ready).waitFor({ timeout: 15_000 });
      await expectNoSidewaysScroll(page);
      await screenshotTop(page, name);
    }
    await page
      .getByRole('button', { name: /^View / })
      .first()
      .click();
    await page.getByTestId('transaction-details').getByRole('link', { name: CLONED_APP }).waitFor();
    // The metadata's long values (the provider's reference) wrap inside their box instead of running past its edge.
    const metadata = page.getByTestId('transaction-metadata');
    expect(await metadata.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await screenshotViewport(page, 'merchants-transaction-details-phone');
    await page.keyboard.press('Escape');

    // Once its app is deleted the server answers `app: null`: the modal says so rather than showing a bare id.
    await page.route('**/api/merchant/transactions', async (route) => {
      const reply = await (await route.fetch()).json();
      for (const row of reply.data) row.app = null;
      await route.fulfill({ json: reply });
    });
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/merchant/transactions')),
      page.getByRole('button', { name: 'Search' }).click(),
    ]);
    await page
      .getByRole('button', { name: /^View / })
      .first()
      .click();
    const details = page.getByTestId('transaction-details');
    expect(await details.getByTestId('transaction-app').textContent()).toBe('Deleted app');
    expect(await details.getByRole('link').count()).toBe(0);
    await screenshotViewport(page, 'merchants-transaction-details-deleted-app-phone');
  });

  it('a super admin creates an admin (roles required), assigns the merchant and changes the roles', async () => {
    const page = await open('superAdmin');
    await page.goto('/admin/create');
    await page.getByLabel('Full Name').fill('Abena Admin');
    await page.getByLabel('Email').fill(NEW_ADMIN_EMAIL);
    await page.getByLabel('Mobile Number').fill('233244777888');
    await page.getByLabel(/^Password/).fill('abena-admin-1');
    await page.getByLabel('Confirm Password').fill('abena-admin-1');
    await page.getByRole('button', { name: 'Create Admin' }).click();
    expect(await alertText(page)).toContain(MERCHANT_MESSAGES.selectRole);
    await page.getByRole('checkbox', { name: 'SUPPORT' }).check();
    await screenshotTop(page, 'admins-create-desktop');
    await page.getByRole('button', { name: 'Create Admin' }).click();
    await page.waitForURL(/\/admin\/manage\//);
    await page.getByRole('tab', { name: 'Profile Details' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'SUPPORT' }).isChecked()).toBe(true);
    await closeToasts(page);

    await page.getByRole('tab', { name: 'Assigned Merchants' }).click();
    await page.getByTestId('assigned-empty').waitFor();
    await page.getByRole('button', { name: 'Assign Merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign Merchant' });
    await dialog.getByRole('combobox', { name: 'Merchant' }).fill('Kente');
    await page.getByRole('option', { name: new RegExp(COMPANY) }).click();
    await screenshotViewport(page, 'admins-assign-desktop');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await page.getByTestId('assigned-merchants-table').locator(`tr[data-row="${MERCHANT_EMAIL}"]`).waitFor();
    await closeToasts(page);
    await screenshotTop(page, 'admins-assigned-desktop');

    await page.getByRole('tab', { name: 'Profile Details' }).click();
    await page.getByRole('checkbox', { name: 'MERCHANT' }).check();
    await page.getByRole('checkbox', { name: 'SUPPORT' }).uncheck();
    await page.getByRole('button', { name: 'Save Profile' }).click();
    await page.getByText('Profile updated successfully').waitFor();

    const superToken = await login('superAdmin');
    const admins = await callApi<Array<{ email: string; roles: string[]; uuid: string }>>(superToken, '/api/admin/list');
    const created = admins.data!.find((a) => a.email === NEW_ADMIN_EMAIL)!;
    expect(created.roles).toEqual(['MERCHANT']);
    const profile = await callApi<{ assignedMerchants: Array<{ uuid: string }> }>(superToken, `/api/admin/profile/${created.uuid}`);
    expect(profile.data!.assignedMerchants.map((m) => m.uuid)).toEqual([merchantUuid]);

    // The audit log tells it.
    await page.goto('/admin/audit-log');
    const audit = page.getByTestId('audit-table');
    await audit.waitFor();
    for (const action of ['Admin created', 'Admin roles changed', 'Merchant assigned', 'App cloned into merchant', 'Merchant registered'])
      await audit.getByText(action, { exact: true }).first().waitFor();
    await screenshotTop(page, 'admins-audit-log-desktop');

    const phone = await open('superAdmin', PHONE);
    await phone.goto('/admin/list');
    await phone.getByTestId('admins-table').locator(`tr[data-row="${NEW_ADMIN_EMAIL}"]`).waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshotTop(phone, 'admins-list-phone');
    await phone.goto(`/admin/manage/${created.uuid}`);
    await phone.getByRole('tab', { name: 'Profile Details' }).waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshotTop(phone, 'admins-manage-phone');
  });
});
