import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_MESSAGES } from '../../src/shared/api/bots.schema';
import { DEFAULT_CALLBACK_TEXT, DEFAULT_HANDOFF_TEXT, DEFAULT_WHATSAPP_CONTINUE_TEXT } from '../../src/shared/inbox';
import { OFFICE_HOURS_MESSAGES } from '../../src/shared/office-hours';
import { callApi, type LoginReplyBody, registerBotBuilder, storeSession } from './accounts';
import {
  capture,
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  waitForAnimations,
} from './browser';

/**
 * A bot's own consent words on its Bot Settings tab (docs/contacts.md, "Keywords on WhatsApp"): saved, read back after
 * a reload, and a bad word refused with the API schema's message, changing nothing. Its handoff words on the same tab,
 * and a menu rule set to hand to a person in the designer (docs/inbox.md). A bot of its own (no number).
 */
const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const LAPTOP = { width: 1280, height: 800 };
const form = (page: Page) => page.getByRole('form', { name: 'Consent words' });

async function shot(page: Page, name: string): Promise<void> {
  await closeToasts(page);
  await waitForAnimations(page);
  await capture(page, name, { animations: 'disabled', fullPage: true });
}

describeBrowser("a bot's consent words", () => {
  let browser: Browser;
  let user: LoginReplyBody;
  let token = '';
  let appId = '';
  const storedWords = async () => (await callApi<{ consentKeywords: unknown }>(token, `/api/chatbot/app/${appId}`)).data.consentKeywords;

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerBotBuilder();
    token = user.token;
    appId = (await callApi<{ appId: string }>(token, '/api/chatbot/app/create', { appName: 'Yaa Words', description: 'Consent words' }))
      .data.appId;
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openSettings(viewport = LAPTOP): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, user);
    await page.goto(`/whatsapp-bot/settings/${appId}?tab=settings`);
    return page;
  }

  it('saves words per language, shows them after a reload, and refuses a bad word without changing anything', async () => {
    const page = await openSettings();
    // Loading, then empty: STOP and START only.
    const release = await holdRequests(page, `**/api/chatbot/app/${appId}`);
    await page.reload();
    await visible(page.getByRole('status', { name: 'Loading the bot settings' }));
    await release();
    await visible(form(page).getByTestId('consent-words-empty'));
    await shot(page, 'bot-consent-words-empty-desktop');

    await form(page).getByRole('button', { name: 'Add a language' }).click();
    await form(page).getByLabel('Language 1', { exact: true }).click();
    await page.getByRole('option', { name: 'French (fr)' }).click();
    await form(page).getByLabel('Opt-out words', { exact: true }).fill('arrêt');
    await page.keyboard.press('Enter');
    await form(page).getByLabel('Opt-in words', { exact: true }).fill('reprendre');
    await page.keyboard.press('Enter');
    await form(page).getByRole('textbox', { name: 'Opt-out answer' }).fill('Vous ne recevrez plus de messages de {app}.');
    await form(page).getByRole('button', { name: 'Save consent words' }).click();
    await visible(page.getByText('Consent words saved'));
    const saved = {
      optOutWords: { fr: ['arrêt'] },
      optInWords: { fr: ['reprendre'] },
      optOutReply: { fr: 'Vous ne recevrez plus de messages de {app}.' },
      optInReply: {},
    };
    expect(await storedWords()).toEqual(saved);

    await page.reload();
    await visible(form(page).getByTestId('consent-words-language'));
    expect(await form(page).getByLabel('Language 1', { exact: true }).inputValue()).toBe('French (fr)');
    await visible(form(page).getByText('arrêt', { exact: true }));
    await visible(form(page).getByText('reprendre', { exact: true }));
    expect(await form(page).getByRole('textbox', { name: 'Opt-out answer' }).inputValue()).toBe(
      'Vous ne recevrez plus de messages de {app}.',
    );
    await shot(page, 'bot-consent-words-saved-desktop');

    // A word over 40 characters: the schema's message on the field, nothing sent, nothing changed.
    let updates = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/chatbot/app/update') updates += 1;
    });
    await form(page).getByLabel('Opt-out words', { exact: true }).fill('a'.repeat(41));
    await page.keyboard.press('Enter');
    await form(page).getByRole('button', { name: 'Save consent words' }).click();
    await visible(form(page).getByText('A consent word is at most 40 characters', { exact: true }));
    await shot(page, 'bot-consent-words-error-desktop');
    expect(updates).toBe(0);
    expect(await storedWords()).toEqual(saved);
    await page.close();
  });

  it('at phone width: the words as saved, nothing scrolls sideways; a bot that cannot be read says so', async () => {
    const page = await openSettings(PHONE);
    await visible(form(page).getByText('arrêt', { exact: true }));
    await expectNoSidewaysScroll(page);
    await shot(page, 'bot-consent-words-phone');

    await page.route(`**/api/chatbot/app/${appId}`, (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: BOT_MESSAGES.fetchSettingsFailed } }),
    );
    await page.reload();
    await visible(page.getByTestId('bot-settings-error').getByText(BOT_MESSAGES.fetchSettingsFailed), 20_000);
    await page.close();
  });

  it('handoff words are saved beside the consent words; a rule hands to a person from the designer, and the handoff is kept when the menu is edited', async () => {
    const page = await openSettings();
    const handoff = page.getByRole('form', { name: 'Handoff words' });
    await visible(handoff.getByTestId('handoff-words-empty'));
    await handoff.getByRole('button', { name: 'Add a language' }).click();
    await handoff.getByLabel('Handoff words', { exact: true }).fill('agent');
    await page.keyboard.press('Enter');
    await handoff.getByLabel('Handoff words', { exact: true }).fill('talk to a human');
    await page.keyboard.press('Enter');
    await handoff.getByRole('textbox', { name: 'Handoff answer' }).fill('A person from our team will answer you here.');
    await handoff.getByRole('button', { name: 'Save handoff words' }).click();
    await visible(page.getByText('Handoff words saved'));
    const bot = (await callApi<{ handoffKeywords: unknown; consentKeywords: unknown }>(token, `/api/chatbot/app/${appId}`)).data;
    expect(bot.handoffKeywords).toEqual({
      words: { en: ['agent', 'talk to a human'] },
      reply: { en: 'A person from our team will answer you here.' },
    });
    // The consent words saved before are untouched.
    expect(bot.consentKeywords).toMatchObject({ optOutWords: { fr: ['arrêt'] } });
    await page.reload();
    await visible(handoff.getByText('talk to a human', { exact: true }));
    await shot(page, 'bot-handoff-words-desktop');

    // The designer: a Terminate rule of the bot's menu hands to a person, with the reason agents see.
    const done = await callApi<{ uniqueId: string }>(token, '/api/createMenu', {
      appId,
      userDefinedName: 'done',
      displayText: 'Thanks',
      terminate: true,
    });
    expect(done.status).toBe('00');
    await callApi(token, '/api/createMenu', {
      appId,
      userDefinedName: 'home',
      displayText: 'Welcome\n1. Orders\n2. A person',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '' }],
    });
    await page.goto(`/whatsapp-bot/design/${appId}`);
    const menuForm = page.getByTestId('menu-edit-form');
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await menuForm.getByRole('tab', { name: /^Navigation/ }).click();
    await menuForm.getByRole('checkbox', { name: 'Rule 1 hands to a person' }).check();
    await menuForm.getByRole('textbox', { name: 'Rule 1 handoff reason' }).fill('asked for a person');
    expect(await menuForm.getByRole('textbox', { name: 'Rule 1 closing text' }).getAttribute('placeholder')).toBe(DEFAULT_HANDOFF_TEXT);
    await shot(page, 'designer-rule-handoff-desktop');
    await menuForm.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(page.getByText(/Menu (saved|updated)/).first());
    const homeRule = async () => {
      const menus = (await callApi<Array<{ userDefinedName: string; switchOperations: unknown[] }>>(token, `/api/getAllMenus/${appId}`))
        .data;
      return menus.find((menu) => menu.userDefinedName === 'home')?.switchOperations[0];
    };
    expect(await homeRule()).toMatchObject({ action: 'Terminate', handoff: { reason: 'asked for a person' } });

    // Edited again for something else: the handoff stays.
    await page.reload();
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await menuForm.getByRole('textbox', { name: 'Menu text' }).fill('Welcome!\n1. Orders\n2. A person');
    await menuForm.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await homeRule()) as unknown, { timeout: 10_000 })
      .toMatchObject({ handoff: { reason: 'asked for a person' } });
    await page.close();
  });

  it("a USSD app's handoff may continue on WhatsApp with one of the account's bots, saved and shown again", async () => {
    const app = await callApi<{ appId: string }>(token, '/api/createApp', {
      appName: 'Yaa Loans',
      description: 'Loans',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*67#',
      useTemplateTag: false,
    });
    expect(app.status, JSON.stringify(app)).toBe('00');
    const ussdAppId = app.data.appId;
    await callApi(token, '/api/createMenu', {
      appId: ussdAppId,
      userDefinedName: 'home',
      displayText: 'Loans\n1. Apply\n2. Chat with us',
      isFirst: true,
      switchOperations: [{ operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '' }],
    });
    const page = await openPage(browser, LAPTOP);
    await storeSession(page, user);
    await page.goto(`/app/design/${ussdAppId}`);
    const menuForm = page.getByTestId('menu-edit-form');
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await menuForm.getByRole('tab', { name: /^Navigation/ }).click();
    await menuForm.getByRole('checkbox', { name: 'Rule 1 hands to a person' }).check();
    const where = menuForm.getByLabel('Rule 1 where a person answers', { exact: true });
    expect(await where.inputValue()).toBe('Call the caller back');
    expect(await menuForm.getByRole('textbox', { name: 'Rule 1 closing text' }).getAttribute('placeholder')).toBe(DEFAULT_CALLBACK_TEXT);
    await where.click();
    await page.getByRole('option', { name: 'Continue on WhatsApp with Yaa Words' }).click();
    expect(await menuForm.getByRole('textbox', { name: 'Rule 1 closing text' }).getAttribute('placeholder')).toBe(
      DEFAULT_WHATSAPP_CONTINUE_TEXT,
    );
    await shot(page, 'designer-rule-continue-on-whatsapp-desktop');
    await menuForm.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(page.getByText(/Menu (saved|updated)/).first());
    const menus = (await callApi<Array<{ userDefinedName: string; switchOperations: unknown[] }>>(token, `/api/getAllMenus/${ussdAppId}`))
      .data;
    expect(menus.find((menu) => menu.userDefinedName === 'home')?.switchOperations[0]).toMatchObject({
      handoff: { reason: '', whatsappBotId: appId },
    });
    await page.reload();
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await menuForm.getByRole('tab', { name: /^Navigation/ }).click();
    await visible(menuForm.getByLabel('Rule 1 where a person answers', { exact: true }));
    expect(await menuForm.getByLabel('Rule 1 where a person answers', { exact: true }).inputValue()).toBe(
      'Continue on WhatsApp with Yaa Words',
    );
    await page.close();
  });

  it('office hours: on, Monday to Friday by default; a closing before the opening is refused on the field; saved and read back', async () => {
    const page = await openSettings();
    const hours = page.getByRole('form', { name: 'Office hours' });
    await visible(hours.getByTestId('office-hours-off'));
    await hours.getByRole('switch', { name: 'Set office hours' }).click();
    await hours.getByRole('combobox', { name: 'Time zone' }).click();
    await page.getByRole('option', { name: 'Africa/Lagos', exact: true }).click();
    expect(await hours.getByTestId('office-hours-summary').textContent()).toBe('Open Mon-Fri 08:00-17:00 (Africa/Lagos)');
    await hours.getByLabel('Friday closes').fill('07:00');
    await hours.getByRole('button', { name: 'Update office hours' }).click();
    await visible(hours.getByText(OFFICE_HOURS_MESSAGES.order));
    expect((await callApi<{ officeHours: unknown }>(token, `/api/chatbot/app/${appId}`)).data.officeHours).toBeNull();
    await hours.getByLabel('Friday closes').fill('13:00');
    await hours.getByRole('button', { name: 'Add an answer' }).click();
    await hours.getByRole('textbox', { name: 'Answer 1', exact: true }).fill('We are closed now. Open {hours}.');
    await shot(page, 'bot-office-hours-desktop');
    await hours.getByRole('button', { name: 'Update office hours' }).click();
    await visible(page.getByText('Office hours saved'));
    const weekday = { from: '08:00', to: '17:00' };
    expect((await callApi<{ officeHours: unknown }>(token, `/api/chatbot/app/${appId}`)).data.officeHours).toEqual({
      timeZone: 'Africa/Lagos',
      days: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: { from: '08:00', to: '13:00' } },
      closedReply: { en: 'We are closed now. Open {hours}.' },
    });
    await page.reload();
    await visible(page.getByRole('form', { name: 'Office hours' }).getByTestId('office-hours-summary'));
    expect(await hours.getByTestId('office-hours-summary').textContent()).toBe('Open Mon-Thu 08:00-17:00, Fri 08:00-13:00 (Africa/Lagos)');
    await page.close();
    // At phone width, as saved: the days wrap under their names, nothing scrolls sideways.
    const phone = await openSettings(PHONE);
    await visible(phone.getByRole('form', { name: 'Office hours' }).getByTestId('office-hours-summary'));
    await expectNoSidewaysScroll(phone);
    await shot(phone, 'bot-office-hours-phone');
    await phone.close();
  });
});
