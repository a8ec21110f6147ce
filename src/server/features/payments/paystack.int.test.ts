import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { paymentEvents, transactions } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';
import { startPayment } from './payment-start';

const SECRET = 'sk_test_dialflow_0123456789';

describeDb('payments through Paystack (a local server answering as their API does)', () => {
  let t: TestApp;
  let server: Server;
  const requests: Array<{ method: string; url: string; authorization?: string; body: Record<string, unknown> }> = [];
  let answer: { status: number; body: unknown };
  // Paystack's record of each charge (from the charge requests it received), as GET /transaction/verify shows it.
  const charged = new Map<string, { amount: number; currency: string }>();
  let verifyAnswer: (reference: string) => { status: number; body: unknown };
  const verifiedAs = (reference: string, overrides: Record<string, unknown> = {}) => ({
    status: 200,
    body: {
      status: true,
      message: 'Verification successful',
      data: {
        id: paystackId(reference),
        domain: 'test',
        status: 'success',
        reference,
        ...charged.get(reference),
        gateway_response: 'Approved',
        channel: 'mobile_money',
        paid_at: '2026-11-22T09:15:02.000Z',
        ...overrides,
      },
    },
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body || '{}');
        requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body: parsed });
        const verify = /^\/transaction\/verify\/([^/?]+)$/.exec(req.url!);
        if (typeof parsed.reference === 'string') charged.set(parsed.reference, { amount: parsed.amount, currency: parsed.currency });
        const reply = req.method === 'GET' && verify ? verifyAnswer(decodeURIComponent(verify[1]!)) : answer;
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({ PAYMENT_PROVIDER: 'paystack', PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_BASE_URL: baseUrl });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    requests.length = 0;
    verifyAnswer = (reference) => verifiedAs(reference);
    answer = {
      status: 200,
      body: {
        status: true,
        message: 'Charge attempted',
        data: { status: 'pay_offline', display_text: 'Please complete authorization process on your mobile phone' },
      },
    };
  });

  const provider = () => t.app.ctx.paymentProviders.configured;
  const readTx = async (reference: string) => (await t.db.select().from(transactions).where(eq(transactions.reference, reference)))[0]!;
  const countEvents = async (reference: string) =>
    (await t.db.select({ n: count() }).from(paymentEvents).where(eq(paymentEvents.reference, reference)))[0]!.n;
  const webhook = (raw: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/callback/paystack',
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-paystack-signature': signature } : {}) },
      payload: raw,
    });
  const sign = (raw: string, key = SECRET) => createHmac('sha512', key).update(raw).digest('hex');
  // Paystack's data.id is its transaction's id: one per reference.
  const paystackIds = new Map<string, number>();
  const paystackId = (reference: string) => {
    if (!paystackIds.has(reference)) paystackIds.set(reference, 4099260516 + paystackIds.size);
    return paystackIds.get(reference)!;
  };
  const chargeEvent = (reference: string, overrides: Record<string, unknown> = {}, event = 'charge.success') =>
    JSON.stringify({
      event,
      data: {
        id: paystackId(reference),
        domain: 'test',
        status: 'success',
        reference,
        amount: 2000,
        currency: 'GHS',
        channel: 'mobile_money',
        ...overrides,
      },
    });

  async function start() {
    const owner = await seedUser(t);
    const result = await startPayment(t.app.ctx, provider(), {
      appId: null,
      ownerId: owner.user.id,
      mobile: '233551234987',
      amount: '20',
      network: 'Vodafone',
    });
    return { owner, ...result };
  }

  it("sends the documented charge request and answers PENDING with Paystack's words for the payer", async () => {
    const { reference, status, message, owner } = await start();
    expect({ status, message }).toEqual({ status: 'PENDING', message: 'Please complete authorization process on your mobile phone' });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      url: '/charge',
      authorization: `Bearer ${SECRET}`,
      body: { email: owner.email, amount: 2000, currency: 'GHS', reference, mobile_money: { phone: '0551234987', provider: 'vod' } },
    });
    expect(await readTx(reference)).toMatchObject({
      status: 'PENDING',
      amount: '20.00',
      metadata: expect.objectContaining({ provider: 'paystack', providerReference: reference }),
    });
  });

  it('a webhook with the right HMAC-SHA512 settles the payment; its redelivery settles nothing more', async () => {
    const { reference } = await start();
    const raw = chargeEvent(reference);
    const res = await webhook(raw, sign(raw));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: '00', message: 'OK' });
    const settled = await readTx(reference);
    expect(settled).toMatchObject({
      status: 'SUCCESS',
      metadata: expect.objectContaining({ settledBy: `charge.success:${paystackId(reference)}` }),
    });

    t.advanceClock(5000);
    expect((await webhook(raw, sign(raw))).json()).toEqual({ status: '00', message: 'Already processed' });
    expect(await readTx(reference)).toEqual(settled);
    expect(await countEvents(reference)).toBe(1);
  });

  it.each([
    ['a wrong signature', (raw: string) => ({ raw, signature: sign(raw, 'sk_test_someone_else') })],
    ['no signature', (raw: string) => ({ raw, signature: undefined })],
    ['an amount raised after signing', (raw: string) => ({ raw: raw.replace('"amount":2000', '"amount":9000'), signature: sign(raw) })],
    ['a SHA-256 signature', (raw: string) => ({ raw, signature: createHmac('sha256', SECRET).update(raw).digest('hex') })],
  ])('a webhook with %s is rejected with 401 and settles nothing', async (_name, tamper) => {
    const { reference } = await start();
    const { raw, signature } = tamper(chargeEvent(reference));
    const res = await webhook(raw, signature);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: '05', message: 'Invalid signature' });
    expect((await readTx(reference)).status).toBe('PENDING');
    expect(await countEvents(reference)).toBe(0);
  });

  it('a genuine charge for another amount does not count as paid', async () => {
    const { reference } = await start();
    verifyAnswer = (ref) => verifiedAs(ref, { amount: 100 });
    const raw = chargeEvent(reference, { amount: 100 });
    expect((await webhook(raw, sign(raw))).statusCode).toBe(200);
    expect(await readTx(reference)).toMatchObject({
      status: 'FAILED',
      metadata: expect.objectContaining({ failureReason: 'paid GHS 1 instead of GHS 20.00' }),
    });
  });

  it("confirms a success with Paystack's verify endpoint before settling it", async () => {
    const { reference } = await start();
    requests.length = 0;
    const raw = chargeEvent(reference, { amount: undefined, currency: undefined });
    expect((await webhook(raw, sign(raw))).json()).toEqual({ status: '00', message: 'OK' });
    expect(requests).toEqual([{ method: 'GET', url: `/transaction/verify/${reference}`, authorization: `Bearer ${SECRET}`, body: {} }]);
    expect((await readTx(reference)).status).toBe('SUCCESS');
  });

  it.each([
    [
      'no amount, and Paystack recorded another amount',
      { amount: undefined, currency: undefined },
      { amount: 100 },
      'paid GHS 1 instead of GHS 20.00',
    ],
    ['the right amount, but Paystack recorded another amount', {}, { amount: 100 }, 'paid GHS 1 instead of GHS 20.00'],
    ['the right amount, but Paystack recorded another currency', {}, { currency: 'NGN' }, 'paid NGN 20 instead of GHS 20.00'],
    [
      "the right amount, but Paystack's record has none",
      {},
      { amount: undefined },
      'the success did not state the amount and currency paid',
    ],
    [
      'the right amount, but Paystack reports the charge abandoned',
      {},
      { status: 'abandoned', gateway_response: 'The transaction was not completed' },
      'Paystack reports the charge abandoned: The transaction was not completed',
    ],
  ])('a correctly signed charge.success with %s is not SUCCESS: FAILED with the reason, once', async (_name, event, record, reason) => {
    const { reference } = await start();
    verifyAnswer = (ref) => verifiedAs(ref, record);
    const raw = chargeEvent(reference, event);
    expect((await webhook(raw, sign(raw))).json()).toEqual({ status: '00', message: 'OK' });
    const settled = await readTx(reference);
    expect(settled).toMatchObject({
      status: 'FAILED',
      metadata: expect.objectContaining({ failureReason: reason, settledBy: `charge.success:${paystackId(reference)}` }),
    });
    requests.length = 0;
    expect((await webhook(raw, sign(raw))).json()).toEqual({ status: '00', message: 'Already processed' });
    expect(requests).toEqual([]);
    expect(await readTx(reference)).toEqual(settled);
    expect(await countEvents(reference)).toBe(1);
  });

  it('a success for a charge Paystack does not know is FAILED', async () => {
    const { reference } = await start();
    verifyAnswer = () => ({
      status: 400,
      body: { status: false, message: 'Transaction reference not found', type: 'validation_error', code: 'transaction_not_found' },
    });
    const raw = chargeEvent(reference);
    await webhook(raw, sign(raw));
    expect(await readTx(reference)).toMatchObject({
      status: 'FAILED',
      metadata: expect.objectContaining({ failureReason: 'Paystack has no such charge (Transaction reference not found)' }),
    });
  });

  it.each([
    ['Paystack is down', () => ({ status: 503, body: {} })],
    ['the charge is not final at Paystack yet', (ref: string) => verifiedAs(ref, { status: 'ongoing' })],
  ])(
    'when %s, a success is not stored and answers 502, so Paystack sends it again; the redelivery settles it',
    async (_name, unavailable) => {
      const { reference } = await start();
      verifyAnswer = unavailable;
      const raw = chargeEvent(reference);
      const res = await webhook(raw, sign(raw));
      expect(res.statusCode).toBe(502);
      expect(res.json().status).toBe('03');
      expect(await readTx(reference)).toMatchObject({ status: 'PENDING' });
      expect(await countEvents(reference)).toBe(0);

      verifyAnswer = (ref) => verifiedAs(ref);
      expect((await webhook(raw, sign(raw))).json()).toEqual({ status: '00', message: 'OK' });
      expect((await readTx(reference)).status).toBe('SUCCESS');
      expect(await countEvents(reference)).toBe(1);
    },
  );

  it('charge.failed marks the payment FAILED; an unrelated event is stored and settles nothing', async () => {
    const { reference } = await start();
    const unrelated = JSON.stringify({ event: 'transfer.success', data: { id: 1, reference } });
    expect((await webhook(unrelated, sign(unrelated))).json()).toEqual({ status: '00', message: 'OK' });
    expect((await readTx(reference)).status).toBe('PENDING');
    const failed = chargeEvent(reference, { status: 'failed' }, 'charge.failed');
    await webhook(failed, sign(failed));
    expect((await readTx(reference)).status).toBe('FAILED');
    expect(await countEvents(reference)).toBe(2);
  });

  it('a charge Paystack refuses is FAILED at once', async () => {
    answer = {
      status: 400,
      body: { status: false, message: 'Charge attempted', data: { status: 'failed', message: 'Invalid Mobile Number' } },
    };
    const { reference, status, message } = await start();
    expect({ status, message }).toEqual({ status: 'FAILED', message: 'Invalid Mobile Number' });
    expect(await readTx(reference)).toMatchObject({
      status: 'FAILED',
      metadata: expect.objectContaining({ error: 'Invalid Mobile Number' }),
    });
  });

  it('Paystack down: the action learns of it (upstream) and the transaction stays PENDING for a late webhook', async () => {
    answer = { status: 503, body: {} };
    const owner = await seedUser(t);
    await expect(
      startPayment(t.app.ctx, provider(), { appId: null, ownerId: owner.user.id, mobile: '233551234987', amount: '20', network: 'MTN' }),
    ).rejects.toMatchObject({ kind: 'upstream' });
    const [row] = await t.db.select().from(transactions).where(eq(transactions.userId, owner.user.id));
    expect(row).toMatchObject({ status: 'PENDING', metadata: expect.objectContaining({ error: 'provider unreachable' }) });
    const raw = chargeEvent(row!.reference);
    await webhook(raw, sign(raw));
    expect((await readTx(row!.reference)).status).toBe('SUCCESS');
  });

  it('with Paystack as the provider, the sandbox checkout neither shows nor settles its transactions and the sandbox callback does not exist', async () => {
    const { reference } = await start();
    expect((await t.app.inject({ method: 'GET', url: `/payments/sandbox/${reference}` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/payments/sandbox/${reference}/decide`, payload: { decision: 'approve' } })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/payments/callback/sandbox', payload: {} })).statusCode).toBe(404);
    expect((await readTx(reference)).status).toBe('PENDING');
  });
});
