import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { smsMessages, transactions } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type TestApp } from '../../../../tests/support/test-app';
import { seedFeaturedTemplates } from '../templates/templates.service';
import { createSmsDispatcher } from '../sms/sms.service';

type Headers = Record<string, string>;
const AIRTIME = 0;
const EVENT_REGISTRATION = 5;

/**
 * A featured template can be run by anyone, signed in or not: its payment prompts and SMS are test runs. With
 * Paystack and Africa's Talking configured (a local server answering as both), none of them may reach either.
 */
describeDb('featured template runs never move money or send real messages', () => {
  let t: TestApp;
  let server: Server;
  const calls: Array<{ url: string; body: string }> = [];
  let templates: string[];
  let runner: Awaited<ReturnType<typeof seedUser>>;
  let addresses = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        calls.push({ url: req.url!, body });
        const answer = req.url!.startsWith('/paystack/')
          ? { status: true, message: 'Charge attempted', data: { status: 'pay_offline', display_text: 'Approve on your phone' } }
          : {
              SMSMessageData: {
                Message: 'Sent to 1/1',
                Recipients: [
                  { statusCode: 101, number: '+233241234567', status: 'Success', cost: 'GHS 0.03', messageId: `ATXid_${calls.length}` },
                ],
              },
            };
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({
      PAYMENT_PROVIDER: 'paystack',
      PAYSTACK_SECRET_KEY: 'sk_test_template_runs',
      PAYSTACK_BASE_URL: `${base}/paystack`,
      SMS_PROVIDER: 'africastalking',
      AT_USERNAME: 'sandbox',
      AT_API_KEY: 'at-key',
      AT_SMS_URL: `${base}/version1/messaging`,
      SMS_DISPATCH_INTERVAL_MS: 0,
      EMULATOR_RATE_LIMIT: 8,
    });
    const operator = await seedUser(t);
    templates = await seedFeaturedTemplates(t.db, operator.user.id, base);
    runner = await seedUser(t);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    calls.length = 0;
  });

  /** One emulator caller: a signed-in user, or a visitor keeping the browser id it was given. Each has its own address. */
  function createCaller(auth: Headers = {}) {
    const remoteAddress = `198.51.100.${++addresses}`;
    let cookie = '';
    const sessionId = `20261122120000-${addresses}`;
    return async (appId: string, mode: 'start' | 'continue', userdata: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${appId}`,
        remoteAddress,
        headers: { ...auth, ...(cookie ? { cookie } : {}) },
        payload: { session_id: sessionId, userdata, msisdn: '233241234567', session_mode: mode, network_id: 'MTN', appId },
      });
      cookie ||= String(res.headers['set-cookie'] ?? '').split(';')[0]!;
      expect(res.statusCode).toBe(200);
      return res.json().text as string;
    };
  }

  /** Dials Airtime Top-Up, tops up the caller's own number with GHS 500 and confirms; answers the payment's reference. */
  async function buyAirtime(emulate: ReturnType<typeof createCaller>, appId: string): Promise<string> {
    await emulate(appId, 'start', '*920*11#');
    await emulate(appId, 'continue', '1');
    await emulate(appId, 'continue', '500');
    const text = await emulate(appId, 'continue', '1');
    expect(text).toMatch(/^Approve the GHS 500 prompt on your phone\. Ref DF-/);
    return text.match(/DF-[0-9A-F]+/)![0];
  }

  const readTransaction = async (reference: string) =>
    (await t.db.select().from(transactions).where(eq(transactions.reference, reference)))[0]!;

  it('charges through the sandbox, never Paystack, for a visitor and for a signed-in user', async () => {
    for (const emulate of [createCaller(), createCaller(runner.auth)]) {
      const reference = await buyAirtime(emulate, templates[AIRTIME]!);
      const row = await readTransaction(reference);
      expect(row).toMatchObject({
        amount: '500.00',
        status: 'PENDING',
        userId: null,
        metadata: expect.objectContaining({ provider: 'sandbox' }),
      });
      // The sandbox checkout serves it (from its link, token included) even though Paystack is the provider.
      const checkoutUrl = new URL((row.metadata as { checkoutUrl: string }).checkoutUrl);
      expect((await t.app.inject({ method: 'GET', url: checkoutUrl.pathname + checkoutUrl.search })).statusCode).toBe(200);
    }
    expect(calls).toEqual([]);
    // The signed-in runner's console does not list it: the row belongs to no account.
    const listed = await t.app.inject({ method: 'GET', url: '/api/payments/transactions', headers: runner.auth });
    expect(listed.json().data).toEqual([]);
  });

  it("keeps a template's SMS in the outbox: the dispatcher never hands it to Africa's Talking", async () => {
    const emulate = createCaller();
    await emulate(templates[EVENT_REGISTRATION]!, 'start', '*920*16#');
    await emulate(templates[EVENT_REGISTRATION]!, 'continue', 'Ama');
    expect(await emulate(templates[EVENT_REGISTRATION]!, 'continue', '1')).toMatch(/^You're registered for Friday workshops, Ama/);
    await createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider).runOnce();
    expect(calls).toEqual([]);
    const rows = await t.db.select().from(smsMessages).where(eq(smsMessages.appId, templates[EVENT_REGISTRATION]!));
    expect(rows).toEqual([
      expect.objectContaining({ status: 'SENT', provider: 'outbox', ownerId: null, message: expect.stringContaining('Hi Ama') }),
    ]);
  });

  it("the same flows in an account's own copy of the templates do reach Paystack and Africa's Talking", async () => {
    // The control: the local server does stand in for both providers, so the silence above is the sandbox's doing.
    const owner = await seedUser(t);
    const clone = async (appId: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/cloneApp',
        headers: owner.auth,
        payload: { appId, appName: 'Mine', description: 'A copy' },
      });
      return res.json().data.appId as string;
    };
    const emulate = createCaller(owner.auth);
    const reference = await buyAirtime(emulate, await clone(templates[AIRTIME]!));
    expect((await readTransaction(reference)).metadata).toMatchObject({ provider: 'paystack' });
    const events = await clone(templates[EVENT_REGISTRATION]!);
    await emulate(events, 'start', '*920*16#');
    await emulate(events, 'continue', 'Ama');
    await emulate(events, 'continue', '1');
    await createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider).runOnce();
    expect(calls.map((c) => c.url)).toEqual(['/paystack/charge', '/version1/messaging']);
  });

  it('limits a visitor to EMULATOR_RATE_LIMIT hops a minute per address; signed-in users are not counted', async () => {
    const visitor = createCaller();
    for (let i = 0; i < 8; i++) await visitor(templates[AIRTIME]!, 'start', '*920*11#');
    const remoteAddress = `198.51.100.${addresses}`;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/ussd-emulator/${templates[AIRTIME]}`,
      remoteAddress,
      payload: { session_id: 'x-1', userdata: '*920*11#', msisdn: '233241234567', session_mode: 'start', network_id: 'MTN' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many/);

    // A signed-in user at that same address goes on.
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/ussd-emulator/${templates[AIRTIME]}`,
        remoteAddress,
        headers: runner.auth,
        payload: { session_id: `signed-in-${i}`, userdata: '*920*11#', msisdn: '233241234567', session_mode: 'start', network_id: 'MTN' },
      });
      expect(res.statusCode).toBe(200);
    }
  });
});
