import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession, waitForPath } from './accounts';
import { closeToasts, DESKTOP, describeBrowser, launchBrowser, openPage, PHONE, screenshotTop, screenshotViewport } from './browser';

/**
 * Import and export (docs/import-export.md): an app exported from one account's list is imported
 * into a new account from its getting-started page, lands in its list and opens in the designer; the designer
 * exports too; a file that does not fit shows the server's problems, each with where it is.
 */
describeBrowser('app import and export', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let importer: { reply: LoginReplyBody };
  const dir = mkdtempSync(join(tmpdir(), 'dialflow-transfer-'));
  let exportedPath = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Ama Mensah', { plan: 'ENTERPRISE' });
    importer = await registerAccount('Yaw Darko', { plan: 'ENTERPRISE' });
    const token = owner.reply.token;
    const app = await callApi<{ appId: string }>(token, '/api/createApp', {
      appName: 'Mensah Savings',
      description: 'Save a little every day',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      useTemplateTag: false,
      customShortCode: '*920*61#',
    });
    const appId = app.data.appId;
    const thanks = await callApi(token, '/api/createMenu', { appId, userDefinedName: 'thanks', displayText: 'Thank you', terminate: true });
    await callApi(token, '/api/createMenu', {
      appId,
      isFirst: true,
      userDefinedName: 'home',
      displayText: 'Mensah Savings\n1. Save\n2. Balance',
      switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: thanks.uniqueId }],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openAs(account: { reply: LoginReplyBody }): Promise<Page> {
    const page = await openPage(browser);
    await storeSession(page, account.reply);
    return page;
  }

  async function saveDownload(page: Page, click: () => Promise<void>): Promise<{ name: string; path: string }> {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    const path = join(dir, download.suggestedFilename());
    await download.saveAs(path);
    return { name: download.suggestedFilename(), path };
  }

  it('exports an app from the app list row as <app-name>.dialflow.json', async () => {
    const page = await openAs(owner);
    await page.goto('/app-list');
    const { name, path } = await saveDownload(page, () => page.getByRole('button', { name: 'Export Mensah Savings' }).first().click());
    expect(name).toBe('Mensah-Savings.dialflow.json');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file).toMatchObject({ format: 'dialflow.app', version: 1, app: { appName: 'Mensah Savings', shortCode: '*920*61#' } });
    expect(file.menus.map((m: { userDefinedName: string }) => m.userDefinedName)).toEqual(['home', 'thanks']);
    exportedPath = path;
    await page.getByText('Mensah Savings was saved as a file').waitFor();
    await page.context().close();
  });

  it('imports the file into another account from its getting-started page; the app is in its list and opens in the designer', async () => {
    const page = await openAs(importer);
    await page.goto('/get-started');
    await page.getByRole('button', { name: 'Import app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import app' });
    await dialog.locator('input[type="file"]').setInputFiles(exportedPath);
    // The file's name and shortcode are the starting values.
    const appName = dialog.getByRole('textbox', { name: 'App Name' });
    await expect.poll(() => appName.inputValue()).toBe('Mensah Savings');
    expect(await dialog.getByRole('textbox', { name: 'Shortcode' }).inputValue()).toBe('*920*61#');
    await appName.fill('Darko Savings');
    await screenshotViewport(page, 'app-import-dialog-desktop');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await waitForPath(page, '/app-list');
    await page.getByText('Darko Savings was added to your apps').waitFor();
    const row = page.getByTestId('app-table').getByRole('row').filter({ hasText: 'Darko Savings' });
    await row.waitFor();
    expect(await row.textContent()).toContain('*920*61#');
    await closeToasts(page);
    await screenshotTop(page, 'app-import-list-desktop');

    await row.getByRole('link', { name: 'Design Darko Savings' }).click();
    await page
      .getByRole('heading', { name: /Darko Savings/ })
      .first()
      .waitFor();
    await page.getByText('home', { exact: true }).first().waitFor();
    await page.getByText('thanks', { exact: true }).first().waitFor();
    await screenshotTop(page, 'app-import-designer-desktop');

    // The designer's header exports too.
    const { name } = await saveDownload(page, () => page.getByRole('button', { name: 'Export', exact: true }).click());
    expect(name).toBe('Darko-Savings.dialflow.json');
    await page.context().close();
  });

  it('a file that does not fit shows every problem the server found, and nothing is imported', async () => {
    const file = JSON.parse(readFileSync(exportedPath, 'utf8'));
    file.menus[1].displayText = '';
    file.menus[0].color = 'blue';
    const badPath = join(dir, 'broken.dialflow.json');
    writeFileSync(badPath, JSON.stringify(file));
    const before = (await callApi<unknown[]>(importer.reply.token, '/api/getAllApps')).data.length;

    const page = await openAs(importer);
    await page.goto('/app-list');
    await page.getByRole('button', { name: 'Import app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import app' });
    await dialog.locator('input[type="file"]').setInputFiles(badPath);
    await dialog.getByRole('textbox', { name: 'Shortcode' }).fill('*920*62#');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const problems = dialog.getByTestId('import-problems');
    await problems.waitFor();
    expect(await dialog.getByTestId('form-alert').textContent()).toContain('The file was not imported');
    // Each problem reads "where: what", the field name never glued to the message.
    expect(await problems.textContent()).toContain('menus.0.color: Unknown field');
    expect(await problems.textContent()).toContain('menus.1.displayText: thanks: Menu Text cannot be empty.');
    await screenshotViewport(page, 'app-import-problems-desktop');
    await page.setViewportSize(PHONE);
    await screenshotViewport(page, 'app-import-problems-phone');
    await page.setViewportSize(DESKTOP);

    // JSON, but not an export: the one reason is said once, in the alert, with no list repeating it.
    const notExport = join(dir, 'other.json');
    writeFileSync(notExport, JSON.stringify({ hello: 'world' }));
    await dialog.locator('input[type="file"]').setInputFiles(notExport);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByTestId('form-alert').getByText('This is not a Dialflow app export').waitFor();
    expect(await dialog.getByTestId('import-problems').count()).toBe(0);
    expect((await dialog.textContent())?.split('This is not a Dialflow app export')).toHaveLength(2);
    await screenshotViewport(page, 'app-import-not-export-desktop');
    await page.setViewportSize(PHONE);
    await screenshotViewport(page, 'app-import-not-export-phone');
    await page.setViewportSize(DESKTOP);

    // Not JSON at all: said before anything is sent.
    const notJson = join(dir, 'notes.json');
    writeFileSync(notJson, 'these are not the menus');
    await dialog.locator('input[type="file"]').setInputFiles(notJson);
    await dialog.getByText('notes.json is not a JSON file').waitFor();
    expect((await callApi<unknown[]>(importer.reply.token, '/api/getAllApps')).data.length).toBe(before);
    await page.context().close();
  });
});
