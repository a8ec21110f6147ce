import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, type LoginReplyBody, registerAccount, storeSession, waitForPath } from './accounts';
import { capture, DESKTOP, describeBrowser, PHONE, launchBrowser, openPage, screenshotTop, waitForAnimations } from './browser';

/**
 * Multi-language apps from the console: French added on Application Settings, a menu translated side by side in the
 * designer and previewed in French, then the emulator: the language menu, 2 for French, the menu in French.
 */
const visible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 10_000 });
const isEmulatorCall = (request: Request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/ussd-emulator/');
const form = (page: Page) => page.getByTestId('menu-edit-form');

/** A language menu (1 English, 2 French; the builder sets each rule's language in the designer) leading to a home menu. */
async function createBankApp(token: string): Promise<string> {
  const app = await callApi<{ appId: string }>(token, '/api/createApp', {
    appName: 'Kofi Bank',
    description: 'Balances',
    country: 'ivory-coast',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*67#',
    useTemplateTag: false,
  });
  if (app.status !== '00' || !app.data) throw new Error(`createApp failed: ${JSON.stringify(app)}`);
  const { appId } = app.data;
  const menu = async (body: Record<string, unknown>) => {
    const reply = await callApi(token, '/api/createMenu', { appId, ...body });
    if (reply.status !== '00') throw new Error(`createMenu failed: ${JSON.stringify(reply)}`);
    return reply.uniqueId as string;
  };
  const home = await menu({
    userDefinedName: 'home',
    headerText: 'Kofi Bank',
    displayText: 'Welcome\n1. Balance\n2. Statement',
    footerText: 'Reply with a number',
    switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Your balance is GHS 20' }],
  });
  await menu({
    userDefinedName: 'language',
    isFirst: true,
    displayText: '1. English\n2. Francais',
    switchOperations: [
      { operator: 'eq', compareVal: '1', action: 'goto', actionParam: home },
      { operator: 'eq', compareVal: '2', action: 'goto', actionParam: home },
    ],
  });
  return appId;
}

describeBrowser('multi-language apps', () => {
  let browser: Browser;
  let owner: { reply: LoginReplyBody };
  let appId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerAccount('Kofi Mensah');
    appId = await createBankApp(owner.reply.token);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('adds French on Application Settings, with a calling code', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app-settings/${appId}`);
    const toggle = page.getByRole('switch', { name: 'Several languages' });
    await visible(toggle);
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await page.getByRole('combobox', { name: 'Other languages' }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add calling code' }).click();
    await page.getByRole('textbox', { name: 'Calling code' }).fill('225');
    await page.getByRole('combobox', { name: 'Language', exact: true }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await page.getByRole('button', { name: "The engine's own words per language" }).click();
    await page.getByRole('textbox', { name: 'More (in 98. More) in French (fr)' }).fill('Plus');
    await page.getByRole('textbox', { name: 'Invalid choice in French (fr)' }).fill('Choix invalide');
    await waitForAnimations(page);
    await screenshotTop(page, 'languages-settings-desktop');
    await page.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'App updated successfully' }));
    const saved = await callApi<{ languages: unknown }>(owner.reply.token, `/api/getAppByAppId/${appId}`);
    expect(saved.data?.languages).toEqual({
      defaultLanguage: 'en',
      otherLanguages: ['fr'],
      labels: { fr: { more: 'Plus', invalidChoice: 'Choix invalide' } },
      prefixLanguages: [{ prefix: '225', language: 'fr' }],
    });
    await waitForPath(page, '/app-list');
    await page.context().close();
  });

  it('translates a menu side by side, previews it in French, and saves the translation', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${appId}`);
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await visible(form(page).getByText('Edit menu home', { exact: true }));
    await form(page).getByTestId('menu-language-switcher').getByText('French (fr)').click();
    const fields = form(page).getByTestId('menu-translation-fields');
    await visible(fields);
    const text = fields.getByRole('textbox', { name: 'Menu text in French' });
    expect(await text.getAttribute('placeholder')).toBe('Welcome\n1. Balance\n2. Statement');
    await text.fill('Bienvenue\n1. Solde\n2. Relevé');
    await fields.getByRole('textbox', { name: 'Footer text in French' }).fill('Répondez par un chiffre');
    await fields.getByRole('textbox', { name: 'Rule 1 closing text in French' }).fill('Votre solde est de 20 GHS');
    // The header is left empty: the preview shows the English one.
    await expect
      .poll(() => form(page).getByTestId('menu-preview-text').textContent())
      .toBe('Kofi Bank\nBienvenue\n1. Solde\n2. Relevé\nRépondez par un chiffre');
    await waitForAnimations(page);
    await screenshotTop(page, 'languages-menu-side-by-side-desktop');
    await page.setViewportSize(PHONE);
    await fields.getByRole('textbox', { name: 'Menu text in French' }).scrollIntoViewIfNeeded();
    await waitForAnimations(page);
    await capture(page, 'languages-menu-side-by-side-phone', { animations: 'disabled' });
    await page.setViewportSize(DESKTOP);

    await form(page).getByTestId('menu-language-switcher').getByText('English (en), default').click();
    await expect
      .poll(() => form(page).getByTestId('menu-preview-text').textContent())
      .toBe('Kofi Bank\nWelcome\n1. Balance\n2. Statement\nReply with a number');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });
    const menus = await callApi<Array<{ userDefinedName: string; translations?: unknown; switchOperations: unknown[] }>>(
      owner.reply.token,
      `/api/getAllMenus/${appId}`,
    );
    const home = menus.data?.find((m) => m.userDefinedName === 'home');
    expect(home?.translations).toEqual({
      fr: {
        displayText: 'Bienvenue\n1. Solde\n2. Relevé',
        footerText: 'Répondez par un chiffre',
        closingTexts: ['Votre solde est de 20 GHS'],
      },
    });

    // The language menu: each rule switches the caller's language.
    await page.getByRole('button', { name: 'Edit language', exact: true }).click();
    await visible(form(page).getByText('Edit menu language', { exact: true }));
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('1. English\n2. Français');
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    await form(page).getByRole('combobox', { name: 'Rule 1 language' }).click();
    await page.getByRole('option', { name: 'Switch to English (en)' }).click();
    await form(page).getByRole('combobox', { name: 'Rule 2 language' }).click();
    await page.getByRole('option', { name: 'Switch to French (fr)' }).click();
    await waitForAnimations(page);
    await screenshotTop(page, 'languages-rules-desktop');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });
    const after = await callApi<Array<{ userDefinedName: string; switchOperations: Array<{ setLanguage?: string }> }>>(
      owner.reply.token,
      `/api/getAllMenus/${appId}`,
    );
    const language = after.data?.find((m) => m.userDefinedName === 'language');
    expect(language?.switchOperations.map((r) => r.setLanguage)).toEqual(['en', 'fr']);
    await page.context().close();
  });

  it('runs in French in the emulator after choosing it', async () => {
    const page = await openPage(browser, DESKTOP);
    await storeSession(page, owner.reply);
    await page.goto(`/app/emulator/${appId}`);
    await expect.poll(() => page.getByTestId('dial-number').textContent()).toBe('*920*67#');
    await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Call', exact: true }).click()]);
    await visible(page.getByTestId('menu-text').getByText('2. Français'));
    await page.getByRole('textbox', { name: 'Reply' }).fill('2');
    await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Send', exact: true }).click()]);
    await visible(page.getByTestId('menu-text').getByText('Bienvenue', { exact: false }));
    await page.getByRole('textbox', { name: 'Reply' }).fill('7');
    await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Send', exact: true }).click()]);
    await visible(page.getByTestId('menu-text').getByText('Choix invalide'));
    expect(await page.getByTestId('menu-text').textContent()).toContain('Répondez par un chiffre');
    await waitForAnimations(page);
    await capture(page, 'languages-emulator-french-desktop', { animations: 'disabled' });
    await page.getByRole('textbox', { name: 'Reply' }).fill('1');
    await Promise.all([page.waitForRequest(isEmulatorCall), page.getByRole('button', { name: 'Send', exact: true }).click()]);
    await visible(page.getByTestId('menu-text').getByText('Votre solde est de 20 GHS'));
    await page.context().close();
  });

  it('lists the languages in a drop-down when there are more than fit as buttons, on a phone too', async () => {
    const current = await callApi<Record<string, unknown>>(owner.reply.token, `/api/getAppByAppId/${appId}`);
    const languages = { defaultLanguage: 'en', otherLanguages: ['fr', 'ha', 'yo'], labels: {}, prefixLanguages: [] };
    expect((await callApi(owner.reply.token, '/api/updateApp', { ...current.data, languages })).status).toBe('00');
    const page = await openPage(browser, PHONE);
    await storeSession(page, owner.reply);
    await page.goto(`/app/design/${appId}`);
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await visible(form(page).getByText('Edit menu home', { exact: true }));
    await form(page).getByRole('combobox', { name: 'Language of the texts' }).click();
    await page.getByRole('option', { name: 'Hausa (ha)' }).click();
    const text = form(page).getByRole('textbox', { name: 'Menu text in Hausa' });
    await visible(text);
    await text.fill("Barka\n1. Ma'auni");
    await expect.poll(() => form(page).getByTestId('menu-preview-text').textContent()).toContain('Barka');
    await form(page).getByRole('combobox', { name: 'Language of the texts' }).scrollIntoViewIfNeeded();
    await waitForAnimations(page);
    await capture(page, 'languages-menu-switcher-phone', { animations: 'disabled' });
    await page.context().close();
  });
});
