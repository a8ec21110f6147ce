import { createServer, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BOT_MESSAGES } from '../../src/shared/api/bots.schema';
import { createTestApp, seedUser, type TestApp } from '../support/test-app';
import { findFreePort } from '../support/free-port';
import { loginByApi, storeSession } from './accounts';
import { describeBrowser, expectNoSidewaysScroll, launchBrowser, PHONE, screenshotViewport } from './browser';

const PHONE_NUMBER_ID = '300000000009';
const WABA_ID = '700000000009';
const TOKEN = 'EAAG-customer-system-user-token-09';

/**
 * The Add Number dialog on an installation that offers two kinds of number (the simulator and the Cloud API):
 * the kind is asked, and a Cloud API number is linked with the manual form (phone number ID, WhatsApp Business
 * Account ID, access token) against a local server answering as Meta's Graph API documentation shows.
 */
describeBrowser('WhatsApp numbers of two kinds', () => {
  let graph: Server;
  const seen: string[] = [];
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let session: Awaited<ReturnType<typeof loginByApi>>;
  let appId: string;

  beforeAll(async () => {
    graph = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://graph.local');
      const ok = req.headers.authorization === `Bearer ${TOKEN}`;
      seen.push(`${req.method} ${url.pathname} ${ok ? 'own-token' : 'other'}`);
      res.setHeader('content-type', 'application/json');
      if (ok && url.pathname === `/v21.0/${WABA_ID}/phone_numbers`) return res.end(JSON.stringify({ data: [{ id: PHONE_NUMBER_ID }] }));
      if (ok && url.pathname === `/v21.0/${PHONE_NUMBER_ID}`)
        return res.end(JSON.stringify({ id: PHONE_NUMBER_ID, display_phone_number: '+233 30 000 0009', verified_name: 'Esi Foods' }));
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: 'Unsupported get request.', type: 'GraphMethodException', code: 100, fbtrace_id: 'x' } }));
    });
    await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
    const graphPort = (graph.address() as { port: number }).port;
    const port = await findFreePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      PORT: port,
      PUBLIC_URL: origin,
      LOGIN_RATE_LIMIT: 1000,
      WHATSAPP_CONNECTORS: ['simulator', 'cloud'],
      WHATSAPP_CREDENTIALS_KEY: 'e2'.repeat(32),
      WHATSAPP_CLOUD_API_URL: `http://127.0.0.1:${graphPort}/v21.0`,
      WHATSAPP_CLOUD_ACCESS_TOKEN: 'EAAG-installation-token',
      WHATSAPP_CLOUD_APP_SECRET: 'cloud-app-secret',
      WHATSAPP_CLOUD_VERIFY_TOKEN: 'verify-me',
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    const user = await seedUser(t, { roles: ['CHATBOT'] });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/chatbot/app/create',
      headers: user.auth,
      payload: { appName: 'Esi Foods Bot', description: 'Orders' },
    });
    appId = created.json().data.appId;
    session = await loginByApi({ email: user.email, password: user.password }, origin);
    browser = await launchBrowser();
    // A server of its own: migrating its database takes long on a busy machine.
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise<void>((resolve) => graph.close(() => resolve()));
  });

  async function openSettings(viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: origin });
    const page = await context.newPage();
    await storeSession(page, session);
    await page.goto(`/whatsapp-bot/settings/${appId}`);
    await page.getByRole('button', { name: 'Add Number' }).click();
    return page;
  }

  it('asks which kind of number, and links a Cloud API number with its own WhatsApp Business Account and token', async () => {
    const page = await openSettings();
    const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    const kinds = dialog.getByRole('radiogroup', { name: 'Kind of number' });
    await kinds.waitFor();
    expect(await kinds.getByRole('radio').count()).toBe(2);
    expect(await kinds.getByRole('radio', { name: 'Simulated phone' }).isChecked()).toBe(true);
    await dialog.getByText('This installation uses the WhatsApp simulator', { exact: false }).waitFor();
    await screenshotViewport(page, 'numbers-kind-simulator-desktop');

    await kinds.getByRole('radio', { name: 'WhatsApp Cloud API' }).check();
    await dialog.getByRole('textbox', { name: 'Phone number ID' }).waitFor();
    // No Embedded Signup on this installation: no Facebook button.
    expect(await dialog.getByRole('button', { name: 'Continue with Facebook' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText(BOT_MESSAGES.phoneNumberIdRequired).waitFor();
    await screenshotViewport(page, 'numbers-cloud-form-error-desktop');

    await dialog.getByRole('textbox', { name: 'Phone number ID' }).fill(PHONE_NUMBER_ID);
    await dialog.getByRole('textbox', { name: 'WhatsApp Business Account ID' }).fill(WABA_ID);
    await dialog.getByLabel('Access token').fill(TOKEN);
    await screenshotViewport(page, 'numbers-cloud-form-desktop');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.locator('.mantine-Notification-root').filter({ hasText: BOT_MESSAGES.connected }).first().waitFor();
    await page.getByText('+233300000009').first().waitFor();
    expect(seen).toContain(`GET /v21.0/${WABA_ID}/phone_numbers own-token`);
    expect(seen.filter((s) => s.startsWith(`GET /v21.0/${PHONE_NUMBER_ID}`)).every((s) => s.endsWith('own-token'))).toBe(true);
    await screenshotViewport(page, 'numbers-cloud-linked-desktop');
    await page.context().close();
  });

  it('on a phone: the kind choice and the Cloud API form fit the screen', async () => {
    const page = await openSettings(PHONE);
    const dialog = page.getByRole('dialog', { name: 'Connect WhatsApp Number' });
    await dialog.getByRole('radio', { name: 'WhatsApp Cloud API' }).check();
    await dialog.getByRole('textbox', { name: 'Phone number ID' }).waitFor();
    await expectNoSidewaysScroll(page);
    await screenshotViewport(page, 'numbers-cloud-form-phone');
    await page.context().close();
  });
});
