import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APP_MESSAGES } from '../../src/shared/api/apps.schema';
import { callApi, type LoginReplyBody, pathOf, registerAccount, storeSession, waitForPath } from './accounts';
import {
  capture,
  baseUrl,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  signIn,
  waitForAnimations,
} from './browser';
import { E2E_USERS } from './fixtures';

/**
 * The apps and templates screens: create (every message, both connection modes), the lists, settings, clone,
 * delete, templates and the admin list. Each test file registers its own accounts so the seeded ones stay clean.
 */
const TEMPLATE_NAMES = ['Airtime Top-Up', 'Pay a Merchant', 'Community Poll', 'Customer Survey', 'Balance Enquiry', 'Event Registration'];

interface AppRow {
  appId: string;
  appName: string;
  shortCode: string;
  useTemplateTag: boolean;
  connectionMode: string;
  companyName: string;
  userEmail: string;
}

const findApps = async (token: string) => (await callApi<AppRow[]>(token, '/api/getAllApps')).data;

async function createAppByApi(token: string, appName: string, shortCode: string): Promise<AppRow> {
  const reply = await callApi<AppRow>(token, '/api/createApp', {
    appName,
    description: `${appName} for the e2e tests`,
    country: 'kenya',
    connectionMode: 'existing-shortcode',
    useTemplateTag: false,
    customShortCode: shortCode,
  });
  if (reply.status !== '00') throw new Error(`createApp failed: ${JSON.stringify(reply)}`);
  return reply.data;
}

/** With the page's clock paused nothing moves, and no animation frame would come to wait for. */
async function shoot(page: Page, name: string, isClockPaused = false) {
  await page.evaluate(() => window.scrollTo(0, 0));
  if (!isClockPaused) await waitForAnimations(page);
  await screenshot(page, name);
}

/**
 * On the page's clock, paused from before `act` (which ends on the success box): the page stays where it is for
 * `delayMs` and moves to `path` at `delayMs`; then the clock runs on. The page needs `page.clock.install()` before
 * it loads. Screenshots inside `act` say the clock is paused.
 */
async function expectRedirectAfter(
  page: Page,
  delayMs: number,
  path: string | (() => Promise<string>),
  act: () => Promise<void>,
): Promise<void> {
  const startPath = pathOf(page);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await act();
  await page.clock.runFor(delayMs - 1);
  expect(pathOf(page)).toBe(startPath);
  await page.clock.runFor(1);
  await waitForPath(page, typeof path === 'string' ? path : await path());
  await page.clock.resume();
}

/** The dismissible warning (or success) box of the form screens, holding this text. */
const formAlert = (page: Page, text: string) => page.getByTestId('form-alert').filter({ hasText: text });

async function expectFormAlert(page: Page, text: string) {
  await formAlert(page, text).waitFor({ timeout: 5000 });
}

async function pickOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A rendered row of the desktop table for this app. */
const tableRow = (page: Page, appName: string) => page.getByTestId('app-table').getByRole('row').filter({ hasText: appName });

describeBrowser('apps and templates', () => {
  let browser: Browser;
  let owner: { email: string; reply: LoginReplyBody };
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kojo Boateng', { plan: 'ENTERPRISE' });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openAsOwner(viewport = DESKTOP): Promise<Page> {
    const p = await openPage(browser, viewport);
    await storeSession(p, owner.reply);
    return p;
  }

  it('a user with no apps visiting /app-list goes to /get-started, which shows the featured templates', async () => {
    page = await openAsOwner();
    await page.goto('/app-list');
    await waitForPath(page, '/get-started');
    await page.getByRole('heading', { name: 'Featured templates' }).waitFor();
    const cards = page.locator('section[aria-labelledby="featured-templates-heading"] article');
    await cards.nth(5).waitFor();
    expect(await cards.count()).toBe(6);
    // The sidebar entries of this area are links now, and New App leads to the form.
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    for (const [entry, path] of [
      ['Create App', '/create-app'],
      ['My USSD Apps', '/app-list'],
      ['Templates', '/app-templates'],
    ]) {
      expect(await sidebar.locator(`[data-sidebar-entry="${entry}"]`).getAttribute('href')).toBe(path);
    }
    await shoot(page, 'apps-get-started-templates-desktop');
    await page.getByRole('link', { name: 'New App' }).click();
    await waitForPath(page, '/create-app');
    await page.context().close();
  });

  it('create app: every create-app message, in a dismissible warning box', async () => {
    page = await openAsOwner();
    await page.goto('/create-app');
    await page.getByRole('heading', { name: 'Create Ussd App' }).waitFor();
    await shoot(page, 'apps-create-desktop');
    const create = page.getByRole('button', { name: 'Create App' });

    await create.click();
    await expectFormAlert(page, APP_MESSAGES.incomplete);
    await shoot(page, 'apps-create-errors-desktop');
    await page.getByRole('button', { name: 'Dismiss message' }).click();
    await formAlert(page, APP_MESSAGES.incomplete).waitFor({ state: 'detached' });

    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Pay');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Pay Kojo for goods');
    await create.click();
    await expectFormAlert(page, APP_MESSAGES.incomplete);
    await pickOption(page, 'Country', 'Ghana');

    await create.click();
    await expectFormAlert(page, APP_MESSAGES.noBase);

    await pickOption(page, 'Base Shortcode', '*920*');
    await page.getByRole('textbox', { name: 'Extension', exact: true }).fill('12');
    await create.click();
    await expectFormAlert(page, APP_MESSAGES.noHash);

    await page.getByRole('textbox', { name: 'Extension', exact: true }).fill('12*ab#');
    await create.click();
    await expectFormAlert(page, APP_MESSAGES.existingFormat);

    await page.getByRole('radio', { name: 'Existing shortcode' }).click();
    await page.getByRole('textbox', { name: 'Short Code', exact: true }).fill('966#');
    await create.click();
    await expectFormAlert(page, APP_MESSAGES.existingFormat);
    expect(await page.getByTestId('form-alert').count()).toBe(1);

    // The template-tag checkbox changes the placeholder examples, and its tooltip explains the tags.
    const shortCode = page.getByRole('textbox', { name: 'Short Code', exact: true });
    expect(await shortCode.getAttribute('placeholder')).toBe('*966#, *900*200#');
    await page.getByLabel('Template Formatted').check();
    expect(await shortCode.getAttribute('placeholder')).toContain('{merchantCode}');
    await page.getByRole('button', { name: 'What is a template-formatted shortcode?' }).hover();
    await page.getByRole('tooltip').filter({ hasText: '{amount}' }).waitFor();
    await waitForAnimations(page);
    // The viewport only: a full-page picture of a scrolled page would draw the fixed header mid-page.
    await capture(page, 'apps-create-tooltip-desktop');
    expect(await findApps(owner.reply.token)).toEqual([]);
    await page.context().close();
  });

  it("creates an app on a new shortcode extension: base *920* and *12# make *920*12#, then the new app's designer after 1000 ms", async () => {
    page = await openAsOwner();
    await page.clock.install();
    await page.goto('/create-app');
    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Airtime');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Airtime for Kojo customers');
    await pickOption(page, 'Country', 'Ghana');
    await pickOption(page, 'Base Shortcode', '*920*');
    await page.getByRole('textbox', { name: 'Extension', exact: true }).fill('*12#');
    expect(await page.getByTestId('dial-preview').textContent()).toBe('*920*12#');
    await shoot(page, 'apps-create-filled-desktop');
    const designerOfNewApp = async () => `/app/design/${(await findApps(owner.reply.token))[0]!.appId}`;
    await expectRedirectAfter(page, 1_000, designerOfNewApp, async () => {
      await page.getByRole('button', { name: 'Create App' }).click();
      await expectFormAlert(page, 'App created successfully');
      await shoot(page, 'apps-create-success-desktop', true);
    });
    // The designer of the new app, empty, ready for its first menu.
    await page.getByRole('heading', { name: 'Kojo Airtime' }).first().waitFor();
    await shoot(page, 'apps-create-landed-designer-desktop');

    const [stored] = await findApps(owner.reply.token);
    expect(stored).toMatchObject({
      appName: 'Kojo Airtime',
      shortCode: '*920*12#',
      connectionMode: 'new-shortcode',
      useTemplateTag: false,
    });
    expect(pathOf(page)).toBe(`/app/design/${stored!.appId}`);
    await page.goto('/app-list');
    await tableRow(page, 'Kojo Airtime').filter({ hasText: '*920*12#' }).waitFor();
    await page.context().close();
  });

  it('creates apps with a custom base and on an existing template-formatted shortcode', async () => {
    page = await openAsOwner();
    await page.goto('/create-app');
    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Custom');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('A custom shortcode');
    await pickOption(page, 'Country', 'Nigeria');
    await pickOption(page, 'Base Shortcode', 'Custom');
    await page.getByRole('textbox', { name: 'Custom Short Code', exact: true }).fill('*555*1#');
    expect(await page.getByTestId('dial-preview').textContent()).toBe('*555*1#');
    await page.getByRole('button', { name: 'Create App' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/design/'));

    await page.goto('/create-app');
    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Merchant Pay');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Pay a merchant by code and amount');
    await pickOption(page, 'Country', "Côte d'Ivoire");
    await page.getByRole('radio', { name: 'Existing shortcode' }).click();
    await page.getByLabel('Template Formatted').check();
    await page.getByRole('textbox', { name: 'Short Code', exact: true }).fill('*384*{merchantCode}*{amount}#');
    await page.getByRole('button', { name: 'Create App' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/app/design/'));
    await page.goto('/app-list');

    const apps = await findApps(owner.reply.token);
    expect(apps.find((a) => a.appName === 'Kojo Custom')).toMatchObject({ shortCode: '*555*1#', connectionMode: 'new-shortcode' });
    expect(apps.find((a) => a.appName === 'Kojo Merchant Pay')).toMatchObject({
      shortCode: '*384*{merchantCode}*{amount}#',
      connectionMode: 'existing-shortcode',
      useTemplateTag: true,
    });
    // The list: App Name, Shortcode, a read-only Template Tag checkbox, Actions.
    await tableRow(page, 'Kojo Merchant Pay').waitFor();
    const headers = await page.getByTestId('app-table').getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['App Name', 'Shortcode', 'Template Tag', 'Actions']);
    const merchantRow = tableRow(page, 'Kojo Merchant Pay');
    await merchantRow.waitFor();
    expect(await merchantRow.getByRole('checkbox').isChecked()).toBe(true);
    expect(await tableRow(page, 'Kojo Airtime').getByRole('checkbox').isChecked()).toBe(false);
    expect(await page.getByTestId('app-table').getByRole('row').count()).toBe(4);
    await shoot(page, 'apps-list-desktop');
    await page.context().close();
  });

  it('settings: Test and Production Urls to copy, the settings messages, save and back to /app-list after 1 s', async () => {
    page = await openAsOwner();
    await page.clock.install();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    const apps = await findApps(owner.reply.token);
    const merchantPay = apps.find((a) => a.appName === 'Kojo Merchant Pay')!;
    await page.goto('/app-list');
    await tableRow(page, 'Kojo Merchant Pay').getByRole('link', { name: 'Settings of Kojo Merchant Pay' }).click();
    await waitForPath(page, `/app-settings/${merchantPay.appId}`);
    await page.getByRole('heading', { name: 'Application Settings' }).waitFor();

    const testUrl = page.getByRole('textbox', { name: 'Test Url', exact: true });
    await testUrl.waitFor();
    expect(await testUrl.inputValue()).toBe(`${baseUrl()}/ussd/${merchantPay.appId}/test`);
    expect(await page.getByRole('textbox', { name: 'Production Url', exact: true }).inputValue()).toBe(
      `${baseUrl()}/ussd/${merchantPay.appId}/live`,
    );
    await page.getByRole('button', { name: 'Copy Production Url' }).click();
    await page.getByRole('alert').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl()}/ussd/${merchantPay.appId}/live`);
    expect(await page.getByLabel('Is Template Formated').isChecked()).toBe(true);
    await shoot(page, 'apps-settings-desktop');

    const save = page.getByRole('button', { name: 'Save' });
    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('');
    await save.click();
    await expectFormAlert(page, APP_MESSAGES.incomplete);
    await page.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Merchant Pay 2');
    await page.getByRole('textbox', { name: 'Custom Short Code', exact: true }).fill('');
    await save.click();
    await expectFormAlert(page, APP_MESSAGES.noShortcode);
    await page.getByRole('textbox', { name: 'Custom Short Code', exact: true }).fill('*384*7');
    await save.click();
    await expectFormAlert(page, APP_MESSAGES.noHash);
    // Another of the account's apps is on *920*12#: the server refuses it with the rule's message.
    await page.getByRole('textbox', { name: 'Custom Short Code', exact: true }).fill('*920*12#');
    await save.click();
    await expectFormAlert(page, APP_MESSAGES.dialStringInUse('*920*12#'));
    await shoot(page, 'apps-settings-errors-desktop');
    await page.getByRole('textbox', { name: 'Custom Short Code', exact: true }).fill('*384*7#');
    await page.getByLabel('Is Template Formated').uncheck();
    await expectRedirectAfter(page, 1_000, '/app-list', async () => {
      await save.click();
      await expectFormAlert(page, 'App updated successfully');
    });
    await tableRow(page, 'Kojo Merchant Pay 2').filter({ hasText: '*384*7#' }).waitFor();
    const saved = (await findApps(owner.reply.token)).find((a) => a.appId === merchantPay.appId);
    expect(saved).toMatchObject({ appName: 'Kojo Merchant Pay 2', shortCode: '*384*7#', useTemplateTag: false });

    // A new-shortcode app shows its provisioned shortcode read-only.
    const airtime = apps.find((a) => a.appName === 'Kojo Airtime')!;
    await page.goto(`/app-settings/${airtime.appId}`);
    const shortCode = page.getByRole('textbox', { name: 'Short Code', exact: true });
    await shortCode.waitFor();
    expect(await shortCode.inputValue()).toBe('*920*12#');
    expect(await shortCode.getAttribute('readonly')).not.toBeNull();
    // Typing it reserved nothing: the screen says so instead of calling it provisioned.
    const status = page.getByTestId('dial-string-status');
    expect(await status.textContent()).toContain('Not reserved');
    expect(await status.textContent()).toContain('No shortcode of yours holds *920*12#');
    expect(await page.getByText('Provisioned for this app').count()).toBe(0);
    await shoot(page, 'apps-settings-dial-string-desktop');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Airtime and data bundles');
    await page.getByRole('button', { name: 'Save' }).click();
    await waitForPath(page, '/app-list');
    expect((await findApps(owner.reply.token)).find((a) => a.appId === airtime.appId)).toMatchObject({ shortCode: '*920*12#' });
    await page.context().close();
  });

  it("another account's app id shows a clear not-found state", async () => {
    const other = await registerAccount('Abena Owusu');
    const theirs = await createAppByApi(other.reply.token, 'Abena Shop', '*789#');
    page = await openAsOwner();
    await page.goto(`/app-settings/${theirs.appId}`);
    await page.getByTestId('app-not-found').getByText('App not found').waitFor();
    await shoot(page, 'apps-settings-not-found-desktop');
    await page.getByRole('link', { name: 'Back to My USSD Apps' }).click();
    await waitForPath(page, '/app-list');
    await page.context().close();
  });

  it('every screen of an unknown app says App not found, once, with the way back to the app list', async () => {
    const appId = 'no-such-app-0000';
    const screens = [
      `/app/design/${appId}`,
      `/app/design/${appId}/flow`,
      `/app-settings/${appId}`,
      `/app/dashboard/${appId}`,
      `/app/liveview/${appId}`,
      `/app/actionlogs/${appId}`,
      `/app/completesession/${appId}`,
      `/app/uncompletedsession/${appId}`,
      `/app/search/${appId}`,
    ];
    for (const [viewport, width] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      page = await openAsOwner(viewport);
      for (const path of width === 'desktop' ? screens : [`/app/dashboard/${appId}`]) {
        await page.goto(path);
        const panel = page.getByTestId('app-not-found');
        await panel.getByRole('heading', { name: 'App not found' }).waitFor({ timeout: 10_000 });
        expect(await panel.count(), path).toBe(1);
        expect(await panel.getByRole('link', { name: 'Back to My USSD Apps' }).getAttribute('href'), path).toBe('/app-list');
      }
      await shoot(page, `apps-dashboard-not-found-${width}`);
      await page.getByRole('link', { name: 'Back to My USSD Apps' }).click();
      await waitForPath(page, '/app-list');
      await page.context().close();
    }
  });

  it('clones an app from the list, then deletes the copy after the confirmation', async () => {
    page = await openAsOwner();
    await page.goto('/app-list');
    await tableRow(page, 'Kojo Airtime').getByRole('button', { name: 'Clone Kojo Airtime' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clone Kojo Airtime' });
    const name = dialog.getByRole('textbox', { name: 'App Name', exact: true });
    expect(await name.inputValue()).toBe('Kojo Airtime (copy)');
    await shoot(page, 'apps-clone-desktop');
    await name.fill('');
    await dialog.getByRole('button', { name: 'Clone' }).click();
    await dialog.getByTestId('form-alert').filter({ hasText: APP_MESSAGES.incomplete }).waitFor();
    await name.fill('Kojo Airtime Weekend');
    await dialog.getByRole('button', { name: 'Clone' }).click();
    await dialog.waitFor({ state: 'detached' });
    await tableRow(page, 'Kojo Airtime Weekend').waitFor();
    // The copy does not share the source's dial string: it has none until its owner types one.
    expect((await findApps(owner.reply.token)).find((a) => a.appName === 'Kojo Airtime Weekend')).toMatchObject({ shortCode: '' });

    await tableRow(page, 'Kojo Airtime Weekend').getByRole('button', { name: 'Delete Kojo Airtime Weekend' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Kojo Airtime Weekend' });
    await confirm.getByText('Are you sure you want to delete this app?').waitFor();
    await shoot(page, 'apps-delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await tableRow(page, 'Kojo Airtime Weekend').count()).toBe(1);

    await tableRow(page, 'Kojo Airtime Weekend').getByRole('button', { name: 'Delete Kojo Airtime Weekend' }).click();
    await page.getByRole('dialog', { name: 'Delete Kojo Airtime Weekend' }).getByRole('button', { name: 'Delete' }).click();
    await tableRow(page, 'Kojo Airtime Weekend').waitFor({ state: 'detached' });
    expect((await findApps(owner.reply.token)).map((a) => a.appName)).not.toContain('Kojo Airtime Weekend');
    await page.context().close();
  });

  it("templates page lists the six seeded templates; cloning one lands on the copy's designer after 1500 ms", async () => {
    page = await openAsOwner();
    await page.clock.install();
    await page.goto('/app-templates');
    await page.getByRole('heading', { name: 'Templates - Things you can build' }).waitFor();
    const cards = page.getByTestId('template-grid').locator('article');
    await cards.nth(5).waitFor();
    const names = await cards.locator('h3').allTextContents();
    expect([...names].sort()).toEqual([...TEMPLATE_NAMES].sort());
    // Each card shows its country's flag as an image named for the country (not letters such as GH).
    const flags = page.getByTestId('template-grid').getByTestId('country-flag');
    expect(await flags.count()).toBe(6);
    await cards.filter({ hasText: 'Community Poll' }).getByRole('img', { name: 'Nigeria', exact: true }).waitFor();
    expect(await cards.filter({ hasText: 'Airtime Top-Up' }).getByRole('img', { name: 'Ghana', exact: true }).getAttribute('src')).toMatch(
      /gh.*\.svg|^data:image\/svg/,
    );
    for (const flag of await flags.all())
      expect(await flag.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(
      await page
        .getByTestId('template-grid')
        .getByText(/^(GH|NG|KE)$/)
        .count(),
    ).toBe(0);
    await shoot(page, 'apps-templates-desktop');

    await page.getByRole('button', { name: 'Clone Pay a Merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clone Pay a Merchant' });
    expect(await dialog.getByRole('textbox', { name: 'App Name', exact: true }).inputValue()).toBe('Pay a Merchant');
    expect(await dialog.getByRole('textbox', { name: 'Description', exact: true }).inputValue()).not.toBe('');
    await dialog.getByRole('textbox', { name: 'App Name', exact: true }).fill('Kojo Merchant Collect');
    const designerOfClone = async () =>
      `/app/design/${(await findApps(owner.reply.token)).find((a) => a.appName === 'Kojo Merchant Collect')!.appId}`;
    await expectRedirectAfter(page, 1_500, designerOfClone, async () => {
      await dialog.getByRole('button', { name: 'Clone' }).click();
      await dialog.getByTestId('form-alert').filter({ hasText: 'App cloned successfully. Taking you to its designer' }).waitFor();
      await shoot(page, 'apps-templates-clone-success-desktop', true);
    });
    await page.goto('/app-list');
    await tableRow(page, 'Kojo Merchant Collect').filter({ hasText: '{merchantCode}' }).waitFor();
    const cloned = (await findApps(owner.reply.token)).find((a) => a.appName === 'Kojo Merchant Collect');
    expect(cloned).toMatchObject({ shortCode: '*920*12*{merchantCode}*{amount}#', useTemplateTag: true });
    await page.context().close();
  });

  it('admins: USSD Apps with company, email and search; the two lists are kept apart by role', async () => {
    page = await openPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.goto('/app-list');
    await waitForPath(page, '/app-list-admin');
    await page.getByRole('heading', { name: 'USSD Apps' }).waitFor();
    const table = page.getByTestId('app-table');
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['App Name', 'Company Name', 'User Email', 'Actions']);
    const row = tableRow(page, 'Kojo Airtime');
    expect(await row.textContent()).toContain('Asante Foods');
    expect(await row.textContent()).toContain(owner.email);
    expect(await tableRow(page, 'Mensah Airtime').textContent()).toContain(E2E_USERS.private.email);
    await shoot(page, 'apps-admin-list-desktop');

    await page.getByPlaceholder('Search apps...').fill(owner.email);
    await tableRow(page, 'Mensah Airtime').waitFor({ state: 'detached' });
    const rows = await table.getByRole('row').allTextContents();
    expect(rows.slice(1).every((text) => text.includes(owner.email))).toBe(true);
    expect(rows.length - 1).toBe((await findApps(owner.reply.token)).length);
    await page.getByPlaceholder('Search apps...').fill('no-such-app-anywhere');
    await page.getByText('No apps match your search').waitFor();
    await shoot(page, 'apps-admin-search-empty-desktop');

    await page.getByPlaceholder('Search apps...').fill('Kojo Airtime');
    // The account picker needs the merchant list; it shows only when GET /api/merchant/list answers '00'.
    const [merchantList] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/merchant/list'),
      tableRow(page, 'Kojo Airtime').getByRole('button', { name: 'Clone Kojo Airtime' }).click(),
    ]);
    const dialog = page.getByRole('dialog', { name: 'Clone Kojo Airtime' });
    await dialog.getByRole('textbox', { name: 'App Name', exact: true }).waitFor();
    const hasMerchants = ((await merchantList.json()) as { status: string }).status === '00';
    await expect.poll(() => dialog.getByText('Clone into Different Account').count()).toBe(hasMerchants ? 1 : 0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.context().close();

    // With a merchant list, the picker appears and Clone waits until an account is chosen.
    page = await openPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.route('**/api/merchant/list', (route) =>
      route.fulfill({
        json: {
          status: '00',
          message: 'OK',
          // The whole shape the server sends: the console parses the reply against the call's declaration.
          data: [
            {
              uuid: 'm-1',
              fullName: 'Kofi Mensah',
              companyName: 'Mensah Traders',
              email: 'kofi@example.com',
              mobileNumber: '0244000001',
              businessCategory: 'Retail',
              isDeveloper: false,
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
        },
      }),
    );
    await page.goto('/app-list-admin');
    await page.getByPlaceholder('Search apps...').fill('Kojo Airtime');
    await tableRow(page, 'Kojo Airtime').getByRole('button', { name: 'Clone Kojo Airtime' }).click();
    const pickerDialog = page.getByRole('dialog', { name: 'Clone Kojo Airtime' });
    const intoAccount = pickerDialog.getByRole('switch', { name: 'Clone into Different Account' });
    await intoAccount.waitFor({ state: 'attached' });
    // Mantine draws the switch over a visually hidden input, which Playwright never calls visible.
    await intoAccount.check({ force: true });
    const clone = pickerDialog.getByRole('button', { name: 'Clone', exact: true });
    expect(await clone.isDisabled()).toBe(true);
    await pickOption(page, 'Account', 'Mensah Traders (kofi@example.com)');
    expect(await clone.isDisabled()).toBe(false);
    await shoot(page, 'apps-admin-clone-desktop');
    await pickerDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.context().close();

    // A non-admin asking for the admin list is sent to their own.
    page = await openAsOwner();
    await page.goto('/app-list-admin');
    await waitForPath(page, '/app-list');
    await page.context().close();
  });

  it('every screen at phone width', async () => {
    page = await openAsOwner(PHONE);
    const [airtime] = (await findApps(owner.reply.token)).filter((a) => a.appName === 'Kojo Airtime');
    const screens: Array<[string, string, (p: Page) => Promise<unknown>]> = [
      ['/create-app', 'apps-create', (p) => p.getByRole('heading', { name: 'Create Ussd App' }).waitFor()],
      ['/app-list', 'apps-list', (p) => p.getByTestId('app-cards').getByText('Kojo Airtime', { exact: true }).waitFor()],
      [`/app-settings/${airtime!.appId}`, 'apps-settings', (p) => p.getByRole('textbox', { name: 'Test Url', exact: true }).waitFor()],
      ['/app-settings/0000', 'apps-settings-not-found', (p) => p.getByTestId('app-not-found').waitFor()],
      ['/app-templates', 'apps-templates', (p) => p.getByTestId('template-grid').locator('article').nth(5).waitFor()],
      ['/get-started', 'apps-get-started-templates', (p) => p.getByRole('heading', { name: 'Featured templates' }).waitFor()],
    ];
    for (const [path, name, ready] of screens) {
      await page.goto(path);
      await ready(page);
      await shoot(page, `${name}-phone`);
    }
    await page.goto('/create-app');
    await page.getByRole('button', { name: 'Create App' }).click();
    await expectFormAlert(page, APP_MESSAGES.incomplete);
    await shoot(page, 'apps-create-errors-phone');
    await page.goto('/app-list');
    await page.getByTestId('app-cards').getByRole('button', { name: 'Clone Kojo Airtime' }).click();
    await page.getByRole('dialog', { name: 'Clone Kojo Airtime' }).waitFor();
    await shoot(page, 'apps-clone-phone');
    await page.context().close();

    page = await openPage(browser, PHONE);
    await signIn(page, 'admin');
    await page.goto('/app-list-admin');
    await page.getByTestId('app-cards').getByText('Kojo Airtime', { exact: true }).waitFor();
    await shoot(page, 'apps-admin-list-phone');
    expect(pathOf(page)).toBe('/app-list-admin');
    await page.context().close();
  });

  it('a 120-character app name ends in an ellipsis, the whole name in its tooltip, in the list, cards and headers', async () => {
    const longName =
      'Kojo Family Airtime, Data and Mobile Money Bundles with Weekend Offers: KojoAirtimeDataAndMobileMoneyBundlesForEveryone!';
    expect(longName).toHaveLength(120);
    const app = await createAppByApi(owner.reply.token, longName, '*777*120#');
    /** The name's element: one line (or `lines`), cut, the whole name as its title, nothing wider than its box. */
    async function expectCut(name: Locator, lines = 1) {
      const fit = await name.evaluate((el) => ({
        isCut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
        lines: Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
      }));
      expect(fit).toEqual({ isCut: true, lines });
    }
    const fitsSideways = (element: Locator) => element.evaluate((el) => el.scrollWidth <= el.clientWidth);

    page = await openAsOwner();
    await page.goto('/app-list');
    const row = tableRow(page, longName);
    await expectCut(row.getByTitle(longName));
    expect(await fitsSideways(page.getByTestId('app-table').locator('..'))).toBe(true);
    expect((await row.boundingBox())!.height).toBeLessThan(80);
    await shoot(page, 'apps-list-long-name-desktop');
    await page.goto(`/app/design/${app.appId}`);
    await expectCut(page.getByRole('heading', { level: 1, name: longName }), 2);
    await page.context().close();

    page = await openAsOwner(PHONE);
    await page.goto('/app-list');
    const card = page.getByTestId('app-cards').locator('.mantine-Card-root').filter({ hasText: longName });
    await expectCut(card.getByTitle(longName));
    expect(await fitsSideways(card)).toBe(true);
    await expectNoSidewaysScroll(page);
    await shoot(page, 'apps-list-long-name-phone');
    await page.goto(`/app/design/${app.appId}`);
    await expectCut(page.getByRole('heading', { level: 1, name: longName }), 2);
    await expectNoSidewaysScroll(page);
    await shoot(page, 'apps-design-long-name-phone');
    await page.context().close();
  });
});
