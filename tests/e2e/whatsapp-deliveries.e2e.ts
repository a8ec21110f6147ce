import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callApi, loginByApi, registerAccount, storeSession } from './accounts';
import { describeBrowser, expectNoSidewaysScroll, launchBrowser, openPage, PHONE, screenshot, screenshotViewport } from './browser';
import { E2E_USERS } from './fixtures';

/**
 * Delivery statuses shown everywhere (docs/monitoring.md, "WhatsApp delivery"): a customer chats with a bot on its
 * simulated phone, whose page sends delivered and read receipts; a second customer's message is made to fail there.
 * The bot's dashboard counts them (sent, delivered, read, failed, the failure's words) and its completed sessions
 * show each message's ticks, at 1280x800 and 390x844.
 */

const WIDE = { width: 1280, height: 800 };
const WELCOME = 'Welcome to Ama Shop. We will text your order.';
const FAILURE = 'The simulated phone made this message fail';
const READER = '233240001001';
const FAILER = '233240001002';

const visible = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const lastBotMessage = (page: Page) => page.locator('[data-testid="chat-message"][data-direction="out"]').last();

describeBrowser('WhatsApp delivery statuses on the dashboard and the session log', () => {
  let browser: Browser;
  let account: { email: string; password: string };
  let appId = '';
  let linkId = '';
  let secret = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerAccount('Ama Owusu', { plan: 'ENTERPRISE' });
    const admin = await loginByApi(E2E_USERS.superAdmin);
    expect((await callApi(admin.token, '/api/admin/chatbot-access', { email: account.email, enabled: true })).status).toBe('00');
    const { token } = await loginByApi(account);
    appId = (await callApi<{ appId: string }>(token, '/api/chatbot/app/create', { appName: 'Ama Shop', description: 'Orders' })).data!
      .appId;
    await callApi(token, '/api/createMenu', { appId, userDefinedName: 'home', displayText: WELCOME, isFirst: true, terminate: true });
    expect((await callApi(token, `/api/deployChanges/${appId}`)).status).toBe('00');
    linkId = (await callApi<{ linkId: string }>(token, '/api/chatbot/whatsapp/link', { chatBotAppId: appId })).data!.linkId;
    const status = await callApi<{ qrCode: string }>(token, `/api/chatbot/whatsapp/link-status/${linkId}`);
    secret = new URL(status.data!.qrCode).searchParams.get('secret')!;
    expect((await callApi(token, `/api/whatsapp-simulator/${linkId}/scan`, { secret, mobileNumber: '+233200000077' })).status).toBe('00');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openConsole(viewport = WIDE): Promise<Page> {
    const page = await openPage(browser, viewport);
    await storeSession(page, await loginByApi(account));
    return page;
  }

  async function chatAs(phone: Page, customer: string) {
    await phone.getByLabel('Customer number').fill(customer);
    await phone.getByRole('textbox', { name: 'Message', exact: true }).fill('hi');
    await phone.getByRole('button', { name: 'Send', exact: true }).click();
    await visible(lastBotMessage(phone).getByText(WELCOME));
  }

  it('the simulated phone sends delivered and read receipts; a message made to fail there fails', async () => {
    const phone = await openPage(browser, PHONE);
    const receipts: Array<{ messageId: string; status: string }> = [];
    phone.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === `/api/whatsapp-simulator/${linkId}/receipts`)
        receipts.push(request.postDataJSON());
    });
    await phone.goto(`/whatsapp-simulator/${linkId}?secret=${encodeURIComponent(secret)}`);
    await chatAs(phone, READER);
    // Shown, then in view: delivered, then read, for the bot's message.
    await expect.poll(() => receipts.map((r) => r.status), { timeout: 10_000 }).toEqual(['delivered', 'read']);
    expect(new Set(receipts.map((r) => r.messageId)).size).toBe(1);
    await expectNoSidewaysScroll(phone);
    await screenshotViewport(phone, 'deliveries-phone-receipts-phone');

    // The next customer's phone never reports delivery (its receipts are lost), and the page makes the message fail.
    await phone.route('**/api/whatsapp-simulator/*/receipts', (route) =>
      route.request().postDataJSON().status === 'failed' ? route.continue() : route.abort(),
    );
    await chatAs(phone, FAILER);
    const failed = phone.waitForResponse(
      (response) => response.url().endsWith('/receipts') && response.request().postDataJSON().status === 'failed',
    );
    await phone.getByRole('button', { name: "Make the bot's last message fail" }).click();
    expect((await failed).status()).toBe(200);
    await phone.context().close();
  });

  it("the dashboard counts the bot's messages: sent, delivered, read, failed and why", async () => {
    for (const [width, viewport] of [
      ['desktop', WIDE],
      ['phone', PHONE],
    ] as const) {
      const page = await openConsole(viewport);
      await page.goto(`/app/dashboard/${appId}`);
      const panel = page.getByTestId('whatsapp-deliveries');
      const value = (label: string) => panel.getByRole('group', { name: label }).getByTestId('dashboard-card-value');
      await expect.poll(() => value('Failed').textContent(), { timeout: 15_000 }).toBe('1');
      expect(await value('Sent').textContent()).toBe('2');
      expect(await value('Delivered').textContent()).toBe('1');
      expect(await value('Read').textContent()).toBe('1');
      await visible(panel.getByTestId('delivery-failure').filter({ hasText: FAILURE }));
      // The period is in the address; the test runs (the chat simulator) sent nothing.
      await panel.locator('label', { hasText: '7 days' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('period'), { timeout: 10_000 }).toBe('week');
      expect(await value('Sent').textContent()).toBe('2');
      await page.locator('label', { hasText: 'Test runs' }).click();
      await visible(panel.getByTestId('delivery-empty'));
      expect(new URL(page.url()).searchParams.get('period')).toBe('week');
      await page.locator('label', { hasText: /^Live$/ }).click();
      await visible(panel.getByTestId('delivery-failure'));
      await panel.getByRole('button', { name: 'Show as table' }).click();
      await visible(panel.getByTestId('table-deliveries'));
      await panel.getByRole('button', { name: 'Show as chart' }).click();
      await expectNoSidewaysScroll(page);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `deliveries-dashboard-${width}`);
      await page.context().close();
    }
  });

  it('the dashboard says so when the counts cannot be read, and Try again reads them', async () => {
    const page = await openConsole(PHONE);
    await page.route('**/api/dashboard/whatsappMessages/**', (route) => route.abort());
    await page.goto(`/app/dashboard/${appId}`);
    const panel = page.getByTestId('whatsapp-deliveries');
    await visible(panel.getByTestId('delivery-error'), 20_000);
    await panel.scrollIntoViewIfNeeded();
    await screenshotViewport(page, 'deliveries-dashboard-error-phone');
    await page.unroute('**/api/dashboard/whatsappMessages/**');
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => panel.getByRole('group', { name: 'Sent' }).getByTestId('dashboard-card-value').textContent()).toBe('2');
    await page.context().close();
  });

  it("the completed sessions show each bot message's ticks and a failure's words", async () => {
    for (const [width, viewport] of [
      ['desktop', WIDE],
      ['phone', PHONE],
    ] as const) {
      const page = await openConsole(viewport);
      await page.goto(`/app/completesession/${appId}`);
      const row = (customer: string) => page.getByTestId('session-row').filter({ hasText: customer }).first();
      await visible(row(READER), 15_000);
      await row(READER)
        .getByRole('button', { name: /^Show inputs/ })
        .click();
      const read = page.getByTestId('session-message').filter({ has: page.getByRole('img', { name: 'Read' }) });
      await visible(read);
      expect(await read.getAttribute('data-status')).toBe('read');
      await row(FAILER)
        .getByRole('button', { name: /^Show inputs/ })
        .click();
      const failed = page.getByTestId('session-message').filter({ has: page.getByRole('img', { name: `Failed: ${FAILURE}` }) });
      await visible(failed);
      expect(await failed.getByTestId('session-message-failure').textContent()).toBe(`Failed: ${FAILURE}`);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `deliveries-session-log-${width}`);
      await page.context().close();
    }
  });
});
