import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../../db/schema';
import {
  createApiClient,
  createTestApp,
  type SeededUser,
  seedUser,
  useTestApp,
  useUser,
  type TestApp,
} from '../../../../tests/support/test-app';
import { describeDb } from '../../../../tests/support/test-db';
import { seedApp, seedShop } from '../../../../tests/support/seed-app';
import { startPayment } from '../payments/payment-start';
import { createHttpCallRules } from '../runtime/runners';
import { DELIVERY_RETENTION_MS, WEBHOOK_RETRY_DELAYS_MS, createWebhookDispatcher } from './webhook-dispatcher';

/** What a receiver got: the raw body, its headers, and the parsed event. */
interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
  event: { id: string; type: string; createdAt: string; appId: string; data: Record<string, unknown> };
}

/**
 * A real HTTP receiver on 127.0.0.1: answers each request with the next status of `answers` (200 once they run
 * out); 'hang' never answers, so the sender's timeout ends the attempt.
 */
function startReceiver() {
  const received: Received[] = [];
  const answers: Array<number | 'hang'> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ body, headers: req.headers, event: JSON.parse(body) });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'thanks' : `receiver broke (${answer})`);
    });
  });
  return {
    received,
    answers,
    server,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/dialflow`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The receiver's check, as docs/webhooks.md shows it: HMAC-SHA256 of "<t>.<raw body>" with the secret, in constant time. */
function verifySignature(header: string, body: string, secret: string): { t: number; isValid: boolean } {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const isValid = !!parts.v1 && parts.v1.length === expected.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
  return { t: Number(parts.t), isValid };
}

describeDb('webhooks', () => {
  // Loopback is allowed by the operator's setting, as the restapi action's tests do, so the receiver can be local.
  const t = useTestApp({
    ALLOW_PRIVATE_NETWORK: true,
    WEBHOOK_TIMEOUT_MS: 300,
    // One account sends many test events here; the limit has its own test below.
    WEBHOOK_TEST_RATE_LIMIT: 1000,
    SANDBOX_PAYMENT_SECRET: 'sandbox-secret-for-tests-0123456789',
  });
  const owner = useUser(t);
  const stranger = useUser(t);
  const receiver = startReceiver();
  let url: string;
  beforeAll(async () => {
    url = await receiver.listen();
  });
  afterAll(() => receiver.close());

  const api = () => createApiClient(t, owner);
  const deliver = () => t.app.webhookDispatcher.deliverDue();
  const readDeliveries = async (appId: string, user: Pick<SeededUser, 'auth'> = owner) =>
    (await createApiClient(t, user).get(`/api/apps/${appId}/webhook/deliveries`)).json().data as Array<Record<string, unknown>>;

  /** An app with its webhook; `user` (owner by default) is whose account's webhook slots its deliveries use. */
  async function createHookedApp(
    events = ['session.completed', 'session.abandoned', 'payment.settled'],
    user: Pick<SeededUser, 'auth'> = owner,
  ) {
    const appId = await seedShop(t, user.auth);
    const saved = await createApiClient(t, user).post(`/api/apps/${appId}/webhook`, { url, events, isEnabled: true });
    expect(saved.statusCode, saved.body).toBe(200);
    return { appId, secret: saved.json().data.secret as string };
  }

  const dial = (appId: string, sessionId: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url: `/ussd/${appId}/test`,
      payload: { sessionId, serviceCode: '*920*55#', phoneNumber: '233241112222', networkCode: '62001', text },
    });

  it('a session completed through the runtime is sent once, signed with the secret, with a timestamp and a stable id', async () => {
    const { appId, secret } = await createHookedApp();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await dial(appId, 'done-1', '')).body).toContain('CON Welcome');
    expect((await dial(appId, 'done-1', '1')).body).toContain('CON Enter amount');
    expect((await dial(appId, 'done-1', '1*20')).body).toBe('END You chose Airtime for GHS 20');
    await t.app.runtime.flushEvents();
    const before = receiver.received.length;
    expect(await deliver()).toBe(1);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const { body, headers, event } = got[0]!;
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_ses_\d+$/),
      type: 'session.completed',
      appId,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        sessionId: 'done-1',
        environment: 'test',
        mobile: '233241112222',
        // The menu it ended on by its identifier, as `inputs` are keyed; its id beside it.
        lastMenu: 'done',
        lastMenuId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        inputs: { product: '1', amount: '20' },
        hopCount: 3,
        // Why it ended: on the shop's closing menu.
        endCause: 'completed',
      },
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['dialflow-event-id']).toBe(event.id);
    // Marked as ours: forwarded back to a gateway URL, it would be refused (plugins/action-hops.ts).
    expect(headers['dialflow-hop']).toBe('1');
    const { t: timestamp, isValid } = verifySignature(String(headers['dialflow-signature']), body, secret);
    expect(isValid).toBe(true);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(120);
    expect(verifySignature(String(headers['dialflow-signature']), body, 'whsec_wrong').isValid).toBe(false);
    expect(verifySignature(String(headers['dialflow-signature']), body.replace('done-1', 'done-2'), secret).isValid).toBe(false);

    const [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({
      eventId: event.id,
      eventType: 'session.completed',
      status: 'delivered',
      attemptCount: 1,
      lastResponseStatus: 200,
      lastResponseExcerpt: 'thanks',
      nextAttemptAt: null,
      lastError: null,
      requestBody: body,
    });
    // Nothing is due any more: a second run sends nothing.
    expect(await deliver()).toBe(0);
  });

  it('an abandoned session (timed out, swept) is sent as session.abandoned; an unticked type is not queued', async () => {
    const { appId } = await createHookedApp(['session.abandoned']);
    await dial(appId, 'idle-1', '');
    await dial(appId, 'ends-1', '');
    await dial(appId, 'ends-1', '1');
    await dial(appId, 'ends-1', '1*5');
    t.advanceClock(181_000);
    await t.app.runtime.sweepExpired();
    await t.app.runtime.flushEvents();
    const rows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.appId, appId));
    expect(rows.map((r) => [r.eventType, (r.data as { sessionId: string }).sessionId])).toEqual([['session.abandoned', 'idle-1']]);
    const before = receiver.received.length;
    await deliver();
    expect(receiver.received.slice(before).map((r) => r.event.type)).toEqual(['session.abandoned']);
  });

  it('retries after a 500 and after a timeout on the backoff schedule, then delivers on a later 2xx', async () => {
    const { appId } = await createHookedApp();
    const sent = await api().post(`/api/apps/${appId}/webhook/test`, {});
    expect(sent.json()).toMatchObject({ status: '00', data: { eventType: 'webhook.test', status: 'pending' } });
    const before = receiver.received.length;
    receiver.answers.push(500, 'hang');
    await deliver();
    let [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      lastResponseStatus: 500,
      lastError: 'The endpoint answered HTTP 500',
    });
    expect(delivery!.lastResponseExcerpt).toBe('receiver broke (500)');
    const firstRetry = Date.parse(delivery!.nextAttemptAt as string) - Date.parse(delivery!.lastAttemptAt as string);
    expect(firstRetry).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0]!);
    expect(firstRetry).toBeLessThan(WEBHOOK_RETRY_DELAYS_MS[0]! + 5_000);

    // Not due yet: nothing is sent until the clock passes the first delay.
    expect(await deliver()).toBe(0);
    t.advanceClock(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await deliver();
    [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 2, lastResponseStatus: null, lastError: 'No answer within 0.3 s' });
    const secondRetry = Date.parse(delivery!.nextAttemptAt as string) - Date.parse(delivery!.lastAttemptAt as string);
    expect(secondRetry).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[1]!);

    t.advanceClock(WEBHOOK_RETRY_DELAYS_MS[1]!);
    await deliver();
    [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 3, lastResponseStatus: 200, nextAttemptAt: null });
    // Three attempts of one event: the same id and the same body each time.
    const attempts = receiver.received.slice(before);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(attempts[0]!.event).toMatchObject({ type: 'webhook.test', appId });
  });

  it('fails after the last retry, and a redelivery by hand sends the same event again', async () => {
    const { appId } = await createHookedApp();
    await api().post(`/api/apps/${appId}/webhook/test`, {});
    receiver.answers.push(...WEBHOOK_RETRY_DELAYS_MS.map(() => 503), 503);
    await deliver();
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      t.advanceClock(delay);
      await deliver();
    }
    let [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({
      status: 'failed',
      attemptCount: WEBHOOK_RETRY_DELAYS_MS.length + 1,
      nextAttemptAt: null,
      lastResponseStatus: 503,
    });
    expect(await deliver()).toBe(0);

    const before = receiver.received.length;
    const redelivered = await api().post(`/api/apps/${appId}/webhook/deliveries/${delivery!.deliveryId}/redeliver`, {});
    expect(redelivered.json()).toMatchObject({ status: '00', data: { status: 'pending' } });
    await deliver();
    [delivery] = await readDeliveries(appId);
    expect(delivery).toMatchObject({ status: 'delivered', lastResponseStatus: 200 });
    expect(receiver.received.slice(before).map((r) => r.event.id)).toEqual([delivery!.eventId]);
  });

  it('a settled payment of the app is sent as payment.settled, once', async () => {
    const { appId } = await createHookedApp(['payment.settled']);
    const provider = t.app.ctx.paymentProviders.configured;
    const started = await startPayment(t.app.ctx, provider, {
      appId,
      ownerId: owner.user.id,
      sessionId: 'pay-1',
      mobile: '+233244000111',
      amount: '12.50',
      network: 'mtn',
      shortcode: '*920*55#',
    });
    const token = new URL(started.checkoutUrl!).searchParams.get('token');
    const decided = await t.app.inject({
      method: 'POST',
      url: `/payments/sandbox/${started.reference}/decide`,
      payload: { decision: 'approve', token },
    });
    expect(decided.json()).toMatchObject({ status: '00', data: { status: 'SUCCESS' } });
    const before = receiver.received.length;
    await deliver();
    const got = receiver.received.slice(before).map((r) => r.event);
    expect(got).toEqual([
      expect.objectContaining({
        type: 'payment.settled',
        id: expect.stringMatching(/^evt_pay_[0-9a-f]{32}$/),
        data: expect.objectContaining({ reference: started.reference, status: 'SUCCESS', amount: '12.50', sessionId: 'pay-1' }),
      }),
    ]);
  });

  it('rotating the secret signs what is sent next with the new one', async () => {
    const { appId, secret } = await createHookedApp();
    const rotated = (await api().post(`/api/apps/${appId}/webhook/rotate-secret`, {})).json().data.secret as string;
    expect(rotated).not.toBe(secret);
    await api().post(`/api/apps/${appId}/webhook/test`, {});
    const before = receiver.received.length;
    await deliver();
    const [got] = receiver.received.slice(before).filter((r) => r.event.appId === appId);
    expect(verifySignature(String(got!.headers['dialflow-signature']), got!.body, rotated).isValid).toBe(true);
    expect(verifySignature(String(got!.headers['dialflow-signature']), got!.body, secret).isValid).toBe(false);
  });

  it('a turned-off webhook queues nothing and refuses a test event; bad input is refused and changes nothing', async () => {
    const { appId } = await createHookedApp();
    const off = await api().post(`/api/apps/${appId}/webhook`, { url, events: ['session.completed'], isEnabled: false });
    expect(off.json().data).toMatchObject({ isEnabled: false, events: ['session.completed'] });
    await dial(appId, 'off-1', '');
    await dial(appId, 'off-1', '1');
    await dial(appId, 'off-1', '1*3');
    await t.app.runtime.flushEvents();
    expect(await readDeliveries(appId)).toEqual([]);
    const test = await api().post(`/api/apps/${appId}/webhook/test`, {});
    expect(test.statusCode).toBe(400);
    expect(test.json().message).toBe('Turn the webhook on (and save) to send a test event');

    for (const [body, message] of [
      [{ url: 'ftp://example.com/x', events: ['session.completed'], isEnabled: true }, 'Enter the full URL'],
      [{ url: 'not a url', events: ['session.completed'], isEnabled: true }, 'Enter the full URL'],
      [{ url: 'https://u:p@example.com/x', events: ['session.completed'], isEnabled: true }, 'user name and password'],
      [{ url, events: [], isEnabled: true }, 'Tick at least one event'],
      [{ url, events: ['session.exploded'], isEnabled: true }, ''],
    ] as const) {
      const res = await api().post(`/api/apps/${appId}/webhook`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect((await api().get(`/api/apps/${appId}/webhook`)).json().data).toMatchObject({
      url,
      isEnabled: false,
      events: ['session.completed'],
    });
  });

  it('two dispatchers on one database (two processes) send each delivery once', async () => {
    const apps = [await createHookedApp(), await createHookedApp(), await createHookedApp()];
    for (const { appId } of apps) for (let i = 0; i < 3; i++) await api().post(`/api/apps/${appId}/webhook/test`, {});
    const other = createWebhookDispatcher(t.app.ctx, {
      intervalMs: 0,
      timeoutMs: 1000,
      rules: createHttpCallRules(t.app.ctx),
      perAccount: 1,
    });
    const before = receiver.received.length;
    try {
      // One account: at most two of its deliveries in flight at once across both processes.
      for (let round = 0; round < 9; round++) await Promise.all([deliver(), other.deliverDue()]);
    } finally {
      await other.close();
    }
    const ids = receiver.received.slice(before).map((r) => r.event.id);
    expect(ids).toHaveLength(9);
    expect(new Set(ids).size).toBe(9);
    for (const { appId } of apps)
      expect((await readDeliveries(appId)).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it("a receiver that never answers holds its own account's slots, never another account's deliveries", async () => {
    const slow = startReceiver();
    const slowUrl = await slow.listen();
    try {
      const stuck = await createHookedApp();
      await api().post(`/api/apps/${stuck.appId}/webhook`, { url: slowUrl, events: ['session.completed'], isEnabled: true });
      for (let i = 0; i < 5; i++) {
        slow.answers.push('hang');
        await api().post(`/api/apps/${stuck.appId}/webhook/test`, {});
      }
      const theirs = createApiClient(t, stranger);
      const healthy = { appId: await seedShop(t, stranger.auth) };
      await theirs.post(`/api/apps/${healthy.appId}/webhook`, { url, events: ['session.completed'], isEnabled: true });
      await theirs.post(`/api/apps/${healthy.appId}/webhook/test`, {});
      // Two ticks while the stuck app's first attempts hang: the second takes none of its other deliveries.
      await t.app.webhookDispatcher.runOnce();
      await t.app.webhookDispatcher.runOnce();
      await deliver();
      const healthyRows = (await theirs.get(`/api/apps/${healthy.appId}/webhook/deliveries`)).json().data as Array<{ status: string }>;
      expect(healthyRows.map((d) => d.status)).toEqual(['delivered']);
      const stuckAttempts = (await readDeliveries(stuck.appId)).map((d) => d.attemptCount).sort();
      expect(stuckAttempts).toEqual([0, 0, 0, 1, 1]);
    } finally {
      await slow.close();
    }
  });

  it('picks up a delivery whose sender stopped mid-send once its lease ends (a restart), and not before', async () => {
    // An account of its own: the lease left running holds one of its account's slots.
    const user = await seedUser(t);
    const { appId } = await createHookedApp(undefined, user);
    const now = Date.now() + 10 * 86_400_000;
    const row = { appId, eventType: 'webhook.test', data: {}, occurredAt: new Date(), status: 'sending', attemptCount: 1 };
    await t.db.insert(webhookDeliveries).values([
      { ...row, eventId: `evt_test_lapsed_${appId}`, nextAttemptAt: new Date(now - 365 * 86_400_000) },
      { ...row, eventId: `evt_test_leased_${appId}`, nextAttemptAt: new Date(now + 365 * 86_400_000) },
    ]);
    const before = receiver.received.length;
    await deliver();
    expect(receiver.received.slice(before).map((r) => r.event.id)).toEqual([`evt_test_lapsed_${appId}`]);
    const byId = Object.fromEntries((await readDeliveries(appId, user)).map((d) => [d.eventId, d]));
    expect(byId[`evt_test_lapsed_${appId}`]).toMatchObject({ status: 'delivered', attemptCount: 2 });
    expect(byId[`evt_test_leased_${appId}`]).toMatchObject({ status: 'sending', attemptCount: 1 });
  });

  it('deletes finished deliveries past their retention, and keeps pending ones however old', async () => {
    const user = await seedUser(t);
    const { appId } = await createHookedApp(undefined, user);
    const old = new Date(Date.now() - DELIVERY_RETENTION_MS - 86_400_000);
    const row = { appId, eventType: 'webhook.test', data: {}, occurredAt: old, createdAt: old };
    await t.db.insert(webhookDeliveries).values([
      { ...row, eventId: `evt_test_old_done_${appId}`, status: 'delivered' },
      { ...row, eventId: `evt_test_old_failed_${appId}`, status: 'failed' },
      { ...row, eventId: `evt_test_old_waiting_${appId}`, status: 'pending', nextAttemptAt: new Date(Date.now() + 365 * 86_400_000) },
    ]);
    await createApiClient(t, user).post(`/api/apps/${appId}/webhook/test`, {});
    // A dispatcher of its own: the server's may have pruned in an earlier test (once an hour of its clock).
    const fresh = createWebhookDispatcher(t.app.ctx, { intervalMs: 0, timeoutMs: 1000, rules: createHttpCallRules(t.app.ctx) });
    try {
      await fresh.deliverDue();
    } finally {
      await fresh.close();
    }
    const rows = (await createApiClient(t, user).get(`/api/apps/${appId}/webhook/deliveries`)).json().data as Array<
      Record<string, unknown>
    >;
    expect(rows.map((d) => [d.eventType, d.status]).sort()).toEqual([
      ['webhook.test', 'delivered'],
      ['webhook.test', 'pending'],
    ]);
  });

  it("another account's app and delivery ids answer 404 and change nothing", async () => {
    const { appId } = await createHookedApp();
    await api().post(`/api/apps/${appId}/webhook/test`, {});
    const [delivery] = await readDeliveries(appId);
    const theirs = createApiClient(t, stranger);
    const strangerApp = await seedApp(t, stranger.auth);
    for (const res of [
      await theirs.get(`/api/apps/${appId}/webhook`),
      await theirs.post(`/api/apps/${appId}/webhook`, { url: 'https://example.com/steal', events: ['session.completed'], isEnabled: true }),
      await theirs.post(`/api/apps/${appId}/webhook/rotate-secret`, {}),
      await theirs.post(`/api/apps/${appId}/webhook/test`, {}),
      await theirs.get(`/api/apps/${appId}/webhook/deliveries`),
      await theirs.post(`/api/apps/${appId}/webhook/deliveries/${delivery!.deliveryId}/redeliver`, {}),
      // Their own app id with the owner's delivery id.
      await theirs.post(`/api/apps/${strangerApp}/webhook/deliveries/${delivery!.deliveryId}/redeliver`, {}),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().status).toBe('04');
    }
    const [hook] = await t.db.select().from(webhooks).where(eq(webhooks.appId, appId));
    expect(hook!.url).toBe(url);
    expect(await readDeliveries(appId)).toHaveLength(1);
  });
});

describeDb('webhooks under the default outbound rules', () => {
  let t: TestApp;
  const receiver = startReceiver();
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_TIMEOUT_MS: 1000 });
    url = await receiver.listen();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  describe('private addresses', () => {
    it('are refused when the URL is saved, with a clear message, and nothing is stored', async () => {
      const { auth } = await seedUser(t);
      const appId = await seedApp(t, auth);
      // A private address names the settings that would allow it; no setting allows a metadata address.
      const allows = (hostPort: string) =>
        `. A self-hosted installation allows private addresses with ALLOW_PRIVATE_NETWORK=true, or this one with OUTBOUND_ALLOW_HOSTS=${hostPort}.`;
      for (const [target, message, hint] of [
        ['http://10.0.0.1/hook', 'Refused: 10.0.0.1 is a private address (private)', allows('10.0.0.1:80')],
        ['https://192.168.1.1:8443/hook', 'Refused: 192.168.1.1 is a private address (private)', allows('192.168.1.1:8443')],
        ['http://169.254.169.254/latest', 'Refused: 169.254.169.254 is a cloud metadata address', ''],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/apps/${appId}/webhook`,
          headers: auth,
          payload: { url: target, events: ['session.completed'], isEnabled: true },
        });
        expect(res.statusCode, target).toBe(400);
        expect(res.json()).toMatchObject({ status: '02', message: `${message}${hint}` });
      }
      expect(await t.db.select().from(webhooks).where(eq(webhooks.appId, appId))).toEqual([]);
    });

    it('are refused again when sending (the address a name resolves to may change after it was saved)', async () => {
      const { auth } = await seedUser(t);
      const appId = await seedApp(t, auth);
      // As if the URL had passed the check and its name had later come to resolve to this machine.
      await t.db.insert(webhooks).values({ appId, url, events: ['session.completed'], isEnabled: true, secret: 'whsec_x' });
      const test = await t.app.inject({ method: 'POST', url: `/api/apps/${appId}/webhook/test`, headers: auth });
      expect(test.statusCode).toBe(200);
      await t.app.webhookDispatcher.deliverDue();
      const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.appId, appId));
      expect(row).toMatchObject({ status: 'pending', attemptCount: 1, lastResponseStatus: null });
      expect(row!.lastError).toContain('Refused: 127.0.0.1 is a private address');
      expect(receiver.received).toEqual([]);
    });
  });
});

describeDb('webhook test events', () => {
  const t = useTestApp({ ALLOW_PRIVATE_NETWORK: true });
  const owner = useUser(t);
  const other = useUser(t);

  it('are limited per account (all its apps together), then answered 429 and queue nothing', async () => {
    const hooked = async (user: typeof owner) => {
      const appId = await seedApp(t, user.auth);
      await createApiClient(t, user).post(`/api/apps/${appId}/webhook`, {
        url: 'http://127.0.0.1:9/h',
        events: ['session.completed'],
        isEnabled: true,
      });
      return appId;
    };
    const apps = [await hooked(owner), await hooked(owner)];
    const send = (user: typeof owner, appId: string) => createApiClient(t, user).post(`/api/apps/${appId}/webhook/test`, {});
    for (let i = 0; i < t.app.ctx.config.WEBHOOK_TEST_RATE_LIMIT; i++) expect((await send(owner, apps[i % 2]!)).statusCode).toBe(200);
    const refused = await send(owner, apps[0]!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: 'Too many attempts. Please wait a minute and try again.' });
    expect((await send(owner, apps[1]!)).statusCode).toBe(429);
    const queued = await t.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.appId, apps));
    expect(queued).toHaveLength(t.app.ctx.config.WEBHOOK_TEST_RATE_LIMIT);
    // Another account's limit is its own.
    expect((await send(other, await hooked(other))).statusCode).toBe(200);
  });
});
