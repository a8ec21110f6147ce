import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, loginByApi, storeSession } from './accounts';
import {
  baseUrl,
  describeBrowser,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotViewport,
} from './browser';
import { E2E_USERS, FIRST_MESSAGE_USER } from './fixtures';

/**
 * Writing first (docs/bots.md): a chatbot user makes a template on the Templates tab of a simulator number (it has
 * no others), opts the contact in on the Contacts screen, and starts a conversation from the console. The contact
 * never wrote, so the dialog says a template is needed and sends that template with the contact's name; it arrives
 * on the simulated phone page; the customer taps its button and lands
 * on the entry menu; the dialog then says the window is open and sends the entry menu as it is. Last the customer
 * sends STOP from the phone, and the next start is refused with the opt-out. The contact's page then shows, on one
 * timeline, a USSD session (a gateway hop on another app of the account), the WhatsApp session the tap started and
 * the template sent first with its read ticks. At 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const CUSTOMER = FIRST_MESSAGE_USER.contact.slice(1);

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const toast = (page: Page, text: string | RegExp) => visible(page.locator('.mantine-Notification-root').filter({ hasText: text }).first());
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Start a conversation' });

describeBrowser('writing first from the console', () => {
  let browser: Browser;
  let token = '';
  let appId = '';
  let linkId = '';
  let secret = '';
  let orderMenu = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const admin = await loginByApi(E2E_USERS.superAdmin);
    const plan = { email: FIRST_MESSAGE_USER.email, plan: 'ENTERPRISE', reason: 'browser tests build freely' };
    expect((await callApi(admin.token, '/api/subscription/activate', plan)).status).toBe('00');
    token = (await loginByApi(FIRST_MESSAGE_USER)).token;
    appId = (await callApi<{ appId: string }>(token, '/api/chatbot/app/create', { appName: 'Akwaaba Shop', description: 'writes first' }))
      .data.appId;
    const order = await callApi(token, '/api/createMenu', {
      appId,
      userDefinedName: 'order',
      displayText: 'How many bags of rice?',
      terminate: true,
    });
    orderMenu = order.uniqueId!;
    await callApi(token, '/api/createMenu', {
      appId,
      userDefinedName: 'home',
      displayText: 'Welcome to Akwaaba Shop',
      isFirst: true,
      terminate: true,
    });
    expect((await callApi(token, `/api/deployChanges/${appId}`)).status).toBe('00');
    linkId = ((await callApi(token, '/api/chatbot/whatsapp/link', { chatBotAppId: appId })) as unknown as { linkId: string }).linkId;
    const status = (await callApi(token, `/api/chatbot/whatsapp/link-status/${linkId}`)) as unknown as { qrCode: string };
    secret = new URL(status.qrCode).searchParams.get('secret')!;
    expect((await callApi(token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000055' })).status).toBe('00');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openSettings(viewport = WIDE): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, await loginByApi(FIRST_MESSAGE_USER));
    await page.goto(`/whatsapp-bot/settings/${appId}`);
    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await visible(dialog(page));
    return page;
  }

  const transcript = async () =>
    (
      await callApi<{ transcript: Array<{ direction: string; message: { type: string; body?: string; text?: string } }> }>(
        token,
        `/api/whatsapp-simulator/${linkId}/messages?secret=${encodeURIComponent(secret)}&from=${CUSTOMER}`,
      )
    ).data.transcript;

  it('a template made on the Templates tab, the contact opted in on the Contacts screen, sent first and tapped on the phone', async () => {
    const page = await openPage(browser, WIDE);
    await storeSession(page, await loginByApi(FIRST_MESSAGE_USER));
    await page.goto(`/whatsapp-bot/settings/${appId}?tab=templates`);
    // A simulator number has only the templates the account made.
    await visible(page.getByTestId('templates-empty').getByText('No templates yet'));
    await page.getByTestId('templates-empty').getByRole('button', { name: 'New Template' }).click();
    const form = page.getByRole('dialog', { name: 'New Template' });
    await visible(form);
    await form.getByRole('textbox', { name: 'Name' }).fill('welcome_back');
    await form.getByRole('textbox', { name: 'Body' }).fill('Hello {{1}}, we have news for you. Tap Start to see our menu.');
    await form.getByRole('button', { name: 'Add button' }).click();
    await form.getByRole('textbox', { name: 'Button 1' }).fill('Start');
    await form.getByRole('textbox', { name: '{{1}} in the body' }).fill('Ama');
    await form.getByRole('button', { name: 'Save template' }).click();
    await toast(page, 'Template saved');

    // The contact never opted in: the Contacts screen opts them in on WhatsApp.
    await page.goto(`/contacts?search=${encodeURIComponent(FIRST_MESSAGE_USER.contact)}`);
    await page.getByRole('link', { name: FIRST_MESSAGE_USER.contact }).click();
    const whatsapp = page.locator('[data-consent="whatsapp"]');
    await visible(whatsapp);
    expect(await whatsapp.textContent()).not.toContain('Opted in');
    await whatsapp.getByText('Opt in').click();
    await expect.poll(() => whatsapp.textContent()).toContain('Opted in');

    await page.goto(`/whatsapp-bot/settings/${appId}`);
    await page.getByRole('button', { name: 'Start a conversation' }).click();
    await visible(dialog(page));
    await dialog(page).getByRole('textbox', { name: 'Phone number' }).fill(FIRST_MESSAGE_USER.contact);
    await visible(dialog(page).getByText(`${FIRST_MESSAGE_USER.contact} has never written to this number: choose an approved template.`));
    expect(await dialog(page).getByRole('button', { name: 'Send template' }).isDisabled()).toBe(true);
    await dialog(page).getByRole('combobox', { name: 'Entry menu' }).click();
    await page.getByRole('option', { name: 'order' }).click();
    await dialog(page).getByRole('combobox', { name: 'Template' }).click();
    await page.getByRole('option', { name: 'welcome_back (en_US)' }).click();
    await visible(
      dialog(page)
        .getByTestId('template-text')
        .getByText(/Hello \{\{1\}\}, we have news for you/),
    );
    expect(await dialog(page).getByRole('textbox', { name: '{{1}} in the body' }).inputValue()).toBe('{{contact.name}}');
    await screenshotViewport(page, 'first-message-template-desktop');
    await dialog(page).getByRole('button', { name: 'Send template' }).click();
    await toast(page, 'Template sent: the reply starts the flow at the entry menu');
    await page.close();

    // The simulated phone page: the template arrives with its button (the page's receipts mark it delivered and read).
    const phone = await openPage(browser, PHONE);
    await phone.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await phone.getByRole('textbox', { name: 'Customer number' }).fill(CUSTOMER);
    const arrived = phone.locator('[data-testid="chat-message"][data-direction="out"]').last();
    await visible(arrived.getByText('Hello Akosua, we have news for you. Tap Start to see our menu.'), 15_000);
    await screenshotViewport(phone, 'first-message-phone-arrived');
    // The customer taps Start: the flow starts at the entry menu.
    await arrived.getByRole('button', { name: 'Start' }).click();
    await visible(phone.getByText('How many bags of rice?'), 15_000);
    expect(orderMenu).not.toBe('');
    await screenshotViewport(phone, 'first-message-phone-tapped');
    await phone.close();
  });

  it('inside the window: the dialog says so and sends the entry menu as it is', async () => {
    // The tap's window is written with the session's records, a moment after its reply.
    const url = `/api/bots/${appId}/conversations/window?msisdn=${encodeURIComponent(FIRST_MESSAGE_USER.contact)}`;
    await expect
      .poll(async () => (await callApi<{ window: { state: string } }>(token, url)).data.window.state, { timeout: 10_000 })
      .toBe('open');
    const page = await openSettings();
    await dialog(page).getByRole('textbox', { name: 'Phone number' }).fill(FIRST_MESSAGE_USER.contact);
    await visible(
      dialog(page).getByText(/^The window with \+233240000077 is open until .* UTC: the entry menu is sent as it is\.$/),
      15_000,
    );
    await screenshotViewport(page, 'first-message-open-desktop');
    await dialog(page).getByRole('button', { name: 'Send entry menu' }).click();
    await toast(page, 'Conversation started: the entry menu was sent');
    expect((await transcript()).at(-1)?.message).toEqual({ type: 'text', text: 'Welcome to Akwaaba Shop' });
    await page.close();
  });

  it('a number that is no phone number says why, at a phone’s width', async () => {
    const page = await openSettings(PHONE);
    await dialog(page).getByRole('textbox', { name: 'Phone number' }).fill('0240000077');
    await visible(dialog(page).getByText('"0240000077" is not a phone number: write it with its country code (+233241234567).'));
    await expectNoSidewaysScroll(page);
    await screenshotViewport(page, 'first-message-error-phone');
    await dialog(page).getByRole('textbox', { name: 'Phone number' }).fill(FIRST_MESSAGE_USER.contact);
    await visible(dialog(page).getByText(/^The window with \+233240000077 is open until/), 15_000);
    await screenshotViewport(page, 'first-message-open-phone');
    await page.close();
  });

  it("the contact's timeline: a USSD session, the WhatsApp session, and the template sent first with read ticks", async () => {
    // A USSD app of the same account, dialled through a gateway's test URL from the contact's number.
    const created = await callApi<{ appId: string }>(token, '/api/createApp', {
      appName: 'Akwaaba Rice USSD',
      description: 'the same shop on USSD',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*78#',
      shortCode: '',
      baseShortCode: '',
      useTemplateTag: false,
    });
    expect(created.status).toBe('00');
    const ussdAppId = created.data.appId;
    const menu = await callApi(token, '/api/createMenu', {
      appId: ussdAppId,
      userDefinedName: 'hello',
      displayText: 'Akwaaba! Rice is in stock.',
      isFirst: true,
      terminate: true,
    });
    expect(menu.status).toBe('00');
    const hop = await fetch(`${baseUrl()}/ussd/${ussdAppId}/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sessionId: 'timeline-ussd-1',
        serviceCode: '*920*78#',
        phoneNumber: FIRST_MESSAGE_USER.contact,
        networkCode: '62001',
        text: '',
      }).toString(),
    });
    expect(await hop.text()).toBe('END Akwaaba! Rice is in stock.');

    const page = await openPage(browser, WIDE);
    await storeSession(page, await loginByApi(FIRST_MESSAGE_USER));
    const found = await callApi<{ contacts: Array<{ contactId: string }> }>(
      token,
      `/api/contacts?search=${encodeURIComponent(FIRST_MESSAGE_USER.contact)}`,
    );
    await page.goto(`/contacts/${found.data.contacts[0]!.contactId}`);
    const timeline = page.getByTestId('contact-timeline');
    const ussd = timeline.locator('[data-channel="ussd"]').filter({ hasText: 'Akwaaba Rice USSD' });
    const whatsapp = timeline.locator('[data-channel="whatsapp"]').filter({ hasText: 'Akwaaba Shop' });
    // The sessions' records are written by the event sink, a moment after their last hop: reload until both show.
    await expect
      .poll(
        async () => {
          await page.reload();
          await visible(timeline);
          return [await ussd.count(), (await whatsapp.count()) > 0];
        },
        { timeout: 20_000 },
      )
      .toEqual([1, true]);
    const template = timeline.locator('[data-testid="contact-first-message"][data-kind="template"]');
    await visible(template);
    expect(await template.textContent()).toContain('Template welcome_back (en_US) from +233200000055');
    // The simulated phone page sent its receipts: the template is read, drawn with the chat's ticks.
    await visible(template.locator('[data-testid="chat-ticks"][data-status="read"]'));
    expect(await template.getByRole('img', { name: 'Read' }).count()).toBe(1);
    // The entry menu sent inside the window is there too, without ticks.
    await visible(timeline.locator('[data-testid="contact-first-message"][data-kind="menu"]').first());
    await template.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'first-message-contact-timeline-desktop');
    await screenshot(page, 'first-message-contact-page-desktop');
    await page.setViewportSize(PHONE);
    await template.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'first-message-contact-timeline-phone');
    await expectNoSidewaysScroll(page);
    await page.close();
  });

  it('STOP from the phone: the next start is refused with the opt-out', async () => {
    const phone = await openPage(browser, PHONE);
    await phone.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await phone.getByRole('textbox', { name: 'Customer number' }).fill(CUSTOMER);
    await phone.getByRole('textbox', { name: 'Message', exact: true }).fill('STOP');
    await phone.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(async () => (await transcript()).at(-1)?.direction, { timeout: 15_000 }).toBe('out');
    await screenshotViewport(phone, 'first-message-phone-stop');
    await phone.close();

    const page = await openSettings();
    await dialog(page).getByRole('textbox', { name: 'Phone number' }).fill(FIRST_MESSAGE_USER.contact);
    await visible(dialog(page).getByText(/^The window with \+233240000077 is open until/), 15_000);
    await dialog(page).getByRole('button', { name: 'Send entry menu' }).click();
    await toast(page, `${FIRST_MESSAGE_USER.contact} opted out of WhatsApp on`);
    await screenshotViewport(page, 'first-message-opted-out-desktop');
    await page.close();
  });
});
