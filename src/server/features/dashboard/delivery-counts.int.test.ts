import { beforeAll, expect, it } from 'vitest';
import { whatsappMessages } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';

const HOUR = 3_600_000;

/**
 * The dashboard's WhatsApp delivery counts: a bot's sent messages in the period by where each stands now, by hour
 * or day, and the commonest failures; one environment at a time, one account's bot only.
 */
describeDb('WhatsApp delivery counts on the dashboard', () => {
  const t = useTestApp();
  const owner = useUser(t, { roles: ['CHATBOT'] });
  const stranger = useUser(t, { roles: ['CHATBOT'] });
  let appId: string;
  let otherAppId: string;
  const { get } = createApiClient(t, owner);
  let seq = 0;

  const row = (app: string, userId: string, sentAt: Date, status: string, extra: Partial<typeof whatsappMessages.$inferInsert> = {}) => ({
    userId,
    appId: app,
    linkId: 'link-1',
    environment: 'live',
    toNumber: '233241234567',
    sessionId: 's1',
    providerMessageId: `wamid.${++seq}`,
    kind: 'text',
    status,
    sentAt,
    ...extra,
  });

  beforeAll(async () => {
    const create = async (user: typeof owner) =>
      (await createApiClient(t, user).post('/api/chatbot/app/create', { appName: 'Counted Bot', description: 'Delivery counts' })).json()
        .data.appId as string;
    appId = await create(owner);
    otherAppId = await create(stranger);
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms);
    const id = owner.user.id;
    const failed = (code: number | null, reason: string) => ({ failureCode: code, failureReason: reason });
    await t.db.insert(whatsappMessages).values([
      row(appId, id, ago(HOUR), 'sent'),
      row(appId, id, ago(HOUR), 'delivered'),
      row(appId, id, ago(2 * HOUR), 'read'),
      row(appId, id, ago(2 * HOUR), 'read'),
      row(appId, id, ago(3 * HOUR), 'failed', failed(131047, 'Re-engagement message: more than 24 hours since the user last wrote')),
      row(appId, id, ago(3 * HOUR), 'failed', failed(131047, 'Re-engagement message: more than 24 hours since the user last wrote')),
      row(appId, id, ago(3 * HOUR), 'failed', failed(131026, 'Message undeliverable')),
      // Just inside the last 24 hours, and just outside it (inside the week).
      row(appId, id, ago(24 * HOUR - 60_000), 'sent'),
      row(appId, id, ago(24 * HOUR + 60_000), 'failed', failed(null, 'Socket closed')),
      // Inside the month only; older than a month; not yet (a later clock): never counted.
      row(appId, id, ago(20 * 24 * HOUR), 'delivered'),
      row(appId, id, ago(31 * 24 * HOUR), 'read'),
      row(appId, id, new Date(now + HOUR), 'read'),
      // The chat simulator's run (test), and another account's bot.
      row(appId, id, ago(HOUR), 'read', { environment: 'test', linkId: `console:${appId}`, caller: `user:${id}` }),
      row(otherAppId, stranger.user.id, ago(HOUR), 'failed', failed(190, 'Access token expired')),
    ]);
  });

  const counts = async (query = '', auth = owner.auth) => {
    const res = await get(`/api/dashboard/whatsappMessages/${appId}${query}`, auth);
    return { statusCode: res.statusCode, body: res.json() };
  };

  it("counts the last 24 hours' live messages by where each stands, by hour, with the commonest failures", async () => {
    const { statusCode, body } = await counts();
    expect(statusCode).toBe(200);
    const data = body.data;
    expect(data.period).toBe('day');
    expect(Date.parse(data.to) - Date.parse(data.from)).toBe(24 * HOUR);
    expect(data.totals).toEqual({ sent: 8, delivered: 3, read: 2, failed: 3 });
    expect(data.buckets).toHaveLength(4);
    expect(data.buckets.every((b: { at: string }) => /^\d{4}-\d\d-\d\dT\d\d:00:00Z$/.test(b.at))).toBe(true);
    const summed = data.buckets.reduce((sum: number, b: { sent: number }) => sum + b.sent, 0);
    expect(summed).toBe(8);
    expect(data.failureReasons).toEqual([
      { code: 131047, reason: 'Re-engagement message: more than 24 hours since the user last wrote', messages: 2 },
      { code: 131026, reason: 'Message undeliverable', messages: 1 },
    ]);
  });

  it('takes the week and the month, bounded at both ends, by day', async () => {
    const week = (await counts('?period=week')).body.data;
    expect(Date.parse(week.to) - Date.parse(week.from)).toBe(7 * 24 * HOUR);
    expect(week.totals).toEqual({ sent: 9, delivered: 3, read: 2, failed: 4 });
    expect(week.failureReasons).toContainEqual({ code: null, reason: 'Socket closed', messages: 1 });
    expect(week.buckets.every((b: { at: string }) => b.at.endsWith('T00:00:00Z'))).toBe(true);
    const month = (await counts('?period=month')).body.data;
    expect(month.totals).toEqual({ sent: 10, delivered: 4, read: 2, failed: 4 });
  });

  it("counts the chat simulator's messages as test runs only", async () => {
    expect((await counts('?environment=test')).body.data.totals).toEqual({ sent: 1, delivered: 1, read: 1, failed: 0 });
  });

  it("answers 404 for another account's bot, and a clear 400 for a bad period", async () => {
    expect((await counts('', stranger.auth)).statusCode).toBe(404);
    const own = await get(`/api/dashboard/whatsappMessages/${otherAppId}`, stranger.auth);
    expect(own.json().data.totals).toEqual({ sent: 1, delivered: 0, read: 0, failed: 1 });
    const bad = await counts('?period=year');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('The period must be day, week or month');
  });

  it("lists a session's sent messages in order with their statuses and failure words, for the bot's account only", async () => {
    await t.db.insert(whatsappMessages).values([
      row(appId, owner.user.id, new Date(Date.now() - 2000), 'read', { sessionId: 'log-1', kind: 'buttons', readAt: new Date() }),
      row(appId, owner.user.id, new Date(Date.now() - 1000), 'failed', {
        sessionId: 'log-1',
        failureCode: 131026,
        failureReason: 'Message undeliverable',
        failedAt: new Date(),
      }),
      row(appId, owner.user.id, new Date(), 'sent', { sessionId: 'log-2' }),
    ]);
    const res = await get(`/api/dashboard/sessionMessages/${appId}?sessionId=log-1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ kind: 'buttons', status: 'read', failureCode: null, failureReason: '', readAt: expect.any(String) }),
      expect.objectContaining({ kind: 'text', status: 'failed', failureCode: 131026, failureReason: 'Message undeliverable' }),
    ]);
    expect((await get(`/api/dashboard/sessionMessages/${appId}?sessionId=log-1`, stranger.auth)).statusCode).toBe(404);
    const missing = await get(`/api/dashboard/sessionMessages/${appId}`);
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain('Name the session');
  });
});
