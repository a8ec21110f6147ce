import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession } from './accounts';
import { capture, closeToasts, describeBrowser, launchBrowser, openPage, PHONE, waitForAnimations } from './browser';

/**
 * Readable versions (docs/versions.md): a deploy named and noted, a text changed and deployed again, the versions
 * list's summary and the Changes side by side, the old version opened read-only and run in the emulator, and a
 * rollback that names what it restores. One fresh account; the tier's shared Chromium.
 */

const LAPTOP = { width: 1280, height: 800 };
const OLD_TEXT = 'Happy Easter!\n1. Promo airtime';
const NEW_TEXT = 'Happy Easter!\n1. Promo airtime\n2. Promo data';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const hidden = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });
const toast = (page: Page, text: string | RegExp) => visible(page.locator('.mantine-Notification-root').filter({ hasText: text }).first());
const form = (page: Page) => page.getByTestId('menu-edit-form');
const row = (page: Page, version: number) => page.locator(`[data-testid="version-row"][data-version="${version}"]`);

async function shot(page: Page, name: string): Promise<void> {
  await waitForAnimations(page);
  await capture(page, name, { animations: 'disabled' });
}

/** Deploy's dialog, filled in and sent. */
async function deployNamed(page: Page, name: string, note: string) {
  await page.getByTestId('deploy-button').click();
  const dialog = page.getByRole('dialog', { name: /^Deploy version/ });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Note' }).fill(note);
  return dialog;
}

describeBrowser('readable versions', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';
  let shortCode = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Efua Versions');
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Easter Promo',
      description: 'Readable versions',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*417#',
    });
    if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
    appId = app.data.appId;
    shortCode = '*920*417#';
    const menu = await callApi(owner.reply.token, '/api/createMenu', {
      appId,
      userDefinedName: 'home',
      displayText: OLD_TEXT,
      terminate: true,
      isFirst: true,
    });
    if (menu.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(menu)}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openDesigner(viewport = LAPTOP): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${appId}`);
    await visible(page.getByRole('heading', { name: 'Easter Promo' }));
    return page;
  }

  it('deploys with a name and note, again after a text changed; reads the changes; opens and runs the old version; rolls back to it', async () => {
    const page = await openDesigner();

    // Version 1, named; a name over 80 characters cannot even be typed.
    const dialog = await deployNamed(page, 'Easter promo', 'Airtime only for the first week');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('x'.repeat(90));
    expect((await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).length).toBe(80);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Easter promo');
    await shot(page, 'versions-deploy-dialog-1280');
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await toast(page, 'Deployed version 1 "Easter promo"');
    await hidden(dialog);
    await closeToasts(page);

    // A text changed in the designer, then version 2.
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill(NEW_TEXT);
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, /Menu (saved|updated)/);
    await hidden(form(page));
    await closeToasts(page);
    await (await deployNamed(page, 'Data too', 'Adds promo data')).getByRole('button', { name: 'Deploy', exact: true }).click();
    await toast(page, 'Deployed version 2 "Data too"');
    await closeToasts(page);

    // The list: who, when, name, note, and what changed since the one before.
    await page.getByRole('button', { name: 'Versions' }).click();
    const drawer = page.getByRole('dialog', { name: 'Versions' });
    await visible(row(page, 2).getByText('Live'));
    expect(await row(page, 2).getByTestId('version-name').textContent()).toBe('· Data too');
    expect(await row(page, 2).getByTestId('version-note').textContent()).toBe('Adds promo data');
    expect(await row(page, 2).getByTestId('version-summary').textContent()).toBe('1 menu · 1 text changed');
    expect(await row(page, 1).getByTestId('version-summary').textContent()).toBe('1 menu · 1 menu added');
    await visible(row(page, 1).getByText(owner.reply.data.email, { exact: false }));
    await shot(page, 'versions-list-1280');

    // Changes: the menu text before and after.
    await drawer.getByRole('button', { name: 'Changes in version 2' }).click();
    const changes = page.getByRole('dialog', { name: 'What changed in version 2 "Data too" since version 1' });
    const home = changes.locator('[data-testid="menu-change"][data-menu="home"]');
    await visible(home);
    expect(await home.getAttribute('data-status')).toBe('changed');
    const text = home.locator('[data-testid="field-change"][data-field="displayText"]');
    expect(await text.locator('pre').allTextContents()).toEqual([OLD_TEXT, NEW_TEXT]);
    expect(await changes.getByTestId('version-diff-summary').textContent()).toBe('1 text changed');
    await shot(page, 'versions-changes-1280');
    await changes.getByRole('button', { name: 'Close the changes' }).click();
    await hidden(changes);

    // Version 1 opened: read-only, its own text, nothing to edit or save.
    await drawer.getByRole('link', { name: 'Open version 1' }).click();
    await visible(page.getByRole('heading', { name: 'Version 1 · read-only' }));
    const facts = page.getByTestId('version-menu-facts');
    await visible(facts.getByText(OLD_TEXT.split('\n')[1]!));
    expect(await facts.textContent()).not.toContain('Promo data');
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByTestId('deploy-button').count()).toBe(0);
    await page.getByRole('tab', { name: 'Changes (first version)' }).click();
    await visible(page.locator('[data-testid="menu-change"][data-menu="home"][data-status="added"]'));
    await page.getByRole('tab', { name: 'Menus' }).click();
    await shot(page, 'versions-read-only-1280');

    // Try in emulator: version 1 answers, not the draft.
    await page.getByRole('link', { name: 'Try in emulator' }).click();
    await visible(page.getByText('Version 1', { exact: true }));
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe(shortCode);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === `/ussd-emulator/${appId}`),
      page.getByRole('button', { name: 'Call', exact: true }).click(),
    ]);
    expect(new URL(request.url()).searchParams.get('version')).toBe('1');
    await visible(page.getByTestId('menu-display'));
    expect(await page.getByTestId('menu-text').innerText()).toBe(OLD_TEXT);
    await shot(page, 'versions-emulator-1280');

    // Roll back: the confirmation and the answer name the version restored.
    await page.goto(`/app/design/${appId}`);
    await page.getByRole('button', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Roll back to version 1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Roll back to version 1 "Easter promo"?' });
    await visible(confirm);
    await shot(page, 'versions-rollback-confirm-1280');
    await confirm.getByRole('button', { name: 'Roll back' }).click();
    await toast(page, 'Restored version 1 "Easter promo" as version 3');
    await visible(row(page, 3).getByText('Live'));
    expect(await row(page, 3).getByTestId('version-summary').textContent()).toBe('1 menu · restores version 1 · 1 text changed');
    await closeToasts(page);
    await shot(page, 'versions-after-rollback-1280');
    await page.context().close();
  });

  it('on a phone: the list, the changes and the read-only version fit the screen', async () => {
    const page = await openDesigner(PHONE);
    await page.getByRole('button', { name: 'Versions' }).click();
    await visible(row(page, 3));
    await shot(page, 'versions-list-390');
    await page.getByRole('button', { name: 'Changes in version 2' }).click();
    await visible(page.locator('[data-testid="menu-change"][data-menu="home"]'));
    await shot(page, 'versions-changes-390');
    await page.goto(`/app/design/${appId}/versions/2`);
    await visible(page.getByRole('heading', { name: 'Version 2 · read-only' }));
    await visible(page.getByTestId('version-menu-facts'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'versions-read-only-390');
    // A version the app does not have says so.
    await page.goto(`/app/design/${appId}/versions/9`);
    await visible(page.getByText('Version 9 not found'));
    await shot(page, 'versions-not-found-390');
    await page.context().close();
  });
});
