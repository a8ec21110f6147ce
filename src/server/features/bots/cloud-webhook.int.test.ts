import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';

const APP_SECRET = 'cloud-app-secret';
const PHONE_NUMBER_ID = '109876543210';

/**
 * The Cloud API end to end: a local server answers as Meta's Graph API documentation shows (the number check
 * and the messages endpoint), and the test signs webhook deliveries as Meta does.
 */
describeDb('WhatsApp Cloud API connector, through the server', () => {
  let graph: Server;
  const sent: Array<{ url: string; authorization: string | undefined; body: Record<string, unknown> }> = [];
  let t: TestApp;
  let builder: SeededUser;

  beforeAll(async () => {
    graph = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET' && req.url?.startsWith(`/v21.0/${PHONE_NUMBER_ID}?`)) {
          res.end(JSON.stringify({ display_phone_number: '+233 30 123 4567', verified_name: 'Ama Shop', id: PHONE_NUMBER_ID }));
        } else if (req.method === 'GET') {
          res.statusCode = 400;
          res.end(
            JSON.stringify({ error: { message: 'Unsupported get request.', type: 'GraphMethodException', code: 100, fbtrace_id: 'x' } }),
          );
        } else {
          sent.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) });
          res.end(
            JSON.stringify({
              messaging_product: 'whatsapp',
              contacts: [{ input: '233241234567', wa_id: '233241234567' }],
              messages: [{ id: `wamid.out${sent.length}` }],
            }),
          );
        }
      });
    });
    await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
    const address = graph.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    t = await createTestApp({
      WHATSAPP_CONNECTOR: 'cloud',
      WHATSAPP_CLOUD_API_URL: `http://127.0.0.1:${port}/v21.0`,
      WHATSAPP_CLOUD_ACCESS_TOKEN: 'EAAG-test-token',
      WHATSAPP_CLOUD_APP_SECRET: APP_SECRET,
      WHATSAPP_CLOUD_VERIFY_TOKEN: 'verify-me',
    });
    builder = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => graph.close(() => resolve()));
  });

  const delivery = (messageId: string, message: Record<string, unknown>, phoneNumberId = PHONE_NUMBER_ID) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA-1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '233301234567', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Kofi' }, wa_id: '233241234567' }],
                messages: [{ from: '233241234567', id: messageId, timestamp: '1764150000', ...message }],
              },
            },
          ],
        },
      ],
    });
  const sign = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const deliver = (body: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/whatsapp/cloud/webhook',
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
      payload: body,
    });

  it("answers Meta's handshake only with the verify token", async () => {
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/api/whatsapp/cloud/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('links a number by its phone number id, answers signed deliveries with buttons, and refuses forged ones', async () => {
    const { get, post } = createApiClient(t, builder);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Cloud Bot', description: 'Official route' })).json().data.appId;
    const done = await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'done',
      displayText: 'Bye, {{ session.inputs.homeLabel }}',
      terminate: true,
    });
    await seedMenu(t, builder.auth, appId, {
      userDefinedName: 'home',
      displayText: 'Hi!\n1. Balance\n2. Help',
      isFirst: true,
      switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: done }],
    });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');

    expect((await get('/api/chatbot/whatsapp/connector')).json().data).toEqual({
      connector: 'cloud',
      connectors: ['cloud'],
      embeddedSignup: null,
    });
    expect((await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId })).json()).toMatchObject({
      status: '02',
      message: 'Enter the phone number ID from your WhatsApp Business settings',
    });
    const refused = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: '555555' })).json();
    expect(refused.data).toMatchObject({ status: 'FAILED', statusMessage: expect.stringContaining('Unsupported get request') });
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED', mobileNumber: '+233301234567', connector: 'cloud' });
    expect((await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId: PHONE_NUMBER_ID })).statusCode).toBe(409);

    // Forged, unsigned and wrongly signed deliveries are refused and answered with nothing.
    const hello = delivery('wamid.in1', { type: 'text', text: { body: 'hello' } });
    expect((await deliver(hello)).statusCode).toBe(401);
    expect((await deliver(hello, sign(hello, 'another-secret'))).statusCode).toBe(401);
    expect((await deliver(hello.replace('hello', 'HELLO'), sign(hello))).statusCode).toBe(401);
    expect(sent).toEqual([]);

    expect((await deliver(hello, sign(hello))).statusCode).toBe(200);
    // Meta gets its 200 at once; the reply follows.
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([
      {
        url: `/v21.0/${PHONE_NUMBER_ID}/messages`,
        authorization: 'Bearer EAAG-test-token',
        body: expect.objectContaining({
          messaging_product: 'whatsapp',
          to: '233241234567',
          type: 'interactive',
          interactive: expect.objectContaining({ type: 'button', body: { text: 'Hi!' } }),
        }),
      },
    ]);
    // Meta redelivers until it gets a 200: the same message id runs nothing again.
    expect((await deliver(hello, sign(hello))).statusCode).toBe(200);
    expect(sent).toHaveLength(1);

    const tapped = delivery('wamid.in2', {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: '2', title: 'Help' } },
    });
    await deliver(tapped, sign(tapped));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.body).toMatchObject({ type: 'text', text: { body: 'Bye, Help' } });
    // A number no link owns is not answered.
    const stranger = delivery('wamid.in3', { type: 'text', text: { body: 'hi' } }, '999999');
    expect((await deliver(stranger, sign(stranger))).statusCode).toBe(200);
    // Its link was looked up (and not found) before the 200: nothing was queued for it.
    expect(sent).toHaveLength(2);

    const sessions = (await get(`/dashboard/completedSessions/${appId}`)).json().data;
    expect(sessions).toEqual([expect.objectContaining({ mobile: '233241234567', environment: 'live', gateway: 'whatsapp' })]);
  });
});
