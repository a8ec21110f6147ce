import jsQR from 'jsqr';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_MESSAGES } from '../../src/shared/api/bots.schema';
import { CONVERSATION_ENDED_TEXT } from '../../src/web/features/bots/chat-thread';
import { GENERATING_QR_TEXT, SCAN_QR_TEXT } from '../../src/web/features/bots/linked-number-link-dialog';
import { LINK_POLL_INTERVAL_MS, LINK_POLL_MAX_CHECKS, NUMBER_LIST_RELOAD_DELAY_MS } from '../../src/web/features/bots/linked-number-link';
import { callApi, loginByApi, pathOf, registerAccount, storeSession, waitForPath } from './accounts';
import {
  baseUrl,
  closeToasts,
  describeBrowser,
  DESKTOP,
  expectNoSidewaysScroll,
  launchBrowser,
  openPage,
  PHONE,
  screenshotTop,
  screenshotViewport,
  signIn,
  waitForEarlierRequests,
} from './browser';

/**
 * WhatsApp bots end to end (docs/product.md, WhatsApp bots), on the simulator connector: an admin lets a new
 * account build bots; it creates a bot, designs two menus, chats through them in the console's chat simulator,
 * deploys, links a number by scanning the QR code (decoded from the canvas's pixels) with the simulated phone,
 * chats to the end as a customer there, finds the session on the bot's monitoring screens, unlinks, changes the
 * settings and deletes the bot. Then the error and empty states, the pollers on the page's clock, a list message,
 * and every bot screen at both widths.
 */

const BOT_NAME = 'Mensah Support';
const FIRST_MENU = 'Welcome to Mensah Support\n1. Balance\n2. Help';
const BALANCE_TEXT = 'Your balance is GHS 20.00. Thank you!';
const HELP_TEXT = 'Call 0302 000 000 for help. Goodbye!';
const CUSTOMER = '233240000001';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const hidden = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });
const toast = (page: Page, text: string | RegExp) => visible(page.locator('.mantine-Notification-root').filter({ hasText: text }).first());
const botRow = (page: Page, name: string) => page.getByTestId('bots-table').locator(`tr[data-row="${name}"]`);
const form = (page: Page) => page.getByTestId('menu-edit-form');
const messages = (page: Page) => page.getByTestId('chat-message');
const lastBotMessage = (page: Page) => page.locator('[data-testid="chat-message"][data-direction="out"]').last();

/** Reads the QR canvas's pixels in the page and decodes them here, as a phone's camera would. */
async function decodeQr(page: Page): Promise<string> {
  const image = await page.getByTestId('qr-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, pixels: Array.from(data.data) };
  });
  expect(image.width).toBe(400);
  const code = jsQR(Uint8ClampedArray.from(image.pixels), image.width, image.height);
  if (!code) throw new Error('the QR code on the canvas does not scan');
  return code.data;
}

async function addMenu(page: Page, after: string | null, identifier: string, text: string) {
  if (after === null) await page.getByRole('button', { name: 'Add the first menu' }).click();
  else await page.getByRole('button', { name: `Add a menu after ${after}` }).click();
  await visible(form(page).getByText('New menu', { exact: true }));
  await form(page).getByRole('textbox', { name: 'Menu identifier' }).fill(identifier);
  await form(page).getByRole('textbox', { name: 'Menu text' }).fill(text);
}

async function saveMenu(page: Page) {
  await form(page).getByRole('button', { name: 'Save', exact: true }).click();
  await toast(page, /Menu (saved|updated)/);
  await hidden(form(page));
}

async function pick(page: Page, combobox: string, option: string | RegExp) {
  await form(page).getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option }).first().click();
}

async function sendChat(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The text of each bubble as a screen reader has it, in order ("You: hi", "Mensah Support: Welcome..."), without the times. */
async function readChat(page: Page): Promise<string[]> {
  return messages(page).evaluateAll((nodes) =>
    nodes.map(
      (node) => `${node.querySelector('.mantine-VisuallyHidden-root')?.textContent ?? ''}${node.querySelector('p')?.textContent ?? ''}`,
    ),
  );
}

/** The page's own content (the sidebar has a WhatsApp Bots link too). */
const main = (page: Page) => page.getByRole('main');

describeBrowser('WhatsApp bots', () => {
  let browser: Browser;
  let builder: { email: string; password: string };
  let token = '';
  /** A bot made through the API, for the states and the screens at both widths. */
  let sampleBotId = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    const account = await registerAccount('Kwame Mensah', { plan: 'ENTERPRISE' });
    builder = { email: account.email, password: account.password };
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openAsBuilder(viewport = DESKTOP, withClock = false): Promise<Page> {
    const page = await openPage(browser, viewport);
    // Signed in after the admin's grant: the stored roles hold CHATBOT.
    await storeSession(page, await loginByApi(builder));
    if (withClock) await page.clock.install();
    return page;
  }

  it('an admin lets a new account build bots with the WhatsApp bots switch on Subscriptions', async () => {
    const page = await openPage(browser, DESKTOP);
    await signIn(page, 'admin');
    await page.goto(`/admin/subscriptions?email=${encodeURIComponent(builder.email)}`);
    const toggle = page.getByRole('switch', { name: 'WhatsApp bots' });
    await visible(toggle);
    expect(await toggle.isChecked()).toBe(false);
    await page.getByText('This account cannot build WhatsApp bots.').waitFor();
    await toggle.click({ force: true });
    await toast(page, 'The account can now build WhatsApp bots');
    await page.getByText('This account can build WhatsApp bots.').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await closeToasts(page);
    await screenshotTop(page, 'bots-admin-access-desktop');
    await page.context().close();

    const user = await loginByApi(builder);
    expect(user.data.roles).toContain('CHATBOT');
    token = user.token;
    const bot = await callApi<{ appId: string }>(token, '/api/chatbot/app/create', {
      appName: 'Asante Orders',
      description: 'Order status on WhatsApp',
      botType: 'whatsapp',
    });
    sampleBotId = bot.data!.appId;
  });

  it("a bot's life: created, designed, chatted with in the simulator, deployed, linked by its QR code, chatted with on the phone, monitored, unlinked, changed and deleted", async () => {
    const page = await openAsBuilder(DESKTOP, true);

    // The sidebar's WhatsApp Bots leads to the list, with the sample bot only.
    await page.goto('/get-started');
    await page.locator('[data-sidebar-entry="WhatsApp Bots"]').click();
    await waitForPath(page, '/whatsapp-bots');
    await visible(botRow(page, 'Asante Orders'));

    // New Bot: empty fields are refused with the product's message, then the bot is created and listed.
    await page.getByRole('button', { name: 'New Bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Bot' });
    await dialog.getByRole('button', { name: 'Create Bot' }).click();
    expect(await dialog.getByText(BOT_MESSAGES.incomplete).count()).toBe(2);
    await dialog.getByLabel('Bot Name').fill(BOT_NAME);
    await dialog.getByLabel('Description').fill('Balance and help for Mensah customers');
    await dialog.getByRole('button', { name: 'Create Bot' }).click();
    await toast(page, BOT_MESSAGES.created);
    await hidden(dialog);
    await visible(botRow(page, BOT_NAME));
    expect(await botRow(page, BOT_NAME).getByTestId('bot-status').filter({ visible: true }).textContent()).toBe('Active');
    const bots = await callApi<{ appId: string; appName: string }[]>(token, '/api/chatbot/apps');
    const appId = bots.data!.find((b) => b.appName === BOT_NAME)!.appId;

    // The designer: the menu designer for the bot, with the chat simulator and a WhatsApp message's limit.
    await botRow(page, BOT_NAME)
      .getByRole('link', { name: `Design ${BOT_NAME}` })
      .click();
    await waitForPath(page, `/whatsapp-bot/design/${appId}`);
    await visible(page.getByRole('heading', { name: BOT_NAME, level: 1 }));
    await visible(main(page).getByRole('link', { name: 'WhatsApp Bots' }));
    await visible(main(page).getByRole('link', { name: 'Chat simulator' }));
    expect(await page.getByRole('link', { name: 'Emulator' }).count()).toBe(0);
    await page.getByText('Add the first menu: the message customers get when they write to the bot.').waitFor();

    await addMenu(page, null, 'home', FIRST_MENU);
    await expect.poll(() => page.getByTestId('menu-char-count').textContent()).toBe(`${FIRST_MENU.length} / 4096 characters`);
    await visible(page.getByTestId('menu-preview-text').getByText('1. Balance', { exact: false }));
    await saveMenu(page);
    await addMenu(page, 'home', 'balance', BALANCE_TEXT);
    await form(page)
      .getByRole('checkbox', { name: /Terminate/ })
      .check();
    await saveMenu(page);
    await page.getByRole('button', { name: 'Edit home', exact: true }).click();
    await form(page)
      .getByRole('tab', { name: /^Navigation/ })
      .click();
    await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByRole('button', { name: 'Add rule' }).click();
    await form(page).getByRole('textbox', { name: 'Rule 1 compare value' }).fill('1');
    await pick(page, 'Rule 1 target menu', /^balance/);
    await form(page).getByRole('textbox', { name: 'Rule 2 compare value' }).fill('2');
    await pick(page, 'Rule 2 action', 'Terminate');
    await form(page).getByRole('textbox', { name: 'Rule 2 closing text' }).fill(HELP_TEXT);
    await saveMenu(page);

    // The chat simulator runs the draft: buttons under the first menu, a picked one sends its id, then the end.
    await page.getByRole('link', { name: 'Chat simulator' }).click();
    await waitForPath(page, `/whatsapp-bot/simulator/${appId}`);
    await visible(page.getByRole('heading', { name: BOT_NAME, level: 1 }));
    expect(await page.getByLabel('Customer number').inputValue()).toBe(CUSTOMER);
    await sendChat(page, 'hi');
    await visible(lastBotMessage(page).getByRole('button', { name: 'Balance' }));
    expect(await readChat(page)).toEqual(['You: hi', `${BOT_NAME}: Welcome to Mensah Support`]);
    const choice = page.waitForRequest((request) => new URL(request.url()).pathname === `/whatsapp-emulator/${appId}`);
    await lastBotMessage(page).getByRole('button', { name: 'Balance' }).click();
    expect((await choice).postDataJSON()).toEqual({ from: CUSTOMER, text: '1', kind: 'choice', interactive: true });
    await visible(page.getByTestId('chat-ended'));
    expect(await page.getByTestId('chat-ended').textContent()).toBe(CONVERSATION_ENDED_TEXT);
    expect(await readChat(page)).toEqual([
      'You: hi',
      `${BOT_NAME}: Welcome to Mensah Support`,
      'You: Balance',
      `${BOT_NAME}: ${BALANCE_TEXT}`,
    ]);
    await visible(page.getByTestId('debug-session-id').filter({ hasNotText: 'none yet' }));
    // Older buttons stay on screen but no longer answer.
    expect(await page.getByRole('button', { name: 'Balance' }).isDisabled()).toBe(true);
    // The emulator's panels follow the conversation: its log lines and the session's inputs.
    await visible(page.getByTestId('action-logs').locator('[data-level]').first(), 15_000);
    await visible(page.getByTestId('debug-user-inputs').getByText('home', { exact: true }), 15_000);
    await closeToasts(page);
    await screenshotTop(page, 'bots-simulator-chat-desktop');

    // Interactive messages off: what a linked device gets, numbered text; Restart starts again.
    await page.getByRole('switch', { name: 'Interactive messages (Cloud API)' }).click({ force: true });
    await sendChat(page, 'hello');
    await visible(lastBotMessage(page).getByText('1. Balance', { exact: false }));
    expect(await lastBotMessage(page).getByRole('button').count()).toBe(0);
    await page.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(() => messages(page).count()).toBe(8);
    const [restart, menu] = (await readChat(page)).slice(-2);
    expect(restart).toBe('You: restart');
    expect(menu).toContain(`${BOT_NAME}: ${FIRST_MENU}`);

    // Deploy: linked numbers answer with the deployed version.
    await page.goto(`/whatsapp-bot/design/${appId}`);
    await page.getByTestId('deploy-button').click();
    await page.getByTestId('deploy-confirm').click();
    await toast(page, 'Deployed version 1');
    await closeToasts(page);

    // Bot Settings: no number yet; Add Number links one.
    await botSettings(page, appId);
    await visible(page.getByTestId('numbers-empty').getByText(BOT_MESSAGES.noNumbers));
    await page.getByRole('button', { name: 'Add Number' }).click();
    const linkDialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    await visible(linkDialog.getByText('This installation uses the WhatsApp simulator', { exact: false }));
    await screenshotViewport(page, 'bots-add-number-desktop');
    const firstCheck = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/api/chatbot/whatsapp/link-status/'),
    );
    await linkDialog.getByRole('button', { name: 'Continue' }).click();
    await firstCheck;
    // The first check is immediate; a link still PENDING then shows the QR at the next one, 10 s later.
    if (await linkDialog.getByText(GENERATING_QR_TEXT).isVisible()) await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await visible(page.getByTestId('qr-canvas'));
    await visible(linkDialog.getByText(SCAN_QR_TEXT));
    const qrContent = await decodeQr(page);
    expect(qrContent).toMatch(new RegExp(`^${baseUrl()}/whatsapp-simulator/[0-9a-f-]+\\?secret=`));
    expect(await page.getByTestId('simulated-phone-link').getAttribute('href')).toBe(qrContent);
    await screenshotViewport(page, 'bots-qr-desktop');

    // The decoded address opens the simulated phone: Link device is the scan.
    const phone = await openPage(browser, PHONE);
    await phone.goto(qrContent);
    await visible(phone.getByRole('heading', { name: `Link this phone to ${BOT_NAME}` }));
    await screenshotTop(phone, 'bots-phone-link-phone');
    await phone.getByRole('button', { name: 'Link device' }).click();
    await visible(phone.getByText('Enter the number being linked', { exact: false }));
    await phone.getByLabel('Phone number').fill('+233 20 000 0000');
    await phone.getByRole('button', { name: 'Link device' }).click();
    await visible(phone.getByRole('heading', { name: `Linked to ${BOT_NAME}` }));

    // The console sees CONNECTED at its next check: the toast, the list read again, the dialog closed.
    await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await toast(page, BOT_MESSAGES.connected);
    await hidden(linkDialog);
    const row = page.getByTestId('numbers-table').locator('tbody tr').first();
    await visible(row.getByTestId('link-status').getByText('CONNECTED'));
    await visible(row.getByText('+233200000000'));
    await closeToasts(page);
    await screenshotTop(page, 'bots-settings-numbers-desktop');

    // On the phone, a customer chats through to the end with the deployed menus.
    await sendChat(phone, 'hi');
    await visible(lastBotMessage(phone).getByRole('button', { name: 'Help' }));
    await lastBotMessage(phone).getByRole('button', { name: 'Help' }).click();
    await visible(lastBotMessage(phone).getByText(HELP_TEXT));
    expect(await readChat(phone)).toEqual(['You: hi', `${BOT_NAME}: Welcome to Mensah Support`, 'You: Help', `${BOT_NAME}: ${HELP_TEXT}`]);
    await expectNoSidewaysScroll(phone);
    await screenshotTop(phone, 'bots-phone-chat-phone');
    // Read again, the chat is the server's transcript.
    await phone.reload();
    await visible(lastBotMessage(phone).getByText(HELP_TEXT));
    await phone.context().close();

    // The session is on the bot's completed sessions and in its live dashboard, with links back to the bot.
    await page.goto(`/app/completesession/${appId}`);
    await visible(page.getByTestId('session-row').filter({ hasText: CUSTOMER }).first());
    await visible(main(page).getByRole('link', { name: 'WhatsApp Bots' }));
    expect(await page.getByRole('link', { name: 'Designer' }).getAttribute('href')).toBe(`/whatsapp-bot/design/${appId}`);
    expect(await page.getByRole('link', { name: 'Chat simulator' }).getAttribute('href')).toBe(`/whatsapp-bot/simulator/${appId}`);
    await screenshotTop(page, 'bots-completed-sessions-desktop');
    await page.goto(`/app/dashboard/${appId}`);
    const totalUsers = page.getByRole('group', { name: 'Total Users' }).getByTestId('dashboard-card-value');
    await expect.poll(() => totalUsers.textContent(), { timeout: 15_000 }).toBe('1');
    await screenshotTop(page, 'bots-dashboard-desktop');

    // Unlink asks first.
    await botSettings(page, appId);
    await page.getByRole('button', { name: 'Unlink +233200000000' }).click();
    const unlink = page.getByRole('dialog', { name: 'Unlink +233200000000' });
    await visible(unlink.getByText(BOT_MESSAGES.unlinkConfirm));
    await screenshotViewport(page, 'bots-unlink-confirm-desktop');
    await unlink.getByRole('button', { name: 'Unlink' }).click();
    await toast(page, BOT_MESSAGES.unlinked);
    await visible(page.getByTestId('numbers-empty'));

    // Bot Settings: a new name and Inactive.
    await page.getByRole('tab', { name: 'Bot Settings' }).click();
    const settings = page.getByRole('form', { name: 'Bot Settings' });
    await visible(settings.getByLabel('Bot Name'));
    expect(await settings.getByLabel('Bot Name').inputValue()).toBe(BOT_NAME);
    await settings.getByLabel('Bot Name').fill('Mensah Care');
    await settings.getByRole('radio', { name: 'Inactive' }).check();
    await settings.getByRole('button', { name: 'Update Settings' }).click();
    await toast(page, BOT_MESSAGES.updated);
    await visible(page.getByRole('heading', { name: 'Mensah Care', level: 1 }));
    await closeToasts(page);
    await screenshotTop(page, 'bots-settings-form-desktop');

    // The list shows the change (Inactive in the warning colour); Delete asks first.
    await main(page).getByRole('link', { name: 'WhatsApp Bots' }).click();
    await visible(botRow(page, 'Mensah Care').getByTestId('bot-status').filter({ visible: true }).getByText('Inactive'));
    await botRow(page, 'Mensah Care').getByRole('button', { name: 'Delete Mensah Care' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete Mensah Care' });
    await visible(remove.getByText(BOT_MESSAGES.deleteConfirm));
    await screenshotViewport(page, 'bots-delete-confirm-desktop');
    await remove.getByRole('button', { name: 'Delete' }).click();
    await toast(page, BOT_MESSAGES.deleted);
    await hidden(botRow(page, 'Mensah Care'));
    await page.context().close();
  }, 240_000);

  async function botSettings(page: Page, appId: string) {
    await page.goto(`/whatsapp-bot/settings/${appId}`);
    await visible(page.getByRole('tab', { name: 'Connected Numbers', selected: true }));
  }

  it('a failed link: the simulated phone reports a failure and the console says so; closing reloads the list 12 s later', async () => {
    const page = await openAsBuilder(DESKTOP, true);
    await botSettings(page, sampleBotId);
    await page.getByRole('button', { name: 'Add Number' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    if (!(await page.getByTestId('qr-canvas').isVisible())) await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await visible(page.getByTestId('qr-canvas'));
    const phone = await openPage(browser, DESKTOP);
    await phone.goto(await decodeQr(page));
    await phone.getByRole('button', { name: 'Simulate failure' }).click();
    await visible(phone.getByText('Linking failed'));
    await screenshotTop(phone, 'bots-phone-failed-desktop');
    await phone.context().close();

    // 'Number failed to connect', shown as the product shows it: a success-style toast. The clock jumps to the next
    // check (fastForward fires it once) rather than running through the interval: the answer can come back while
    // runFor still advances, and the toast's own close timer would then fire before anyone looked.
    await page.clock.fastForward(LINK_POLL_INTERVAL_MS);
    await toast(page, BOT_MESSAGES.failed);
    expect(await page.locator('.mantine-Notification-root').filter({ hasText: BOT_MESSAGES.failed }).getAttribute('style')).toContain(
      'teal',
    );
    await hidden(dialog);
    await visible(page.getByTestId('link-status').getByText('FAILED').first());

    // A FAILED row has the QR button: 'WhatsApp QR Code', whose first check finds the link FAILED and closes it.
    await closeToasts(page);
    await page
      .getByRole('button', { name: /^QR code of / })
      .first()
      .click();
    const qrDialog = page.getByRole('dialog', { name: 'WhatsApp QR Code' });
    await visible(qrDialog);
    await toast(page, BOT_MESSAGES.failed);
    await hidden(qrDialog);

    // Closing a dialog stops its polling and reads the list again 12 s later: a number waiting for its scan, its QR
    // opened from its row ('WhatsApp QR Code').
    const { linkId } = (await callApi<{ linkId: string }>(token, '/api/chatbot/whatsapp/link', { chatBotAppId: sampleBotId })).data;
    await expect
      .poll(async () => (await callApi<{ linkStatus: string }>(token, `/api/chatbot/whatsapp/link-status/${linkId}`)).data.linkStatus)
      .toBe('QR');
    await botSettings(page, sampleBotId);
    await page
      .getByTestId('numbers-table')
      .locator(`tr[data-row="${linkId}"]`)
      .getByRole('button', { name: /^QR code of / })
      .click();
    const rowQr = page.getByRole('dialog', { name: 'WhatsApp QR Code' });
    await visible(rowQr.getByTestId('qr-canvas'));
    await waitForEarlierRequests(page);
    const isListRequest = (url: string) => new URL(url).pathname === `/api/chatbot/whatsapp/list-numbers/${sampleBotId}`;
    const reloads: string[] = [];
    page.on('request', (request) => {
      if (isListRequest(request.url())) reloads.push(request.url());
    });
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await rowQr.getByRole('button', { name: 'Close', exact: true }).click();
    await page.clock.runFor(NUMBER_LIST_RELOAD_DELAY_MS - 1);
    await waitForEarlierRequests(page);
    expect(reloads).toEqual([]);
    const reload = page.waitForRequest((request) => isListRequest(request.url()));
    await page.clock.runFor(1);
    await reload;
    await page.clock.resume();
    await page.context().close();
  });

  it('with the Cloud API connector, Add Number asks for the phone number ID and shows no QR code', async () => {
    const page = await openAsBuilder(DESKTOP);
    const linkId = '00000000-0000-4000-8000-000000000002';
    await page.route('**/api/chatbot/whatsapp/connector', (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', data: { connector: 'cloud', connectors: ['cloud'], embeddedSignup: null } } }),
    );
    const bodies: unknown[] = [];
    // The replies in the shapes the server declares (src/shared/api/bots.calls.ts): the console parses them.
    const linked = {
      linkId,
      mobileNumber: '',
      status: 'PENDING',
      connector: 'cloud',
      statusMessage: '',
      createdAt: new Date().toISOString(),
      connectedAt: null,
    };
    await page.route('**/api/chatbot/whatsapp/link', (route) => {
      bodies.push(route.request().postDataJSON());
      return route.fulfill({ json: { status: '00', message: BOT_MESSAGES.linkStarted, linkId, data: linked } });
    });
    const connected = { linkStatus: 'CONNECTED', qrCode: null };
    await page.route(`**/api/chatbot/whatsapp/link-status/${linkId}`, (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', ...connected, data: connected } }),
    );
    await botSettings(page, sampleBotId);
    await page.getByRole('button', { name: 'Add Number' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    const field = dialog.getByRole('textbox', { name: 'Phone number ID' });
    await visible(field);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await visible(dialog.getByText(BOT_MESSAGES.phoneNumberIdRequired));
    await field.fill('+233 20 000 0000');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await visible(dialog.getByText(BOT_MESSAGES.phoneNumberIdRequired));
    expect(bodies).toEqual([]);
    await screenshotViewport(page, 'bots-add-number-cloud-desktop');
    await field.fill('106540352242922');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await toast(page, BOT_MESSAGES.connected);
    await hidden(dialog);
    expect(bodies).toEqual([{ chatBotAppId: sampleBotId, connector: 'cloud', phoneNumberId: '106540352242922' }]);
    expect(await page.getByTestId('qr-canvas').count()).toBe(0);

    // A number another account linked before: the builder's own access token goes with it, masked on screen.
    await page.getByRole('button', { name: 'Add Number' }).click();
    await dialog.getByRole('textbox', { name: 'Phone number ID' }).fill('106540352242922');
    const token = dialog.getByLabel('Access token', { exact: true });
    await token.fill('EAAGbusiness-own-system-user-token');
    expect(await token.getAttribute('type')).toBe('password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    // The first link's toast may still be showing: wait for the second call itself.
    await expect.poll(() => bodies.length).toBe(2);
    await toast(page, BOT_MESSAGES.connected);
    expect(bodies[1]).toEqual({
      chatBotAppId: sampleBotId,
      connector: 'cloud',
      phoneNumberId: '106540352242922',
      accessToken: 'EAAGbusiness-own-system-user-token',
    });
    await page.context().close();
  });

  it('with the Cloud API connector, the Add Number dialog fits a phone', async () => {
    const page = await openAsBuilder(PHONE);
    await page.route('**/api/chatbot/whatsapp/connector', (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', data: { connector: 'cloud', connectors: ['cloud'], embeddedSignup: null } } }),
    );
    await botSettings(page, sampleBotId);
    await page.getByRole('button', { name: 'Add Number' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    await visible(dialog.getByLabel('Access token', { exact: true }));
    await expectNoSidewaysScroll(page);
    await screenshotViewport(page, 'bots-add-number-cloud-phone');
    await page.context().close();
  });

  it('a PENDING number is polled every 10 s, at most 15 times, until it moves on', async () => {
    const page = await openAsBuilder(DESKTOP, true);
    const pending = {
      linkId: '00000000-0000-4000-8000-000000000001',
      mobileNumber: '',
      status: 'PENDING',
      connector: 'simulator',
      statusMessage: '',
      createdAt: new Date().toISOString(),
      connectedAt: null,
    };
    await page.route(`**/api/chatbot/whatsapp/list-numbers/${sampleBotId}`, (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', data: [pending] } }),
    );
    let checks = 0;
    await page.route(`**/api/chatbot/whatsapp/link-status/${pending.linkId}`, (route) => {
      checks += 1;
      return route.fulfill({
        json: { status: '00', message: 'OK', linkStatus: 'PENDING', qrCode: null, data: { linkStatus: 'PENDING', qrCode: null } },
      });
    });
    await botSettings(page, sampleBotId);
    await visible(page.getByTestId('link-status').getByText('PENDING'));
    // No QR button on a PENDING row; the unlink button is there.
    expect(await page.getByRole('button', { name: /^QR code of / }).count()).toBe(0);
    await visible(page.getByRole('button', { name: 'Unlink this number' }));
    await screenshotTop(page, 'bots-numbers-pending-desktop');
    // Not at once (the list has just read it): the first check comes with the next 10 s.
    await waitForEarlierRequests(page);
    expect(checks).toBe(0);
    await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await expect.poll(() => checks).toBe(1);
    for (let i = 2; i <= LINK_POLL_MAX_CHECKS; i++) {
      await page.clock.runFor(LINK_POLL_INTERVAL_MS);
      await expect.poll(() => checks).toBe(i);
    }
    // Then it stops.
    await page.clock.runFor(3 * LINK_POLL_INTERVAL_MS);
    await waitForEarlierRequests(page);
    expect(checks).toBe(LINK_POLL_MAX_CHECKS);
    await page.context().close();
  });

  it('a QR number linked elsewhere (the simulated phone) shows CONNECTED at the next check, without a reload; then nothing is polled', async () => {
    const page = await openAsBuilder(DESKTOP, true);
    const waiting = {
      linkId: '00000000-0000-4000-8000-000000000002',
      mobileNumber: '',
      status: 'QR',
      connector: 'simulator',
      statusMessage: '',
      createdAt: new Date().toISOString(),
      connectedAt: null,
    };
    const connected = { ...waiting, status: 'CONNECTED', mobileNumber: '233240000009', connectedAt: new Date().toISOString() };
    let isScanned = false;
    await page.route(`**/api/chatbot/whatsapp/list-numbers/${sampleBotId}`, (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', data: [isScanned ? connected : waiting] } }),
    );
    let checks = 0;
    await page.route(`**/api/chatbot/whatsapp/link-status/${waiting.linkId}`, (route) => {
      checks += 1;
      const answer = isScanned ? { linkStatus: 'CONNECTED', qrCode: null } : { linkStatus: 'QR', qrCode: 'simulator-code' };
      return route.fulfill({ json: { status: '00', message: 'OK', ...answer, data: answer } });
    });
    await botSettings(page, sampleBotId);
    await visible(page.getByTestId('link-status').getByText('QR', { exact: true }));
    await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await expect.poll(() => checks).toBe(1);
    // The phone scans; the next check sees it and the list is read again.
    isScanned = true;
    await page.clock.runFor(LINK_POLL_INTERVAL_MS);
    await visible(page.getByTestId('link-status').getByText('CONNECTED'));
    await visible(page.getByText('233240000009'));
    expect(checks).toBe(2);
    // Nothing is linking any more: no more checks.
    await page.clock.runFor(3 * LINK_POLL_INTERVAL_MS);
    await waitForEarlierRequests(page);
    expect(checks).toBe(2);
    await page.context().close();
  });

  it('error and empty states: a list that fails (and retries), no bots, no token, numbers and settings that fail, a QR that cannot be drawn', async () => {
    const page = await openAsBuilder(DESKTOP);
    // The bot list fails: the load error and Try again.
    await page.route('**/api/chatbot/apps', (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: 'Something went wrong' } }),
    );
    await page.goto('/whatsapp-bots');
    await visible(page.getByTestId('bots-error').getByText('Something went wrong'));
    await screenshotTop(page, 'bots-list-error-desktop');
    await page.unroute('**/api/chatbot/apps');
    await page.getByTestId('bots-error').getByRole('button', { name: 'Try again' }).click();
    await visible(botRow(page, 'Asante Orders'));

    // No bots: the empty state offers New Bot.
    await page.route('**/api/chatbot/apps', (route) => route.fulfill({ json: { status: '00', message: 'OK', data: [] } }));
    await page.reload();
    await visible(page.getByTestId('bots-empty').getByText('No bots yet'));
    await page.getByTestId('bots-empty').getByRole('button', { name: 'New Bot' }).click();
    await visible(page.getByRole('dialog', { name: 'New Bot' }));
    await page.keyboard.press('Escape');
    await screenshotTop(page, 'bots-list-empty-desktop');
    await page.unroute('**/api/chatbot/apps');

    // Numbers and settings that cannot be read.
    await page.route(`**/api/chatbot/whatsapp/list-numbers/${sampleBotId}`, (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: BOT_MESSAGES.fetchNumbersFailed } }),
    );
    await botSettings(page, sampleBotId);
    await visible(page.getByTestId('numbers-error').getByText(BOT_MESSAGES.fetchNumbersFailed));
    await page.route(`**/api/chatbot/app/${sampleBotId}`, (route) =>
      route.fulfill({ status: 500, json: { status: '99', message: BOT_MESSAGES.fetchSettingsFailed } }),
    );
    await page.getByRole('tab', { name: 'Bot Settings' }).click();
    await visible(page.getByTestId('bot-settings-error').getByText(BOT_MESSAGES.fetchSettingsFailed), 20_000);
    await screenshotTop(page, 'bots-settings-error-desktop');
    await page.unrouteAll();

    // A QR whose content is too long to draw.
    const unreadableQr = { linkStatus: 'QR', qrCode: 'x'.repeat(8000) };
    await page.route('**/api/chatbot/whatsapp/link-status/*', (route) =>
      route.fulfill({ json: { status: '00', message: 'OK', ...unreadableQr, data: unreadableQr } }),
    );
    await botSettings(page, sampleBotId);
    await page.getByRole('button', { name: 'Add Number' }).click();
    await page.getByRole('dialog', { name: 'Connect WhatsApp Number' }).getByRole('button', { name: 'Continue' }).click();
    await visible(page.getByTestId('qr-error').getByText(BOT_MESSAGES.qrImageFailed));
    await screenshotViewport(page, 'bots-qr-error-desktop');
    await page.context().close();

    // With no token (or one the server no longer takes) the list goes to /login.
    const signedOut = await openPage(browser, DESKTOP);
    await signedOut.goto('/whatsapp-bots');
    await waitForPath(signedOut, '/login');
    const expired = await openPage(browser, DESKTOP);
    const stale = await loginByApi(builder);
    await storeSession(expired, { ...stale, token: 'no-such-token' });
    await expired.goto('/whatsapp-bots');
    await waitForPath(expired, '/login');
    expect(pathOf(expired)).toBe('/login');
    await signedOut.context().close();
    await expired.context().close();
  });

  it("a list message: the button opens its rows, and a picked row goes as a choice with its id; a user who can't build bots is sent away", async () => {
    const page = await openAsBuilder(DESKTOP);
    const list = {
      type: 'list',
      body: 'Which branch?',
      button: 'Choose an option',
      rows: [
        { id: '1', title: 'Accra' },
        { id: '2', title: 'Kumasi', description: 'Adum, near the market' },
        { id: '3', title: 'Tamale' },
        { id: '4', title: 'Takoradi' },
      ],
    };
    const bodies: unknown[] = [];
    await page.route(`**/whatsapp-emulator/${sampleBotId}`, (route) => {
      bodies.push(route.request().postDataJSON());
      const messages = bodies.length === 1 ? [list] : [{ type: 'text', text: 'Kumasi it is.' }];
      return route.fulfill({ json: { sessionId: 'session-1', end: bodies.length > 1, messages, messageIds: [] } });
    });
    await page.goto(`/whatsapp-bot/simulator/${sampleBotId}`);
    await sendChat(page, 'branches');
    await lastBotMessage(page).getByRole('button', { name: 'Choose an option' }).click();
    const sheet = page.getByRole('dialog', { name: 'Choose an option' });
    await visible(sheet.getByRole('button', { name: /Kumasi/ }));
    await visible(sheet.getByText('Adum, near the market'));
    await screenshotTop(page, 'bots-simulator-list-desktop');
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await hidden(sheet);
    await lastBotMessage(page).getByRole('button', { name: 'Choose an option' }).click();
    await sheet.getByRole('button', { name: /Kumasi/ }).click();
    await visible(lastBotMessage(page).getByText('Kumasi it is.'));
    expect(bodies[1]).toEqual({ from: CUSTOMER, text: '2', kind: 'choice', interactive: true });
    expect((await readChat(page)).at(-2)).toBe('You: Kumasi');
    await page.context().close();

    const stranger = await openPage(browser, DESKTOP);
    await signIn(stranger, 'private');
    await stranger.goto('/whatsapp-bots');
    await waitForPath(stranger, '/get-started');
    await stranger.context().close();
  });

  it("ticks in the chat simulator: the phone's own receipts read it; by hand sent, delivered, read; a failure red with its words", async () => {
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await openAsBuilder(viewport);
      await page.goto(`/whatsapp-bot/simulator/${sampleBotId}`);
      const ticks = (name: string | RegExp) => lastBotMessage(page).getByRole('img', { name });
      // By default the simulated phone reports the message delivered once shown and read while in view.
      await sendChat(page, 'hi');
      await visible(ticks('Read'), 15_000);

      // By hand: one grey tick, then two, then two blue, each polled from the server without a reload.
      await page.getByRole('switch', { name: "The customer's phone sends receipts" }).click({ force: true });
      await sendChat(page, 'again');
      await expect.poll(() => messages(page).count()).toBe(4);
      await visible(ticks('Sent'), 15_000);
      await page.getByRole('button', { name: 'Mark delivered' }).click();
      await visible(ticks('Delivered'), 15_000);
      expect(await ticks('Delivered').getAttribute('data-status')).toBe('delivered');
      await page.getByRole('button', { name: 'Mark read' }).click();
      await visible(ticks('Read'), 15_000);

      // A failure: red, its words in its accessible name and on hover.
      await sendChat(page, 'once more');
      await expect.poll(() => messages(page).count()).toBe(6);
      await visible(ticks('Sent'), 15_000);
      await page.getByRole('button', { name: 'Make it fail' }).click();
      const failed = ticks(/^Failed: The chat simulator made this message fail/);
      await visible(failed, 15_000);
      await failed.hover();
      await visible(page.getByRole('tooltip').getByText(/The chat simulator made this message fail/));
      // Each bot message keeps its own state.
      expect(await page.getByTestId('chat-ticks').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-status')))).toEqual([
        'read',
        'read',
        'failed',
      ]);
      if (viewport === PHONE) await expectNoSidewaysScroll(page);
      await screenshotViewport(page, `bots-simulator-ticks-${width}`);
      await page.context().close();
    }
  });

  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`every bot screen at ${width} width: no sideways scroll`, async () => {
      const page = await openAsBuilder(viewport);
      const check = async (name: string) => {
        await expectNoSidewaysScroll(page);
        await screenshotTop(page, `bots-${name}-${width}`);
      };
      await page.goto('/whatsapp-bots');
      await visible(botRow(page, 'Asante Orders'));
      await check('list');
      await page.getByRole('button', { name: 'New Bot' }).click();
      await visible(page.getByRole('dialog', { name: 'New Bot' }));
      await screenshotViewport(page, `bots-new-bot-${width}`);
      await page.keyboard.press('Escape');

      await page.goto(`/whatsapp-bot/design/${sampleBotId}`);
      await visible(page.getByRole('heading', { name: 'Asante Orders', level: 1 }));
      await visible(page.getByTestId('menu-list-empty'));
      await check('designer');
      await page.getByRole('button', { name: 'Add the first menu' }).click();
      await form(page).getByRole('textbox', { name: 'Menu text' }).fill('Track your order\n1. Last order\n2. Talk to us');
      await visible(page.getByTestId('menu-preview-text'));
      await check('designer-preview');

      await page.goto(`/whatsapp-bot/settings/${sampleBotId}`);
      await visible(page.getByRole('tab', { name: 'Connected Numbers', selected: true }));
      await visible(page.getByTestId('numbers-table').or(page.getByTestId('numbers-empty')));
      await check('settings');
      await page.goto(`/whatsapp-bot/settings/${sampleBotId}?tab=settings`);
      await visible(page.getByRole('button', { name: 'Update Settings' }));
      await check('settings-tab');

      await page.goto(`/whatsapp-bot/simulator/${sampleBotId}`);
      await visible(page.getByRole('textbox', { name: 'Message', exact: true }));
      await check('simulator');

      await page.goto(`/app/liveview/${sampleBotId}`);
      await visible(main(page).getByRole('link', { name: 'WhatsApp Bots' }));
      await check('live');

      // The simulated phone before linking.
      const { linkId } = (await callApi<{ linkId: string }>(token, '/api/chatbot/whatsapp/link', { chatBotAppId: sampleBotId })).data;
      let qrCode: string | null = null;
      await expect
        .poll(async () => {
          const status = await callApi<{ qrCode: string | null }>(token, `/api/chatbot/whatsapp/link-status/${linkId}`);
          qrCode = status.data.qrCode;
          return qrCode;
        })
        .toBeTruthy();
      await page.goto(qrCode!);
      await visible(page.getByRole('button', { name: 'Link device' }));
      await check('phone-link');
      await page.context().close();
    });
  }
});
