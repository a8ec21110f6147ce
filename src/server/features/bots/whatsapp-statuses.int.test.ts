import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { whatsappMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, seedUser, type SeededUser } from '../../../../tests/support/test-app';
import { seedMenu } from '../../../../tests/support/seed-app';
import {
  type CloudTestApp,
  cloudMessagesBody,
  createCloudTestApp,
  customerMessage,
  graphSent,
  postCloudWebhook,
  signCloudBody,
} from '../../../../tests/support/cloud-api';

const NUMBER_A = '109876543210';
const NUMBER_B = '109876543299';

/**
 * Delivery statuses end to end on the Cloud API path: a local server answers as Meta's Graph API documentation
 * shows, the bot's replies are recorded with Meta's ids, and signed webhook deliveries carry `statuses[]` as Meta
 * sends them. Two accounts, one number each: a status only touches a message of the number it came for.
 */
describeDb('WhatsApp delivery statuses, through the server', () => {
  let sent = 0;
  let t: CloudTestApp;
  let owner: SeededUser;
  let other: SeededUser;

  beforeAll(async () => {
    t = await createCloudTestApp((call) => {
      const id = [NUMBER_A, NUMBER_B].find((n) => call.url.startsWith(`/v21.0/${n}?`));
      if (call.method === 'GET' && id) return { body: { display_phone_number: `+${id}`, verified_name: 'Shop', id } };
      sent += 1;
      return graphSent(`wamid.out${sent}`);
    });
    owner = await seedUser(t, { roles: ['CHATBOT'] });
    other = await seedUser(t, { roles: ['CHATBOT'] });
  });
  afterAll(() => t?.close());

  async function linkedBot(user: SeededUser, phoneNumberId: string): Promise<string> {
    const { get, post } = createApiClient(t, user);
    const appId = (await post('/api/chatbot/app/create', { appName: 'Status Bot', description: 'Delivery statuses' })).json().data.appId;
    await seedMenu(t, user.auth, appId, { userDefinedName: 'home', displayText: 'Hi! Reply anything.', isFirst: true });
    expect((await get(`/api/deployChanges/${appId}`)).json().status).toBe('00');
    const linked = (await post('/api/chatbot/whatsapp/link', { chatBotAppId: appId, phoneNumberId })).json();
    expect(linked.data).toMatchObject({ status: 'CONNECTED' });
    return appId;
  }

  const message = (phoneNumberId: string, id: string, text: string) =>
    cloudMessagesBody(phoneNumberId, customerMessage(id, { type: 'text', text: { body: text } }));
  /** A status as Meta's webhook reference shows it (the conversation and pricing blocks of a `sent` left out). */
  const status = (phoneNumberId: string, id: string, state: string, timestamp: number, errors?: unknown[]) =>
    cloudMessagesBody(phoneNumberId, {
      statuses: [{ id, status: state, timestamp: String(timestamp), recipient_id: '233241234567', ...(errors ? { errors } : {}) }],
    });
  async function deliver(body: string) {
    expect((await postCloudWebhook(t, body, signCloudBody(body))).statusCode).toBe(200);
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
