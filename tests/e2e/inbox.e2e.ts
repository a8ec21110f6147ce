import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, createWhatsAppBot, type LoginReplyBody, registerBotBuilder, storeSession } from './accounts';
import { findViolations } from './axe';
import { INBOX_MESSAGES } from '../../src/shared/api/inbox.schema';
import { DEFAULT_CALLBACK_TEXT } from '../../src/shared/inbox';
import { makePng } from '../support/media-files';
import {
  baseUrl,
  closeToasts,
  describeBrowser,
  expectNoSidewaysScroll,
  holdRequests,
  launchBrowser,
  openPage,
  PHONE,
  screenshot,
  screenshotViewport,
} from './browser';

/**
 * The inbox (docs/inbox.md), issue 31's journey with two browser contexts: a customer on the simulated phone of a
 * bot's linked number asks for a person (a rule's handoff); the agent's inbox, open before, shows the conversation
 * without a reload, with the unread count in the sidebar and the tab's title; the agent assigns it to themself,
 * reads the customer's next message as it arrives, replies and adds a private note; the customer's phone shows the
 * reply and not the note; the agent closes (confirmed), and the customer's next message reaches the bot again.
 * Then the owner adds an agent on the Agents screen, who signs in, sees the Inbox only, takes a conversation and
 * replies under their own name. Last (after the dashboard's figures, which count the conversations above) the owner
 * writes a saved reply, an agent puts it into the box and sends it, and a closed window's reply is an approved
 * template. At 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const HANDOFF_TEXT = 'Thank you. A person will reply to you here shortly.';
/** A number of this file's own for the customer (each bot has its own conversations, but a readable one helps). */
const CUSTOMER = `23355${String(Date.now()).slice(-7)}`;
const CUSTOMER_E164 = `+${CUSTOMER}`;

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

describeBrowser('the inbox', () => {
  let browser: Browser;
  let agent: LoginReplyBody;
  let appId = '';
  let linkId = '';
  let secret = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    agent = await registerBotBuilder('Ama Owusu');
    appId = await createWhatsAppBot(agent.token, 'Owusu Shop', 'hands customers to a person');
    const menu = async (body: Record<string, unknown>) => {
      const reply = await callApi(agent.token, '/api/createMenu', { appId, ...body });
      expect(reply.status, JSON.stringify(reply)).toBe('00');
      return reply.uniqueId!;
    };
    const done = await menu({ userDefinedName: 'done', displayText: 'Thanks, we will deliver it.', terminate: true });
    const order = await menu({
      userDefinedName: 'order',
      displayText: 'Your order number?',
      switchOperations: [{ operator: 'always', action: 'goto', actionParam: done }],
    });
    await menu({
      userDefinedName: 'home',
      displayText: 'Welcome to Owusu Shop\n1. Orders\n2. A person',
      isFirst: true,
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'goto', actionParam: order },
        { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '', handoff: { reason: 'asked for a person' } },
      ],
    });
    expect((await callApi(agent.token, `/api/deployChanges/${appId}`)).status).toBe('00');
    linkId = ((await callApi(agent.token, '/api/chatbot/whatsapp/link', { chatBotAppId: appId })) as unknown as { linkId: string }).linkId;
    const status = (await callApi(agent.token, `/api/chatbot/whatsapp/link-status/${linkId}`)) as unknown as { qrCode: string };
    secret = new URL(status.qrCode).searchParams.get('secret')!;
    const scanned = await callApi(agent.token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000031' });
    expect(scanned.status, JSON.stringify(scanned)).toBe('00');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openAgent(viewport: { width: number; height: number }, path = '/inbox'): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, agent);
    await page.goto(path);
    return page;
  }

  async function openPhone(): Promise<Page> {
    const phone = await openPage(browser, PHONE);
    await phone.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await phone.getByRole('textbox', { name: 'Customer number' }).fill(CUSTOMER);
    return phone;
  }

  async function customerSends(phone: Page, text: string) {
    await phone.getByRole('textbox', { name: 'Message' }).fill(text);
    await phone.getByRole('button', { name: 'Send' }).click();
  }

  /** Chooses a file with the composer's paperclip. */
  async function choose(page: Page, name: string, mimeType: string, buffer: Buffer) {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a file' }).click();
    await (await chooser).setFiles({ name, mimeType, buffer });
  }

  /** Chooses a small PNG with the composer's paperclip; answers once it is uploaded (the chip shows its size). */
  async function attach(page: Page, name: string) {
    await choose(page, name, 'image/png', makePng(40, 24, { noise: true }));
    const chip = page.getByTestId('inbox-attachment-chip');
    await visible(chip.getByText(name));
    await visible(chip.getByText(/^\d+ KB$/));
  }

  /** The bot's (or agent's) messages the phone shows, newest last. */
  const phoneReceived = (phone: Page) => phone.locator('[data-testid="chat-message"][data-direction="out"]');

  it('hands a customer to the agent live, and back to the bot once closed', async () => {
    const inbox = await openAgent(WIDE);
    await visible(
      inbox.getByTestId('inbox-empty').getByText('No conversations yet: when a bot hands a customer to a person, they appear here.'),
    );
    await visible(inbox.getByTestId('inbox-live').getByText('Live'));
    await expect.poll(() => inbox.title()).toBe('Inbox · Dialflow');
    await screenshotViewport(inbox, 'inbox-empty-desktop');
    // A mark on the page: still there at the end, so nothing reloaded it.
    await inbox.evaluate(() => {
      (window as unknown as { inboxMark: string }).inboxMark = 'not reloaded';
    });

    // The customer asks for a person on the simulated phone.
    const phone = await openPhone();
    await customerSends(phone, 'hi');
    await visible(phone.getByText('Welcome to Owusu Shop'), 15_000);
    await customerSends(phone, '2');
    await visible(phoneReceived(phone).getByText(HANDOFF_TEXT), 15_000);

    // The agent's inbox shows it without a reload: the row, the unread count in the sidebar and the title.
    const row = inbox.getByTestId('inbox-row').filter({ hasText: CUSTOMER_E164 });
    await visible(row, 15_000);
    await visible(row.getByText('asked for a person'));
    await visible(row.getByText('Owusu Shop · Unassigned'));
    await visible(inbox.getByTestId('sidebar-inbox-unread'));
    await expect.poll(() => inbox.title()).toMatch(/^\(\d+\) Inbox · Dialflow$/);

    await row.click();
    const conversation = inbox.getByTestId('inbox-conversation');
    await visible(conversation);
    await visible(conversation.getByTestId('inbox-reason').getByText('Reason: asked for a person'));
    // The session's answers at the handoff, and the contact's page (the customer became a contact by writing).
    await visible(conversation.getByTestId('inbox-answers').getByText('A person'));
    expect(await conversation.getByRole('link', { name: "Open the contact's page" }).getAttribute('href')).toMatch(
      /^\/contacts\/[0-9a-f-]{36}$/,
    );
    const thread = conversation.getByTestId('inbox-thread');
    await visible(thread.locator('[data-author="bot"]').getByText(HANDOFF_TEXT));
    await visible(thread.locator('[data-author="customer"]').getByText('2', { exact: true }));
    // Read: the counts go.
    await inbox.getByTestId('sidebar-inbox-unread').waitFor({ state: 'detached' });
    await expect.poll(() => inbox.title()).toBe('Inbox · Dialflow');

    await conversation.getByRole('button', { name: 'Assign to me' }).click();
    await visible(conversation.getByTestId('inbox-assignee').getByText('Assigned to you'));
    await visible(row.getByText('Owusu Shop · Assigned to you'));

    // The customer writes again: it reaches the agent, live, and not the bot.
    await customerSends(phone, 'Where is my order 42?');
    await visible(thread.locator('[data-author="customer"]').getByText('Where is my order 42?'), 15_000);
    expect(await phoneReceived(phone).count()).toBe(2);

    await conversation.getByRole('textbox', { name: 'Your reply' }).fill('Hello, this is Ama. Order 42 ships today.');
    await conversation.getByRole('button', { name: 'Send reply' }).click();
    await visible(thread.locator('[data-author="agent"]').getByText('Hello, this is Ama. Order 42 ships today.'));
    // A photo with a caption: chosen with the paperclip, uploaded at once (a chip), sent with the reply.
    await attach(inbox, 'van-3.png');
    await screenshotViewport(inbox, 'inbox-attachment-desktop');
    await conversation.getByRole('textbox', { name: 'Your reply' }).fill('Your parcel on van 3');
    await conversation.getByRole('button', { name: 'Send reply' }).click();
    const photo = thread.locator('[data-author="agent"]').filter({ hasText: 'Your parcel on van 3' }).getByTestId('chat-image');
    await visible(photo, 15_000);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await conversation.getByTestId('inbox-attachment-chip').waitFor({ state: 'detached' });
    await conversation.getByText('Private note').click();
    await conversation.getByRole('textbox', { name: 'Private note (the customer never sees it)' }).fill('Checked the warehouse: van 3.');
    await conversation.getByRole('button', { name: 'Add note' }).click();
    await visible(thread.locator('[data-author="note"]').getByText('Checked the warehouse: van 3.'));
    await screenshotViewport(inbox, 'inbox-conversation-desktop');
    await screenshot(inbox, 'inbox-conversation-desktop-full');
    expect(await findViolations(inbox)).toEqual([]);

    // The customer's phone shows the reply (read back from the simulator), never the note.
    await phone.reload();
    await phone.getByRole('textbox', { name: 'Customer number' }).fill(CUSTOMER);
    await visible(phoneReceived(phone).getByText('Hello, this is Ama. Order 42 ships today.'), 15_000);
    await visible(phoneReceived(phone).filter({ hasText: 'Your parcel on van 3' }).locator('img'));
    expect(await phone.getByText('Checked the warehouse').count()).toBe(0);
    await screenshotViewport(phone, 'inbox-customer-phone');

    // The same conversation on a phone: the list, then the conversation in its place.
    const small = await openAgent(PHONE);
    await visible(small.getByTestId('inbox-row').filter({ hasText: CUSTOMER_E164 }));
    await expectNoSidewaysScroll(small);
    await screenshotViewport(small, 'inbox-list-phone');
    await small.getByTestId('inbox-row').filter({ hasText: CUSTOMER_E164 }).click();
    await visible(small.getByTestId('inbox-thread').getByText('Checked the warehouse: van 3.'));
    expect(await small.getByTestId('inbox-list').isVisible()).toBe(false);
    await expectNoSidewaysScroll(small);
    await screenshotViewport(small, 'inbox-conversation-phone');
    expect(await findViolations(small)).toEqual([]);
    // A file chosen on a phone, then removed: the chip fits the width.
    await attach(small, 'a-photo-with-a-rather-long-name-from-the-phone-camera.png');
    await expectNoSidewaysScroll(small);
    await screenshotViewport(small, 'inbox-attachment-phone');
    await small.getByRole('button', { name: 'Remove a-photo-with-a-rather-long-name-from-the-phone-camera.png' }).click();
    await small.getByTestId('inbox-attachment-chip').waitFor({ state: 'detached' });
    // Busy while it uploads, then the server's refusal in words (WhatsApp takes no GIF).
    const release = await holdRequests(small, '**/api/media?*');
    await choose(small, 'dancing.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));
    await visible(small.getByTestId('inbox-attachment-chip').getByText('Uploading…'));
    await screenshotViewport(small, 'inbox-attachment-uploading-phone');
    await release();
    await visible(small.getByTestId('inbox-attachment-error').getByText(/Files of type image\/gif are not accepted/));
    await screenshotViewport(small, 'inbox-attachment-error-phone');
    await small.getByRole('button', { name: 'Remove dancing.gif' }).click();
    await small.getByRole('button', { name: 'All conversations' }).click();
    await visible(small.getByTestId('inbox-list'));
    await small.close();

    // Close, confirmed: the customer is handed back to the bot.
    await conversation.getByRole('button', { name: 'Close', exact: true }).click();
    const confirm = inbox.getByRole('dialog', { name: 'Close this conversation?' });
    await visible(confirm);
    await confirm.getByRole('button', { name: 'Close conversation' }).click();
    await visible(conversation.getByTestId('inbox-status').getByText('Closed'));
    await visible(conversation.getByTestId('inbox-reply-blocked').getByText(/This conversation is closed/));
    expect(await conversation.getByRole('radio', { name: 'Reply to the customer' }).isDisabled()).toBe(true);
    // It left the Open tab and is on the Closed one.
    await row.waitFor({ state: 'detached' });
    await inbox.getByText('Closed', { exact: true }).first().click();
    await visible(inbox.getByTestId('inbox-row').filter({ hasText: CUSTOMER_E164 }));
    await screenshotViewport(inbox, 'inbox-closed-desktop');

    // The next message reaches the bot again.
    await customerSends(phone, 'hi');
    await visible(phoneReceived(phone).last().getByText('Welcome to Owusu Shop'), 15_000);
    expect(await inbox.evaluate(() => (window as unknown as { inboxMark?: string }).inboxMark)).toBe('not reloaded');
    await phone.close();
    await inbox.close();
  }, 120_000);

  it('the owner adds an agent on Agents; the agent signs in, sees only the Inbox, and replies under their name', async () => {
    const email = `kofi.${Date.now()}@agents.example`;
    /** The agent signs in on the login screen: the console opens on the Inbox. */
    /** What the server refused the agent's console (it must ask for nothing an agent may not have). */
    const refused: string[] = [];
    const signInAgent = async (viewport: { width: number; height: number }) => {
      const page = await openPage(browser, viewport);
      page.on('response', (res) => {
        if (res.status() === 403) refused.push(res.url());
      });
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('kofi-first');
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toBe('/inbox');
      return page;
    };
    const owner = await openAgent(WIDE, '/inbox/agents');
    const form = owner.getByRole('form', { name: 'Add an agent' });
    await visible(form);
    await form.getByRole('textbox', { name: 'Full name' }).fill('Kofi Boateng');
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByLabel('First password').fill('kofi-first');
    await form.getByRole('button', { name: 'Add agent' }).click();
    await visible(owner.getByTestId('agent-list').locator(`[data-row="${email}"]`));
    await owner.mouse.move(0, 0);
    await closeToasts(owner);
    await screenshotViewport(owner, 'inbox-agents-desktop');
    expect(await findViolations(owner)).toEqual([]);
    const ownerPhone = await openAgent(PHONE, '/inbox/agents');
    await visible(ownerPhone.getByTestId('agent-list').locator(`[data-row="${email}"]`));
    await expectNoSidewaysScroll(ownerPhone);
    await screenshot(ownerPhone, 'inbox-agents-phone');
    await ownerPhone.close();

    // A second customer asks for a person.
    const customer = `23356${String(Date.now()).slice(-7)}`;
    const phone = await openPage(browser, PHONE);
    await phone.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await phone.getByRole('textbox', { name: 'Customer number' }).fill(customer);
    await customerSends(phone, 'hi');
    await visible(phone.getByText('Welcome to Owusu Shop'), 15_000);
    await customerSends(phone, '2');
    await visible(phoneReceived(phone).getByText(HANDOFF_TEXT), 15_000);

    // The agent signs in: the console opens on the Inbox, whose sidebar has nothing else; another screen leads back.
    const agentPage = await signInAgent(WIDE);
    const nav = agentPage.getByRole('navigation', { name: 'Main navigation' });
    await visible(nav.getByRole('link', { name: /Inbox/ }));
    expect(await nav.getByRole('link').count()).toBe(1);
    expect(await agentPage.getByRole('button', { name: 'Agents' }).count()).toBe(0);
    const row = agentPage.getByTestId('inbox-row').filter({ hasText: `+${customer}` });
    await visible(row, 15_000);
    await row.click();
    const conversation = agentPage.getByTestId('inbox-conversation');
    await conversation.getByRole('button', { name: 'Assign to me' }).click();
    await visible(conversation.getByTestId('inbox-assignee').getByText('Assigned to you'));
    await conversation.getByRole('textbox', { name: 'Your reply' }).fill('Kofi here, I will help you.');
    await conversation.getByRole('button', { name: 'Send reply' }).click();
    const thread = conversation.getByTestId('inbox-thread');
    await visible(thread.locator('[data-author="agent"]').getByText('Kofi here, I will help you.'));
    await visible(thread.locator('[data-author="event"]').getByText('Kofi Boateng took this'));
    await screenshotViewport(agentPage, 'inbox-agent-desktop');
    await agentPage.goto('/app-list');
    await expect.poll(() => new URL(agentPage.url()).pathname, { timeout: 10_000 }).toBe('/inbox');
    // Their profile: the password and two-factor sign-in, no API keys.
    await agentPage.goto('/account-profile');
    await visible(agentPage.getByRole('tab', { name: 'Change Password' }));
    await visible(agentPage.getByTestId('profile-details').getByText('Inbox agent'));
    expect(await agentPage.getByRole('tab', { name: 'API keys' }).count()).toBe(0);

    // The owner sees the reply under the agent's name, and who has it.
    await owner.goto('/inbox');
    await owner
      .getByTestId('inbox-row')
      .filter({ hasText: `+${customer}` })
      .click();
    await visible(owner.getByTestId('inbox-thread').locator('[data-author="agent"]').getByText('Kofi Boateng'));
    await visible(owner.getByTestId('inbox-assignee').getByText('Assigned to Kofi Boateng'));

    // The agent's sidebar on a phone.
    const agentPhone = await signInAgent(PHONE);
    await agentPhone.getByRole('button', { name: 'Open navigation' }).click();
    await visible(agentPhone.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /Inbox/ }));
    await expectNoSidewaysScroll(agentPhone);
    await screenshotViewport(agentPhone, 'inbox-agent-sidebar-phone');
    expect(refused).toEqual([]);
    for (const page of [agentPhone, agentPage, phone, owner]) await page.close();
  }, 120_000);

  it("a USSD caller's callback request: marked as one, with the number to call, notes only, and Mark done", async () => {
    const app = await callApi<{ appId: string }>(agent.token, '/api/createApp', {
      appName: 'Owusu Loans',
      description: 'loans by phone',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: `*920*${String(Date.now()).slice(-4)}#`,
      useTemplateTag: false,
    });
    expect(app.status, JSON.stringify(app)).toBe('00');
    const ussdAppId = app.data!.appId;
    const created = await callApi(agent.token, '/api/createMenu', {
      appId: ussdAppId,
      userDefinedName: 'home',
      displayText: 'Loans\n1. Call me back',
      isFirst: true,
      switchOperations: [
        { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '', handoff: { reason: 'wants a loan officer' } },
      ],
    });
    expect(created.status, JSON.stringify(created)).toBe('00');
    // The caller, through the app's test URL as Africa's Talking posts it.
    const caller = `+23324${String(Date.now()).slice(-7)}`;
    const sessionId = `cb-${Date.now()}`;
    const dial = (text: string) =>
      fetch(new URL(`/ussd/${ussdAppId}/test`, baseUrl()), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sessionId, serviceCode: '*920#', phoneNumber: caller, networkCode: '62001', text }),
      }).then((res) => res.text());
    await dial('');
    expect(await dial('1')).toBe(`END ${DEFAULT_CALLBACK_TEXT}`);

    const page = await openAgent(WIDE);
    const row = page.getByTestId('inbox-row').filter({ hasText: caller });
    await visible(row.getByText('Callback request: wants a loan officer', { exact: false }));
    await row.click();
    await visible(page.getByTestId('inbox-callback'));
    expect(await page.getByRole('link', { name: `Call ${caller}` }).getAttribute('href')).toBe(`tel:${caller}`);
    // No reply over USSD: the composer says so and keeps notes.
    await visible(page.getByText(INBOX_MESSAGES.callbackNoReply));
    await closeToasts(page);
    await screenshot(page, 'inbox-callback-desktop');
    await page.getByRole('button', { name: 'Mark done' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark done' }).click();
    await visible(page.getByTestId('inbox-status').getByText('Closed'));
    await page.close();
  });

  it("the bot's dashboard shows how soon people answered: opened, first response, resolution, and each agent", async () => {
    const page = await openAgent(WIDE, `/app/dashboard/${appId}?period=week`);
    const panel = page.getByTestId('inbox-figures');
    await visible(panel.getByRole('heading', { name: 'Handed to a person' }));
    // The conversations the tests above opened: Ama answered the first (a text and a photo) and closed it; Kofi answered the second.
    const card = (label: string) => panel.getByRole('group', { name: label }).getByTestId('dashboard-card-value');
    await expect.poll(async () => Number(await card('Opened').textContent())).toBeGreaterThanOrEqual(2);
    expect(await card('First response').textContent()).toMatch(/^\d+ (s|min)/);
    expect(await card('Resolution time').textContent()).toMatch(/^\d+ (s|min)/);
    const ama = panel.getByTestId('inbox-agent-figure').filter({ hasText: 'Ama Owusu' });
    await visible(ama);
    expect((await ama.locator('td').allTextContents()).slice(1, 4)).toEqual(['1', '2', '1']);
    await visible(panel.getByTestId('inbox-agent-figure').filter({ hasText: 'Kofi Boateng' }));
    await screenshot(page, 'inbox-figures-desktop');
    expect(await findViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await page.reload();
    await visible(panel.getByTestId('inbox-agent-figure').first());
    await expectNoSidewaysScroll(page);
    await panel.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'inbox-figures-phone');
    expect(await findViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it('a saved reply put into the box and sent; a closed window offers an approved template, filled, and sends it', async () => {
    // The owner writes a saved reply on its screen (empty first: it says what saved replies are).
    const owner = await openAgent(WIDE, '/inbox/saved-replies');
    await visible(owner.getByTestId('saved-replies-empty'));
    await screenshotViewport(owner, 'inbox-saved-replies-empty-desktop');
    const form = owner.getByRole('form', { name: 'Add a saved reply' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Delivery time');
    await form.getByRole('textbox', { name: 'Text' }).fill('Deliveries in Accra take two working days.');
    await form.getByRole('button', { name: 'Add saved reply' }).click();
    await visible(owner.getByTestId('saved-reply-list').locator('[data-row="Delivery time"]'));
    await owner.mouse.move(0, 0);
    await closeToasts(owner);
    await screenshotViewport(owner, 'inbox-saved-replies-desktop');
    expect(await findViolations(owner)).toEqual([]);
    const ownerPhone = await openAgent(PHONE, '/inbox/saved-replies');
    await visible(ownerPhone.getByTestId('saved-reply-list'));
    await expectNoSidewaysScroll(ownerPhone);
    await screenshot(ownerPhone, 'inbox-saved-replies-phone');
    await ownerPhone.close();

    // A third customer asks for a person.
    const customer = `23357${String(Date.now()).slice(-7)}`;
    const writes = (text: string) =>
      callApi(agent.token, `/api/whatsapp-simulator/${linkId}/messages`, { secret, from: customer, text, kind: 'text' });
    await writes('hi');
    await writes('2');
    await owner.goto('/inbox');
    await owner
      .getByTestId('inbox-row')
      .filter({ hasText: `+${customer}` })
      .click();
    const conversation = owner.getByTestId('inbox-conversation');
    const thread = conversation.getByTestId('inbox-thread');
    await conversation.getByRole('button', { name: 'Saved replies' }).click();
    await visible(owner.getByTestId('inbox-saved-replies').getByText('Delivery time'));
    await screenshotViewport(owner, 'inbox-saved-replies-menu-desktop');
    await owner.getByTestId('inbox-saved-replies').getByText('Delivery time').click();
    const box = conversation.getByRole('textbox', { name: 'Your reply' });
    await expect.poll(() => box.inputValue()).toBe('Deliveries in Accra take two working days.');
    await box.fill('Deliveries in Accra take two working days. Yours leaves today.');
    await conversation.getByRole('button', { name: 'Send reply' }).click();
    await visible(thread.locator('[data-author="agent"]').getByText('Yours leaves today.', { exact: false }));

    // The window closed: the browser cannot wait 24 hours, so the conversation's read is answered as a day later
    // (the server's own refusal and template send on a closed window: inbox-template-replies.int.test.ts). The
    // template goes through the real server to the customer's phone.
    const closedAt = new Date(Date.now() - 3_600_000).toISOString();
    const aDayLater = async (page: Page) =>
      page.route('**/api/inbox/conversations/*', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        if (body.data?.window) body.data.window = { state: 'closed', closedAt };
        await route.fulfill({ response: res, json: body });
      });
    await aDayLater(owner);
    await owner.reload();
    await visible(
      conversation.getByTestId('inbox-window-closed').getByText(/WhatsApp lets a business write first only with an approved template/),
    );
    expect(await conversation.getByRole('textbox', { name: 'Your reply' }).count()).toBe(0);
    // No approved template yet: it says so and leads the owner to the bot's Templates tab.
    await visible(conversation.getByTestId('inbox-no-templates').getByRole('link', { name: "Make one on the bot's Templates tab" }));
    await screenshot(owner, 'inbox-no-templates-desktop');
    // An approved template on the number (a simulator number's are approved when made).
    const made = await callApi(agent.token, `/api/chatbot/whatsapp/templates/${linkId}`, {
      name: 'parcel_ready',
      language: 'en',
      category: 'UTILITY',
      body: 'Your parcel {{order}} is ready for pickup.',
      buttons: [],
      examples: { body: { order: 'A-1' } },
    });
    expect(made.status, JSON.stringify(made)).toBe('00');

    await owner.reload();
    await conversation.getByRole('combobox', { name: 'Template' }).click();
    await owner.getByRole('option', { name: 'parcel_ready (en)' }).click();
    await conversation.getByRole('textbox', { name: '{{order}} in the body' }).fill('B-42');
    await visible(conversation.getByTestId('inbox-template-preview').getByText('Your parcel B-42 is ready for pickup.'));
    await owner.mouse.move(0, 0);
    await screenshotViewport(owner, 'inbox-template-reply-desktop');
    expect(await findViolations(owner)).toEqual([]);
    const small = await openAgent(PHONE, owner.url().replace(baseUrl(), ''));
    await aDayLater(small);
    await small.reload();
    await visible(small.getByTestId('inbox-window-closed'));
    await expectNoSidewaysScroll(small);
    await screenshot(small, 'inbox-template-reply-phone');
    await small.close();
    await conversation.getByRole('button', { name: 'Send template' }).click();
    await visible(thread.locator('[data-author="agent"]').getByText('Your parcel B-42 is ready for pickup.'));
    const phone = await callApi<{ transcript: Array<{ direction: string; message: { text?: string; body?: string } }> }>(
      agent.token,
      `/api/whatsapp-simulator/${linkId}/messages?secret=${encodeURIComponent(secret)}&from=${customer}`,
    );
    expect(phone.data!.transcript.filter((m) => m.direction === 'out').map((m) => m.message.text ?? m.message.body)).toContain(
      'Your parcel B-42 is ready for pickup.',
    );
    await owner.close();
  }, 120_000);
});
