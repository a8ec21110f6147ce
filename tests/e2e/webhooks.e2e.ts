import http from 'node:http';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { callApi, registerAccount, storeSession, type LoginReplyBody } from './accounts';
import { DESKTOP, PHONE, describeBrowser, expectNoSidewaysScroll, launchBrowser, openPage, screenshotTop } from './browser';

/**
 * The Webhooks screen against a real receiver: the URL is saved through the form (a private address is refused
 * first), a test event goes out through the server's dispatcher to a node:http server on the one local port the
 * server allows, its delivery shows the receiver's answer, and Redeliver sends the same event again.
 */
describeBrowser('webhooks', () => {
  let browser: Browser;
  let page: Page;
  let owner: { reply: LoginReplyBody };
  let appId: string;
  const received: Array<{ body: string; signature: string }> = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['dialflow-signature']) });
      res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true, count: received.length }));
    });
  });
  const port = inject('webhookReceiverPort');
  const receiverUrl = `http://127.0.0.1:${port}/dialflow/events`;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    browser = await launchBrowser();
    owner = await registerAccount('Kwame Hooks', { plan: 'ENTERPRISE' });
    const app = await callApi<{ appId: string }>(owner.reply.token, '/api/createApp', {
      appName: 'Hooked Shop',
      description: 'Webhooks e2e app',
      country: 'ghana',
      connectionMode: 'existing-shortcode',
      customShortCode: '*920*88#',
      useTemplateTag: false,
    });
    appId = app.data.appId;
    page = await openPage(browser);
    await storeSession(page, owner.reply);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('is reached from the app settings and starts empty', async () => {
    await page.goto(`/app-settings/${appId}`);
    await page.getByLabel('App Name').waitFor();
    await screenshotTop(page, 'webhooks-settings-link-desktop');
    await page.getByRole('link', { name: 'Set up webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByTestId('deliveries-empty').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await screenshotTop(page, 'webhooks-empty-desktop');
  });

  it('refuses a private address with the reason, then saves the local receiver the operator allows', async () => {
    await page.getByLabel('Webhook URL').fill('http://10.0.0.1/hook');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await expect.poll(() => page.getByTestId('form-alert').textContent()).toContain('Refused: 10.0.0.1 is a private address');
    // The refusal names the settings a self-hosted installation would change to allow it.
    expect(await page.getByTestId('form-alert').textContent()).toContain(
      'ALLOW_PRIVATE_NETWORK=true, or this one with OUTBOUND_ALLOW_HOSTS=10.0.0.1:80',
    );
    await screenshotTop(page, 'webhooks-private-refused-desktop');
    await page.setViewportSize(PHONE);
    await screenshotTop(page, 'webhooks-private-refused-phone');
    await page.setViewportSize(DESKTOP);

    await page.getByLabel('Webhook URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
    await page.getByRole('button', { name: 'Reveal the secret' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Secret', exact: true }).inputValue()).toMatch(/^whsec_/);
  });

  it('sends a test event, signed, and shows the delivery with the response; Redeliver sends it again', async () => {
    const secret = await page.getByRole('textbox', { name: 'Secret', exact: true }).inputValue();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const row = page.getByTestId('delivery-row').first();
    await expect.poll(() => row.getByTestId('delivery-status').textContent(), { timeout: 15_000 }).toBe('Delivered');
    expect(await row.getByTestId('delivery-code').textContent()).toBe('202');
    expect(received).toHaveLength(1);
    const [{ body, signature }] = received;
    const [t, v1] = signature.split(',').map((part) => part.split('=')[1]);
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
    expect(JSON.parse(body!)).toMatchObject({ type: 'webhook.test', appId });

    // The test delivery opened itself when it was queued: its request and the receiver's answer.
    const details = page.getByTestId('delivery-details');
    await expect.poll(() => details.getByTestId('delivery-response').textContent()).toContain('"received":true');
    expect(await details.getByTestId('delivery-request').textContent()).toContain('"type": "webhook.test"');
    // The toasts (they close by themselves) and the button's tooltip would cover the delivery.
    await page.mouse.move(0, 0);
    await expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 15_000 }).toBe(0);
    await screenshotTop(page, 'webhooks-delivered-desktop');

    await details.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1]!.body).toBe(body);
    // The row said Delivered before too: its attempts reaching 2 is what shows the list was read again (it is polled).
    await expect.poll(() => row.locator('td').nth(5).textContent(), { timeout: 15_000 }).toBe('2');
    await expect.poll(() => row.getByTestId('delivery-status').textContent(), { timeout: 15_000 }).toBe('Delivered');
    await expect.poll(() => details.getByTestId('delivery-response').textContent(), { timeout: 15_000 }).toContain('"count":2');
  });

  it('fits a phone: the deliveries table scrolls within its card, the page does not', async () => {
    const phone = await openPage(browser, PHONE);
    await storeSession(phone, owner.reply);
    await phone.goto(`/app-webhooks/${appId}`);
    await phone.getByTestId('delivery-row').first().waitFor();
    await expectNoSidewaysScroll(phone);
    await screenshotTop(phone, 'webhooks-phone');
    await phone.context().close();
  });
});
