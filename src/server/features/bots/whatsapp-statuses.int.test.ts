import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { whatsappMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, createTestApp, seedUser, type SeededUser, type TestApp } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';

const APP_SECRET = 'cloud-app-secret';
const NUMBER_A = '109876543210';
const NUMBER_B = '109876543299';

/**
 * Delivery statuses end to end on the Cloud API path: a local server answers as Meta's Graph API documentation
 * shows, the bot's replies are recorded with Meta's ids, and signed webhook deliveries carry `statuses[]` as Meta
 * sends them. Two accounts, one number each: a status only touches a message of the number it came for.
 */
describeDb('WhatsApp delivery statuses, through the server', () => {
  let graph: Server;
  let sent = 0;
  let t: TestApp;
  let owner: SeededUser;
  let other: SeededUser;

  beforeAll(async () => {
    graph = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        const id = [NUMBER_A, NUMBER_B].find((n) => req.url?.startsWith(`/v21.0/${n}?`));
        if (req.method === 'GET' && id) {
          res.end(JSON.stringify({ display_phone_number: `+${id}`, verified_name: 'Shop', id }));
        } else {
          sent += 1;
          res.end(
            JSON.stringify({
              messaging_product: 'whatsapp',
              contacts: [{ input: '233241234567', wa_id: '233241234567' }],
              messages: [{ id: `wamid.out${sent}` }],
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
    owner = await seedUser(t, { roles: ['CHATBOT'] });
    other = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => graph.close(() => resolve()));
  });

  async function linkedBot(user: SeededUser, phoneNumberId: string): Promise<string> {
    const { get, post } = createApiClient(t, user);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Status Bot', description: 'Delivery statuses' })).json().data.appId;
    await seedMenu(t, user.auth, appId, { userDefinedName: 'home', displayText: 'Hi! Reply anything.', isFirst: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED' });
    return appId;
  }

  const envelope = (phoneNumberId: string, value: Record<string, unknown>) =>
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
                metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });
  const message = (phoneNumberId: string, id: string, text: string) =>
    envelope(phoneNumberId, {
      contacts: [{ profile: { name: 'Kofi' }, wa_id: '233241234567' }],
      messages: [{ from: '233241234567', id, timestamp: '1764150000', type: 'text', text: { body: text } }],
    });
  /** A status as Meta's webhook reference shows it (the conversation and pricing blocks of a `sent` left out). */
  const status = (phoneNumberId: string, id: string, state: string, timestamp: number, errors?: unknown[]) =>
    envelope(phoneNumberId, {
      statuses: [{ id, status: state, timestamp: String(timestamp), recipient_id: '233241234567', ...(errors ? { errors } : {}) }],
    });
  const sign = (body: string) => `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
  async function deliver(body: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/whatsapp/cloud/webhook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(body) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
  }
  const rowsOf = (appId: string) =>
    t.db.select().from(whatsappMessages).where(eq(whatsappMessages.appId, appId)).orderBy(asc(whatsappMessages.id));
  const T0 = 1_764_150_000;

  it("records each reply with Meta's id and moves it forward only, for the number's own link only", async () => {
    const appA = await linkedBot(owner, NUMBER_A);
    const appB = await linkedBot(other, NUMBER_B);
    await deliver(message(NUMBER_A, 'wamid.inA1', 'hello'));
    await vi.waitFor(async () => expect(await rowsOf(appA)).toHaveLength(1));
    const [recorded] = await rowsOf(appA);
    expect(recorded).toMatchObject({
      userId: owner.user.id,
      linkId: expect.any(String),
      environment: 'live',
      toNumber: '233241234567',
      sessionId: expect.stringMatching(/.+/),
      kind: 'text',
      status: 'sent',
      deliveredAt: null,
      readAt: null,
    });
    const id = recorded!.providerMessageId;
    expect(id).toMatch(/^wamid\.out\d+$/);

    // Another account's number naming this message id touches nothing (its link never sent it).
    await deliver(status(NUMBER_B, id, 'read', T0 + 5));
    expect((await rowsOf(appA))[0]).toMatchObject({ status: 'sent', readAt: null });
    expect(await rowsOf(appB)).toEqual([]);

    // Out of order and repeated: read wins, delivered comes after it and only notes its time, sent changes nothing.
    await deliver(status(NUMBER_A, id, 'read', T0 + 3));
    await deliver(status(NUMBER_A, id, 'delivered', T0 + 2));
    await deliver(status(NUMBER_A, id, 'sent', T0 + 1));
    await deliver(status(NUMBER_A, id, 'read', T0 + 9));
    await deliver(status(NUMBER_A, id, 'failed', T0 + 10, [{ code: 131000, title: 'Something went wrong' }]));
    expect((await rowsOf(appA))[0]).toMatchObject({
      status: 'read',
      readAt: new Date((T0 + 3) * 1000),
      deliveredAt: new Date((T0 + 2) * 1000),
      failedAt: null,
      failureReason: '',
    });

    // A status for a message never sent is ignored (and logged): Meta still gets its 200.
    await deliver(status(NUMBER_A, 'wamid.never-sent', 'delivered', T0));
    expect(await rowsOf(appA)).toHaveLength(1);
  });

  it("keeps a failure's code and words; a later delivered wins over it", async () => {
    const appA = await firstBotOf(owner);
    await deliver(message(NUMBER_A, 'wamid.inA2', 'again'));
    await vi.waitFor(async () => expect(await rowsOf(appA)).toHaveLength(2));
    const id = (await rowsOf(appA))[1]!.providerMessageId;
    await deliver(
      status(NUMBER_A, id, 'failed', T0 + 20, [
        {
          code: 131047,
          title: 'Re-engagement message',
          message: 'Re-engagement message',
          error_data: { details: 'Message failed to send because more than 24 hours have passed since the customer last replied.' },
        },
      ]),
    );
    await deliver(status(NUMBER_A, id, 'sent', T0 + 19));
    expect((await rowsOf(appA))[1]).toMatchObject({
      status: 'failed',
      failureCode: 131047,
      failureReason: expect.stringMatching(/^Re-engagement message \(131047\): re-engagement.*more than 24 hours have passed/),
      failedAt: new Date((T0 + 20) * 1000),
    });
    await deliver(status(NUMBER_A, id, 'delivered', T0 + 30));
    expect((await rowsOf(appA))[1]).toMatchObject({ status: 'delivered', failureCode: 131047 });
  });

  async function firstBotOf(user: SeededUser): Promise<string> {
    const [row] = await t.db.select().from(whatsappMessages).where(eq(whatsappMessages.userId, user.user.id)).limit(1);
    return row!.appId;
  }
});
