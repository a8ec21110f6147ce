import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { smsMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createTestApp, seedUser, type TestApp, useTestApp } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { createSendsmsRunner } from '../../../actions/sendsms';
import { testInput, testScope } from '../../../actions/test-input';
import { createSmsDispatcher, getRetryDelayMs, queueSms } from './sms.service';

describeDb('SMS outbox (default provider)', () => {
  const t = useTestApp({ SMS_DISPATCH_INTERVAL_MS: 0 });

  it('queues a message, the dispatcher marks it SENT, and its owner lists it newest first', async () => {
    const owner = await seedUser(t);
    const appId = await seedApp(t, owner.auth);
    const ctx = t.app.ctx;
    const first = await queueSms(ctx, {
      appId,
      ownerId: owner.user.id,
      sessionId: 's1',
      sender: 'Dialflow',
      recipient: '+233 20 123 4567',
      message: 'First',
    });
    t.advanceClock(10);
    const second = await queueSms(ctx, {
      appId,
      ownerId: owner.user.id,
      sessionId: 's1',
      sender: '',
      recipient: '233201234567',
      message: 'Second',
    });

    const queued = await t.app.inject({ method: 'GET', url: `/api/sms/outbox?appId=${appId}`, headers: owner.auth });
    expect(queued.json().data.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
      [second.id, 'QUEUED'],
      [first.id, 'QUEUED'],
    ]);

    const dispatcher = createSmsDispatcher(ctx, ctx.smsProvider);
    await expect(dispatcher.runOnce()).resolves.toEqual({ sent: 2, retried: 0, failed: 0 });
    await expect(dispatcher.runOnce()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });

    const res = await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: owner.auth });
    expect(res.statusCode).toBe(200);
    const [latest, earlier] = res.json().data;
    expect(earlier).toMatchObject({
      id: first.id,
      appId,
      sessionId: 's1',
      sender: 'Dialflow',
      recipient: '+233201234567',
      message: 'First',
      status: 'SENT',
      provider: 'outbox',
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(earlier.sentAt).toEqual(expect.any(String));
    expect(earlier.providerMessageId).toMatch(/^outbox-/);
    expect(latest).toMatchObject({ id: second.id, status: 'SENT' });
  });

  it.each([
    [{ recipient: '12345' }, /7 to 15 digits/],
    [{ recipient: '+2332012345678901' }, /7 to 15 digits/],
    [{ recipient: '0244abc123' }, /7 to 15 digits/],
    [{ message: '   ' }, /empty/],
    [{ message: 'x'.repeat(919) }, /918 characters/],
    [{ sender: 'ThisNameIsTooLong' }, /sender/],
  ])('refuses %j and stores nothing', async (override, message) => {
    const owner = await seedUser(t);
    const request = { appId: null, ownerId: owner.user.id, sender: 'Shop', recipient: '+233201234567', message: 'Hello', ...override };
    await expect(queueSms(t.app.ctx, request)).rejects.toMatchObject({ kind: 'invalid', message: expect.stringMatching(message) });
    const rows = await t.db.select().from(smsMessages).where(eq(smsMessages.ownerId, owner.user.id));
    expect(rows).toHaveLength(0);
  });

  it('accepts a message of exactly 918 characters', async () => {
    const owner = await seedUser(t);
    await expect(
      queueSms(t.app.ctx, { appId: null, ownerId: owner.user.id, sender: '', recipient: '+233201234567', message: 'x'.repeat(918) }),
    ).resolves.toEqual({ id: expect.any(String) });
  });

  it("scopes the outbox: another account sees none of the owner's messages and gets 404 for the owner's app", async () => {
    const owner = await seedUser(t);
    const appId = await seedApp(t, owner.auth);
    await queueSms(t.app.ctx, { appId, ownerId: owner.user.id, sender: '', recipient: '+233201234567', message: 'Private' });
    const other = await seedUser(t);

    const mine = await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: other.auth });
    expect(mine.json()).toEqual({ status: '00', message: 'OK', data: [] });
    // The other account's own message is all it sees (the console's SMS Outbox screen reads this list).
    const otherAppId = await seedApp(t, other.auth, { appName: 'Other Shop', customShortCode: '*920*56#' });
    await queueSms(t.app.ctx, { appId: otherAppId, ownerId: other.user.id, sender: '', recipient: '+233201234568', message: 'Mine' });
    const own = (await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: other.auth })).json().data;
    expect(own.map((m: { message: string; appName: string }) => [m.message, m.appName])).toEqual([['Mine', 'Other Shop']]);
    const ownersOnly = (await t.app.inject({ method: 'GET', url: '/api/sms/outbox', headers: owner.auth })).json().data;
    expect(ownersOnly.map((m: { message: string }) => m.message)).toEqual(['Private']);
    const theirs = await t.app.inject({ method: 'GET', url: `/api/sms/outbox?appId=${appId}`, headers: other.auth });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().status).toBe('04');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sms/outbox' });
    expect(anonymous.statusCode).toBe(401);

    // The messages went to callers: admins whose roles read other accounts' sessions (DEVELOPER) see them, ADMIN does not.
    const developer = await seedUser(t, { userType: 'internal_admin', roles: ['DEVELOPER'] });
    const all = await t.app.inject({ method: 'GET', url: `/api/sms/outbox?appId=${appId}`, headers: developer.auth });
    expect(all.json().data.map((m: { message: string }) => m.message)).toEqual(['Private']);
    const admin = await seedUser(t, { userType: 'internal_admin', roles: ['ADMIN'] });
    expect((await t.app.inject({ method: 'GET', url: `/api/sms/outbox?appId=${appId}`, headers: admin.auth })).statusCode).toBe(404);
  });

  it('two dispatchers running at once send each message exactly once (claims skip locked rows)', async () => {
    const owner = await seedUser(t);
    const ctx = t.app.ctx;
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        queueSms(ctx, { appId: null, ownerId: owner.user.id, sender: '', recipient: '+233201234567', message: `m${i}` }),
      ),
    );
    const sent: string[] = [];
    const counting = {
      kind: 'outbox' as const,
      send: async (sms: { message: string }) => {
        sent.push(sms.message);
        return { status: 'SENT' as const, providerMessageId: `c-${sent.length}` };
      },
    };
    const a = createSmsDispatcher(ctx, counting, { batchSize: 7 });
    const b = createSmsDispatcher(ctx, counting, { batchSize: 5 });
    await Promise.all([a.runOnce(), b.runOnce()]);
    // Earlier tests' queued messages go out too; each of these 30 went out exactly once.
    const ours = sent.filter((m) => /^m\d+$/.test(m)).sort();
    expect(ours).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`).sort());
    const rows = await t.db.select().from(smsMessages).where(eq(smsMessages.ownerId, owner.user.id));
    expect(rows.every((r) => r.status === 'SENT' && r.attempts === 1)).toBe(true);
    expect(rows).toHaveLength(ids.length);
  });

  it('the sendsms action, wired to queueSms, answers { id, status: QUEUED } and the row is in the outbox', async () => {
    const owner = await seedUser(t);
    const appId = await seedApp(t, owner.auth);
    const runner = createSendsmsRunner({ queueSms: (sms) => queueSms(t.app.ctx, sms) });
    const notify = { appId, ownerId: owner.user.id, actionName: 'notify', menu: 'done' };
    const outcome = await runner.run(
      testInput(
        'sendsms',
        { smsSender: 'Shop', mobile: '', smsMessage: 'Thanks {{ session.inputs.name }}' },
        {
          ...notify,
          scope: testScope({ sessionId: 's-1', mobile: '+233244000111', serviceCode: '*920#', inputs: { name: 'Ama' } }, '', {
            name: 'Shop',
            shortCode: '*920#',
          }),
        },
      ),
    );
    expect(outcome).toMatchObject({ ok: true, result: { id: expect.any(String), status: 'QUEUED' } });
    const list = await t.app.inject({ method: 'GET', url: `/api/sms/outbox?appId=${appId}`, headers: owner.auth });
    expect(list.json().data).toEqual([
      expect.objectContaining({ recipient: '+233244000111', sender: 'Shop', message: 'Thanks Ama', sessionId: 's-1', status: 'QUEUED' }),
    ]);
    const refused = await runner.run(
      testInput(
        'sendsms',
        { smsSender: '', mobile: 'not a number', smsMessage: 'x' },
        { ...notify, scope: testScope({ sessionId: 's-2', mobile: '', network: '', serviceCode: '' }, '', { name: '', shortCode: '' }) },
      ),
    );
    expect(refused).toEqual({ ok: false, error: expect.stringContaining('7 to 15 digits') });
  });
});

describeDb("SMS through Africa's Talking (a local server answering as their API does)", () => {
  let t: TestApp;
  let server: Server;
  const requests: Array<{ apiKey: string | undefined; form: Record<string, string> }> = [];
  let mode: 'ok' | 'down' = 'ok';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        requests.push({ apiKey: req.headers.apikey as string | undefined, form: Object.fromEntries(new URLSearchParams(body)) });
        if (mode === 'down') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        const n = requests.length;
        res.writeHead(201, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            SMSMessageData: {
              Message: 'Sent to 1/1 Total Cost: KES 0.8000',
              Recipients: [{ statusCode: 101, number: '+254711000111', status: 'Success', cost: 'KES 0.8000', messageId: `ATXid_${n}` }],
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/version1/messaging`;
    t = await createTestApp({
      SMS_PROVIDER: 'africastalking',
      AT_USERNAME: 'sandbox',
      AT_API_KEY: 'at-key',
      AT_SMS_URL: url,
      SMS_DISPATCH_INTERVAL_MS: 0,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Queues a message from a new account; from now on the local server answers as `answer` says (sent, or a 500). */
  async function queueMessage(answer: typeof mode, sender: string, message: string) {
    requests.length = 0;
    mode = answer;
    const owner = await seedUser(t);
    return queueSms(t.app.ctx, { appId: null, ownerId: owner.user.id, sender, recipient: '+254711000111', message });
  }
  const readSms = async (id: string) => (await t.db.select().from(smsMessages).where(eq(smsMessages.id, id)))[0]!;

  it('delivers a queued message with the documented form fields and apiKey header', async () => {
    const { id } = await queueMessage('ok', 'Dialflow', 'Your code is 1234');
    const dispatcher = createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider);
    await expect(dispatcher.runOnce()).resolves.toMatchObject({ sent: 1 });
    expect(requests).toEqual([
      { apiKey: 'at-key', form: { username: 'sandbox', to: '+254711000111', message: 'Your code is 1234', from: 'Dialflow' } },
    ]);
    expect(await readSms(id)).toMatchObject({
      status: 'SENT',
      provider: 'africastalking',
      providerMessageId: 'ATXid_1',
      attempts: 1,
      lastError: null,
    });
  });

  it('retries a failing send with exponential backoff and marks it FAILED after 5 attempts', async () => {
    const { id } = await queueMessage('down', '', 'Retry me');
    const base = 1000;
    const dispatcher = createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider, { baseDelayMs: base });

    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(dispatcher.runOnce()).resolves.toMatchObject({ retried: 1, failed: 0 });
      const row = await readSms(id);
      expect(row).toMatchObject({ status: 'QUEUED', attempts: attempt, lastError: expect.stringContaining('HTTP 500') });
      const delay = getRetryDelayMs(attempt, base);
      expect(delay).toBe(base * 2 ** (attempt - 1));
      expect(row.nextAttemptAt.getTime() - t.app.ctx.now().getTime()).toBeGreaterThan(delay - 1000);
      // Not due yet: nothing is sent before the backoff has passed.
      await expect(dispatcher.runOnce()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
      t.advanceClock(delay + 1);
    }
    await expect(dispatcher.runOnce()).resolves.toMatchObject({ failed: 1 });
    expect(await readSms(id)).toMatchObject({ status: 'FAILED', attempts: 5, lastError: expect.stringContaining('HTTP 500') });
    expect(requests.filter((r) => r.form.message === 'Retry me')).toHaveLength(5);
    t.advanceClock(24 * 3600 * 1000);
    await expect(dispatcher.runOnce()).resolves.toEqual({ sent: 0, retried: 0, failed: 0 });
  });

  it('a message that failed once is sent on a later attempt', async () => {
    const { id } = await queueMessage('down', '', 'Second time lucky');
    const dispatcher = createSmsDispatcher(t.app.ctx, t.app.ctx.smsProvider, { baseDelayMs: 500 });
    await dispatcher.runOnce();
    mode = 'ok';
    t.advanceClock(501);
    await expect(dispatcher.runOnce()).resolves.toMatchObject({ sent: 1 });
    expect(await readSms(id)).toMatchObject({ status: 'SENT', attempts: 2, lastError: null });
  });
});
