import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, smsMessages, smsReplies } from '../../../db/schema';
import { createAfricasTalkingSmsProvider } from '../../../integrations/sms/africastalking-sms';
import { describeDb } from '../../../../tests/support/test-db';
import { seedUser, type TestApp, useTestApp } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { createSmsDispatcher, queueSms } from './sms.service';

/**
 * What comes back after an SMS: Africa's Talking's delivery reports, incoming messages and bulk opt-outs, posted as
 * its dashboard's callback URLs post them (form fields) to the address with the operator's secret; and the local
 * outbox's simulated reply. Their effects: the outbox's delivery, a reply kept for the account that wrote last, STOP
 * and START on the contact's SMS consent.
 */

const TOKEN = 'callback-secret-0123456789';
const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

/** A local server answering as Africa's Talking's messaging API does: each recipient accepted with its messageId. */
async function startAtServer(): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const to = new URLSearchParams(body).get('to');
      n += 1;
      const recipient = { statusCode: 101, number: to, status: 'Success', cost: 'KES 0.8000', messageId: `ATXid_${n}` };
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ SMSMessageData: { Message: 'Sent to 1/1 Total Cost: KES 0.8000', Recipients: [recipient] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/version1/messaging`, server };
}

async function sendThroughAt(t: TestApp, url: string, request: { ownerId: string; recipient: string; sender?: string }) {
  const { id } = await queueSms(t.app.ctx, { appId: null, sender: '', message: 'Dial *920*55#', ...request });
  const provider = createAfricasTalkingSmsProvider({ username: 'sandbox', apiKey: 'test-key', baseUrl: url });
  await createSmsDispatcher(t.app.ctx, provider).runOnce();
  const [row] = await t.db.select().from(smsMessages).where(eq(smsMessages.id, id));
  expect(row).toMatchObject({ status: 'SENT', provider: 'africastalking', providerMessageId: expect.stringMatching(/^ATXid_/) });
  return row!;
}

async function smsConsentOf(t: TestApp, ownerId: string, msisdn: string) {
  const [row] = await t.db
    .select({ consent: contacts.consent })
    .from(contacts)
    .where(and(eq(contacts.ownerId, ownerId), eq(contacts.msisdn, msisdn)));
  return row?.consent.sms ?? null;
}

describeDb("SMS notifications from Africa's Talking", () => {
  const t = useTestApp({
    SMS_PROVIDER: 'africastalking',
    AT_USERNAME: 'sandbox',
    AT_API_KEY: 'test-key',
    SMS_DISPATCH_INTERVAL_MS: 0,
    SMS_CALLBACK_TOKEN: TOKEN,
  });
  let at: { url: string; server: Server };
  beforeAll(async () => {
    at = await startAtServer();
  });
  afterAll(() => new Promise<void>((resolve) => at.server.close(() => resolve())));
  const post = (notification: string, fields: Record<string, string>, token = TOKEN, provider = 'africastalking') =>
    t.app.inject({ method: 'POST', url: `/api/sms/callbacks/${provider}/${token}/${notification}`, ...form(fields) });

  it('answers 404 to an address without the secret, with another one, or for another provider, and changes nothing', async () => {
    const owner = await seedUser(t);
    const sms = await sendThroughAt(t, at.url, { ownerId: owner.user.id, recipient: '+254711000001' });
    for (const res of [
      await post('delivery', { id: sms.providerMessageId!, status: 'Success' }, 'wrong-secret-0123456789xx'),
      await post('delivery', { id: sms.providerMessageId!, status: 'Success' }, TOKEN.slice(0, -1)),
      await post('delivery', { id: sms.providerMessageId!, status: 'Success' }, TOKEN, 'outbox'),
      await post('unknown', { id: sms.providerMessageId!, status: 'Success' }),
    ])
      expect([400, 404]).toContain(res.statusCode);
    const [row] = await t.db.select().from(smsMessages).where(eq(smsMessages.id, sms.id));
    expect(row!.deliveryStatus).toBeNull();
  });

  it('records delivery reports in any order: a late "on its way" never takes back delivered; a failure keeps its reason', async () => {
    const owner = await seedUser(t);
    const delivered = await sendThroughAt(t, at.url, { ownerId: owner.user.id, recipient: '+254711000002' });
    const failed = await sendThroughAt(t, at.url, { ownerId: owner.user.id, recipient: '+254711000003' });

    expect((await post('delivery', { id: delivered.providerMessageId!, status: 'Sent', phoneNumber: '+254711000002' })).json()).toEqual({
      status: '00',
      message: 'Delivery report recorded',
    });
    await post('delivery', { id: delivered.providerMessageId!, status: 'Success', networkCode: '63902', retryCount: '0' });
    await post('delivery', { id: delivered.providerMessageId!, status: 'Buffered' });
    await post('delivery', { id: failed.providerMessageId!, status: 'Failed', failureReason: 'UserInBlackList' });
    expect((await post('delivery', { id: 'ATXid_nobody', status: 'Success' })).json().message).toBe('Delivery report changed nothing');
    // A final report does not undo another: a Failed after Success, a Success after Failed, change nothing.
    expect(
      (await post('delivery', { id: delivered.providerMessageId!, status: 'Failed', failureReason: 'DeliveryFailure' })).json().message,
    ).toBe('Delivery report changed nothing');
    await post('delivery', { id: failed.providerMessageId!, status: 'Success' });

    const outbox = (await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: owner.auth })).json().data;
    const byRecipient = Object.fromEntries(outbox.map((m: { recipient: string }) => [m.recipient, m]));
    expect(byRecipient['+254711000002']).toMatchObject({
      deliveryStatus: 'delivered',
      deliveryError: null,
      deliveredAt: expect.any(String),
    });
    expect(byRecipient['+254711000003']).toMatchObject({ deliveryStatus: 'failed', deliveryError: 'Failed: UserInBlackList' });
  });

  it('keeps an incoming SMS as a reply to the account that wrote last, once however often it is posted; STOP opts out, START back in', async () => {
    const first = await seedUser(t);
    const last = await seedUser(t);
    await sendThroughAt(t, at.url, { ownerId: first.user.id, recipient: '+254711000004' });
    t.advanceClock(1000);
    const answered = await sendThroughAt(t, at.url, { ownerId: last.user.id, recipient: '254711000004' });

    const incoming = {
      from: '+254711000004',
      to: '20880',
      text: 'Stop',
      id: 'in-1',
      linkId: 'l-1',
      date: '2026-11-30',
      networkCode: '63902',
    };
    expect((await post('incoming', incoming)).json().message).toBe('Reply received');
    expect((await post('incoming', incoming)).json().message).toBe('Reply received');
    const kept = await t.db.select().from(smsReplies).where(eq(smsReplies.providerMessageId, 'in-1'));
    expect(kept).toEqual([
      expect.objectContaining({ ownerId: last.user.id, smsMessageId: answered.id, msisdn: '+254711000004', text: 'Stop' }),
    ]);
    expect(await smsConsentOf(t, last.user.id, '+254711000004')).toMatchObject({ status: 'out', source: 'keyword', detail: 'stop' });
    // The account that did not write last is told nothing and changes nothing.
    expect(await smsConsentOf(t, first.user.id, '+254711000004')).toBeNull();

    await post('incoming', { ...incoming, id: 'in-2', text: 'START' });
    expect(await smsConsentOf(t, last.user.id, '+254711000004')).toMatchObject({ status: 'in', detail: 'start' });
    const replies = (await t.app.inject({ method: 'GET', url: '/api/sms/replies?msisdn=%2B254711000004', headers: last.auth })).json();
    expect(replies.data.map((r: { text: string }) => r.text)).toEqual(['START', 'Stop']);
    expect((await t.app.inject({ method: 'GET', url: '/api/sms/replies', headers: first.auth })).json().data).toEqual([]);
    const outbox = (await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: last.auth })).json().data;
    expect(outbox[0]).toMatchObject({ id: answered.id, replies: 2 });

    // A number no account wrote to: nobody to give it to, nothing kept.
    expect((await post('incoming', { ...incoming, id: 'in-3', from: '+254711999999' })).json().message).toBe(
      'No account wrote to this number',
    );
    expect(await t.db.select().from(smsReplies).where(eq(smsReplies.providerMessageId, 'in-3'))).toEqual([]);
  });

  it('a reply goes to the account that wrote to that number, not to one that wrote the same digits in another country', async () => {
    const kenyan = await seedUser(t);
    const rwandan = await seedUser(t);
    await sendThroughAt(t, at.url, { ownerId: kenyan.user.id, recipient: '+254722123456' });
    t.advanceClock(1000);
    // Later, an app in Rwanda texts its own 0722123456: the same national digits, another person.
    const rwandaApp = await seedApp(t, rwandan.auth, { country: 'rwanda' });
    const { id } = await queueSms(t.app.ctx, {
      appId: rwandaApp,
      ownerId: rwandan.user.id,
      sender: '',
      recipient: '0722123456',
      message: 'Muraho',
    });
    await createSmsDispatcher(t.app.ctx, createAfricasTalkingSmsProvider({ username: 'sandbox', apiKey: 'k', baseUrl: at.url })).runOnce();
    expect((await t.db.select().from(smsMessages).where(eq(smsMessages.id, id)))[0]!.status).toBe('SENT');

    await post('incoming', { from: '+254722123456', to: '20880', text: 'STOP', id: 'in-ke-1' });
    expect((await t.db.select().from(smsReplies).where(eq(smsReplies.providerMessageId, 'in-ke-1')))[0]!.ownerId).toBe(kenyan.user.id);
    expect(await smsConsentOf(t, kenyan.user.id, '+254722123456')).toMatchObject({ status: 'out' });
    expect(await smsConsentOf(t, rwandan.user.id, '+254722123456')).toBeNull();
    // The Rwandan number's own reply is the Rwandan account's.
    await post('incoming', { from: '+250722123456', to: '20880', text: 'Yego', id: 'in-rw-1' });
    expect((await t.db.select().from(smsReplies).where(eq(smsReplies.providerMessageId, 'in-rw-1')))[0]!.ownerId).toBe(rwandan.user.id);
  });

  it("a bulk opt-out for a sender id opts the number out for each account that sent it that sender's (or the default's) SMS", async () => {
    const shop = await seedUser(t);
    const bank = await seedUser(t);
    const other = await seedUser(t);
    await sendThroughAt(t, at.url, { ownerId: shop.user.id, recipient: '+254711000005', sender: 'MyShop' });
    await sendThroughAt(t, at.url, { ownerId: bank.user.id, recipient: '+254711000005' });
    await sendThroughAt(t, at.url, { ownerId: other.user.id, recipient: '+254711000005', sender: 'OtherCo' });

    expect((await post('opt-out', { senderId: 'MyShop', phoneNumber: '+254711000005' })).json().message).toBe('Opted out for 2 accounts');
    expect(await smsConsentOf(t, shop.user.id, '+254711000005')).toMatchObject({ status: 'out', source: 'api' });
    expect(await smsConsentOf(t, bank.user.id, '+254711000005')).toMatchObject({ status: 'out' });
    expect(await smsConsentOf(t, other.user.id, '+254711000005')).toBeNull();
  });
});

describe('without SMS_CALLBACK_TOKEN', () => {
  describeDb('the callback addresses', () => {
    const t = useTestApp({ SMS_PROVIDER: 'africastalking', AT_USERNAME: 'sandbox', AT_API_KEY: 'test-key', SMS_DISPATCH_INTERVAL_MS: 0 });
    it('answer 404 whatever token is given', async () => {
      for (const token of ['', 'x', TOKEN]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/sms/callbacks/africastalking/${token}/incoming`,
          ...form({ from: '+254711000001', text: 'STOP', id: 'x' }),
        });
        expect(res.statusCode).toBe(404);
      }
    });
  });
});

describeDb('the local outbox: replying as the recipient', () => {
  const t = useTestApp({ SMS_DISPATCH_INTERVAL_MS: 0, SMS_OUTBOX_REPLIES_PER_MINUTE: 3 });

  it("the recipient of the account's outbox SMS writes back; STOP opts them out of SMS; another account's message is 404", async () => {
    const owner = await seedUser(t);
    const other = await seedUser(t);
    const { id } = await queueSms(t.app.ctx, {
      appId: null,
      ownerId: owner.user.id,
      sender: '',
      recipient: '+233241000001',
      message: 'Hi',
    });
    await createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider).runOnce();
    const reply = (text: string, auth = owner.auth, smsId = id) =>
      t.app.inject({ method: 'POST', url: `/api/sms/outbox/${smsId}/reply`, headers: auth, payload: { text } });

    const stop = await reply(' STOP ');
    expect(stop.json()).toMatchObject({
      status: '00',
      message: 'Reply received',
      data: { msisdn: '+233241000001', text: 'STOP', consent: 'out' },
    });
    expect(await smsConsentOf(t, owner.user.id, '+233241000001')).toMatchObject({ status: 'out', source: 'keyword' });
    // Already out: a second STOP is kept as a reply and changes nothing.
    expect((await reply('stop')).json().data.consent).toBeNull();

    expect((await reply('hello', other.auth)).statusCode).toBe(404);
    expect((await reply('hello', owner.auth, crypto.randomUUID())).statusCode).toBe(404);
    expect((await reply('   ')).json()).toMatchObject({ status: '02', message: 'Write the reply' });
    expect((await reply('x'.repeat(919))).statusCode).toBe(400);
    // Three a minute here: the fourth is refused before anything is written.
    expect((await reply('again')).statusCode).toBe(429);
    const kept = await t.db.select().from(smsReplies).where(eq(smsReplies.ownerId, owner.user.id));
    expect(kept.map((r) => r.text).sort()).toEqual(['STOP', 'stop']);
  });

  it('a message a real provider sent cannot be answered from the console', async () => {
    const owner = await seedUser(t);
    const [row] = await t.db
      .insert(smsMessages)
      .values({
        ownerId: owner.user.id,
        recipient: '+233241000002',
        message: 'Hi',
        status: 'SENT',
        provider: 'africastalking',
        sentAt: new Date(),
      })
      .returning();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/sms/outbox/${row!.id}/reply`,
      headers: owner.auth,
      payload: { text: 'STOP' },
    });
    expect(res.statusCode).toBe(404);
  });
});
