import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MENU_MEDIA_MESSAGES } from '../../src/shared/app';
import { callApi, createWhatsAppBot, type LoginReplyBody, registerBotBuilder, storeSession } from './accounts';
import { closeToasts, DESKTOP, describeBrowser, launchBrowser, openPage, PHONE, screenshot, waitForAnimations } from './browser';

/**
 * A bot menu's Media tab (docs/bots.md, "Media"): the input kind and a file sent by URL saved and loaded again, and a
 * USSD app's menu form without the tab. One bot of its own on the seeded chatbot account.
 */

interface MenuRow {
  userDefinedName: string;
  inputKind?: string;
  mediaInput?: { maxBytes: number | null };
  attachments?: unknown[];
}

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const form = (page: Page) => page.getByTestId('menu-edit-form');

async function shot(page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await waitForAnimations(page);
  await screenshot(page, name);
}

describeBrowser('menu designer: a bot menu media', () => {
  let browser: Browser;
  let user: LoginReplyBody;
  let appId = '';
  const botName = `Receipts ${Date.now()}`;
  const menus = async () => (await callApi<MenuRow[]>(user.token, `/api/getAllMenus/${appId}`)).data;

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerBotBuilder();
    appId = await createWhatsAppBot(user.token, botName, 'Claims with a photo');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openDesigner(viewport = DESKTOP): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, user);
    await page.goto(`/whatsapp-bot/design/${appId}`);
    await visible(page.getByRole('heading', { name: botName, level: 1 }));
    return page;
  }

  it('saves an input kind with its size and a file sent by URL, refusing a plain http address with its message', async () => {
    const page = await openDesigner({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Add the first menu' }).click();
    await visible(form(page));
    await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill('photo');
    await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Send a photo of your receipt');
    await form(page)
      .getByRole('tab', { name: /^Media/ })
      .click();
    await form(page).getByRole('combobox', { name: 'Input kind' }).click();
    await page.getByRole('option', { name: 'Photo', exact: true }).click();
    await form(page).getByRole('textbox', { name: 'Max size (MB)' }).fill('2');
    await form(page).getByRole('button', { name: 'Add file' }).click();
    await form(page).getByText('URL', { exact: true }).click();
    const url = form(page).getByRole('textbox', { name: 'Attachment 1 URL' });
    await url.fill('http://cdn.example.com/how-to.png');
    await form(page).getByRole('textbox', { name: 'Attachment 1 caption' }).fill('Like this');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await visible(form(page).getByText(MENU_MEDIA_MESSAGES.urlInvalid, { exact: true }));
    await shot(page, 'designer-media-error-desktop');
    await url.fill('https://cdn.example.com/how-to.png');
    await form(page).getByRole('button', { name: 'Save', exact: true }).click();
    await form(page).waitFor({ state: 'hidden', timeout: 10_000 });

    const [photo] = await menus();
    expect(photo).toMatchObject({
      userDefinedName: 'photo',
      inputKind: 'image',
      mediaInput: { maxBytes: 2 * 1024 * 1024 },
      attachments: [{ type: 'file', kind: 'image', source: 'url', value: 'https://cdn.example.com/how-to.png', caption: 'Like this' }],
    });
    await page.context().close();
  });

  it('at phone width: the media load as saved', async () => {
    const page = await openDesigner(PHONE);
    await page.getByRole('button', { name: 'Edit photo', exact: true }).click();
    await visible(form(page));
    await form(page)
      .getByRole('tab', { name: /^Media/ })
      .click();
    expect(await form(page).getByRole('combobox', { name: 'Input kind' }).inputValue()).toBe('Photo');
    expect(await form(page).getByRole('textbox', { name: 'Max size (MB)' }).inputValue()).toBe('2');
    expect(await form(page).getByRole('textbox', { name: 'Attachment 1 URL' }).inputValue()).toBe('https://cdn.example.com/how-to.png');
    expect(await form(page).getByRole('textbox', { name: 'Attachment 1 caption' }).inputValue()).toBe('Like this');
    await shot(page, 'designer-media-phone');
    await page.context().close();
  });
});
