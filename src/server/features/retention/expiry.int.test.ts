import { beforeAll, expect, it } from 'vitest';
import { count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  inboxMessages,
  actionResults,
  appLogs,
  apps,
  inboxConversations,
  sessionDayCounts,
  sessionInputs,
  sessionRecords,
  smsMessages,
  smsReplies,
  users,
  webhookDeliveries,
  whatsappMessages,
} from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { sweepExpiredRows } from './expiry';
import { startOfUtcDay } from './retention-terms';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * Moves the test clock to 02:00 UTC of the next day: yesterday is then whole and an hour old (it can be counted),
 * and rows written at 03:00 of past days sit well inside their day and inside the dashboard's periods.
 */
function moveClockToTwoAm(t: TestApp): Date {
  const now = t.app.ctx.now();
  t.advanceClock(startOfUtcDay(now).getTime() + DAY + 2 * HOUR - now.getTime());
  return startOfUtcDay(t.app.ctx.now());
}

/** A session a day at 03:00 UTC, `days` days back from yesterday, in each app, written in the order it happened (as the sink does). */
async function seedSessions(t: TestApp, today: Date, appIds: string[], days: number): Promise<void> {
  for (let day = days; day >= 1; day--)
    for (const appId of appIds) {
      const at = new Date(today.getTime() - day * DAY + 3 * HOUR);
      const sessionId = `s-${appId}-${day}`;
      await t.db.insert(appLogs).values({ appId, sessionId, level: 'info', type: 'menu_shown', message: 'Welcome', createdAt: at });
      await t.db.insert(sessionInputs).values({ appId, sessionId, fieldName: 'home', fieldValue: '1', createdAt: at });
      await t.db
        .insert(actionResults)
        .values({ appId, sessionId, actionName: 'a', menuName: 'home', plugin: 'javascript', result: {}, createdAt: at });
      const isCompleted = day % 3 !== 0;
      await t.db.insert(sessionRecords).values({
        appId,
        sessionId,
        environment: 'live',
        gateway: 'africastalking',
        mobile: `23320000${String(day).padStart(4, '0')}`,
        network: day % 2 === 0 ? 'MTN' : 'Vodafone',
        serviceCode: '*920#',
        status: isCompleted ? 'completed' : 'abandoned',
        endCause: isCompleted ? 'completed' : 'timed_out',
        lastMenu: isCompleted ? 'bye' : 'home',
        inputs: {},
        hopCount: 1,
        startedAt: at,
        endedAt: at,
      });
    }
}

/** Sweeps until nothing is left behind, in small batches and windows, as a busy table's sweeps would. */
async function sweepAll(t: TestApp): Promise<number> {
  let sweeps = 1;
  while ((await sweepExpiredRows(t.app.ctx, { batchSize: 7, maxBatches: 2, windowSize: 10 })).isBehind) sweeps++;
  return sweeps;
}

const countOf = async (t: TestApp, table: PgTable, where: SQL) => (await t.db.select({ n: count() }).from(table).where(where))[0]!.n;

describeDb('data retention, per account', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 365, DATA_RETENTION_INTERVAL_MS: 0 });
  // Enterprise (no plan figure: the operator's 365 days) asking for 7 days of everything; a trial account (30 days).
  const short = useUser(t);
  const trial = useUser(t, { plan: 'TRIAL' });
  const later = useUser(t, { plan: 'TRIAL' });
  let shortApp = '';
  let trialApp = '';
  let laterApp = '';
  const orphanApp = 'ret-orphan';
  let today = new Date();

  beforeAll(async () => {
    shortApp = await seedApp(t, short.auth);
    trialApp = await seedApp(t, trial.auth);
    laterApp = await seedApp(t, later.auth);
    const res = await createApiClient(t, short).post('/api/account/retention', {
      days: { logs: 7, inputs: 7, sessions: 7, actionResults: 7, messages: 7 },
    });
    expect(res.statusCode).toBe(200);
    today = moveClockToTwoAm(t);
    await seedSessions(t, today, [shortApp, trialApp, laterApp, orphanApp], 60);
    // The apps are older than their rows, as real apps are.
    await t.db
      .update(apps)
      .set({ createdAt: new Date(today.getTime() - 90 * DAY) })
      .where(inArray(apps.id, [shortApp, trialApp, laterApp]));
    // Messages of every kind, a day each for 60 days, for both accounts.
    for (let day = 60; day >= 1; day--) {
      const at = new Date(today.getTime() - day * DAY + 3 * HOUR);
      for (const [owner, appId] of [
        [short.user.id, shortApp],
        [trial.user.id, trialApp],
      ] as const) {
        // Where each message stands varies by day (read, delivered, failed for two reasons, sent), so the dashboard's
        // delivery figures have every status and failure to keep.
        const failure =
          day % 5 === 0
            ? {
                failureCode: day % 10 === 0 ? 131047 : 131026,
                failureReason: day % 10 === 0 ? 'Re-engagement message' : 'Message undeliverable',
              }
            : {};
        const status = day % 5 === 0 ? 'failed' : day % 3 === 0 ? 'read' : day % 2 === 0 ? 'delivered' : 'sent';
        await t.db.insert(whatsappMessages).values({
          userId: owner,
          appId,
          linkId: `console:${appId}`,
          environment: 'live',
          toNumber: '233241234567',
          providerMessageId: `m-${appId}-${day}`,
          kind: 'text',
          status,
          ...failure,
          sentAt: at,
        });
        await t.db
          .insert(smsMessages)
          .values({ appId, ownerId: owner, recipient: '233241234567', message: 'Hi', status: 'SENT', createdAt: at });
        await t.db.insert(smsReplies).values({
          ownerId: owner,
          msisdn: '233241234567',
          text: 'Thanks',
          provider: 'outbox',
          providerMessageId: `r-${appId}-${day}`,
          receivedAt: at,
        });
        // Opened a day before it was closed; every third answered by a person's reply.
        const [conversation] = await t.db
          .insert(inboxConversations)
          .values({
            ownerId: owner,
            appId,
            msisdn: `+2332412${String(day).padStart(5, '0')}`,
            status: 'closed',
            closedAt: at,
            createdAt: new Date(at.getTime() - DAY),
          })
          .returning({ id: inboxConversations.id });
        if (day % 3 === 0)
          await t.db.insert(inboxMessages).values({
            conversationId: conversation!.id,
            direction: 'out',
            author: 'agent',
            text: 'Hello',
            sendStatus: 'sent',
            createdAt: new Date(at.getTime() - DAY + HOUR),
          });
        await t.db.insert(webhookDeliveries).values({
          appId,
          eventId: `e-${appId}-${day}`,
          eventType: 'session.ended',
          data: {},
          occurredAt: at,
          status: 'delivered',
          createdAt: at,
        });
      }
    }
    // Never expired, whatever their age: a queued SMS, an open conversation, a webhook delivery still pending.
    const old = new Date(today.getTime() - 59 * DAY);
    await t.db.insert(smsMessages).values({
      appId: shortApp,
      ownerId: short.user.id,
      recipient: '1',
      message: 'q',
      status: 'QUEUED',
      createdAt: old,
      nextAttemptAt: new Date(today.getTime() + 365 * DAY),
    });
    await t.db
      .insert(inboxConversations)
      .values({ ownerId: short.user.id, appId: shortApp, msisdn: '+233200000001', status: 'open', createdAt: old });
    await t.db.insert(webhookDeliveries).values({
      appId: shortApp,
      eventId: 'e-pending',
      eventType: 'session.ended',
      data: {},
      occurredAt: old,
      status: 'pending',
      createdAt: old,
    });
  });

  const sessionTables = { logs: appLogs, inputs: sessionInputs, results: actionResults, records: sessionRecords } as const;
  const sessionCounts = async (appId: string) =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(sessionTables).map(async ([name, table]) => [name, await countOf(t, table, eq(table.appId, appId))]),
      ),
    );
  const messageCounts = async (owner: string, appId: string) => ({
    whatsapp: await countOf(t, whatsappMessages, eq(whatsappMessages.appId, appId)),
    sms: await countOf(t, smsMessages, eq(smsMessages.ownerId, owner)),
    replies: await countOf(t, smsReplies, eq(smsReplies.ownerId, owner)),
    conversations: await countOf(t, inboxConversations, eq(inboxConversations.appId, appId)),
    webhooks: await countOf(t, webhookDeliveries, eq(webhookDeliveries.appId, appId)),
  });
  const dashboard = async (appId: string) => {
    const api = createApiClient(t, appId === shortApp ? short : trial);
    const health = (await api.get(`/api/dashboard/sessionHealth/${appId}?environment=live&period=month`)).json().data;
    const main = (await api.get(`/api/dashboard/appDashboard/${appId}?environment=live`)).json().data;
    const delivery = (await api.get(`/api/dashboard/whatsappMessages/${appId}?environment=live&period=month`)).json().data;
    const inbox = (await api.get(`/api/dashboard/inbox/${appId}?period=month`)).json().data;
    return {
      delivery: { totals: delivery.totals, buckets: delivery.buckets, failureReasons: delivery.failureReasons },
      inbox: { opened: inbox.opened, answered: inbox.answered, closed: inbox.closed, buckets: inbox.buckets },
      sessions: health.sessions,
      causes: health.causes,
      menus: health.menus,
      networks: health.networks.map((n: { network: string; sessions: number; causes: unknown }) => [n.network, n.sessions, n.causes]),
      menuOutcomes: main.menuOutcomes,
    };
  };

  it("keeps each account's rows for its own days, another account's and an ownerless app's untouched, and the dashboard's counts stay", async () => {
    const before = { short: await dashboard(shortApp), trial: await dashboard(trialApp) };
    expect(before.short.sessions).toBe(30);
    expect(before.short.menuOutcomes).toHaveLength(2);
    expect(before.short.delivery.totals).toEqual({ sent: 30, delivered: 16, read: 8, failed: 6 });
    expect(before.short.delivery.failureReasons).toHaveLength(2);
    expect(before.short.inbox).toMatchObject({ opened: 29, answered: 9, closed: 30 });

    expect(await sweepAll(t)).toBeGreaterThan(1);

    // Days 1 to 7 kept for the account that asked for 7; 1 to 30 for the trial's plan; all 60 under the operator's 365.
    expect(await sessionCounts(shortApp)).toEqual({ logs: 7, inputs: 7, results: 7, records: 7 });
    expect(await sessionCounts(trialApp)).toEqual({ logs: 30, inputs: 30, results: 30, records: 30 });
    expect(await sessionCounts(orphanApp)).toEqual({ logs: 60, inputs: 60, results: 60, records: 60 });
    // Messages the same, and what is still on its way or open stays whatever its age.
    expect(await messageCounts(short.user.id, shortApp)).toEqual({ whatsapp: 7, sms: 8, replies: 7, conversations: 8, webhooks: 8 });
    expect(await messageCounts(trial.user.id, trialApp)).toEqual({ whatsapp: 30, sms: 30, replies: 30, conversations: 30, webhooks: 30 });

    // The charts count the expired days from the daily counts: the same figures as before the rows went.
    expect(await dashboard(shortApp)).toEqual(before.short);
    expect(await dashboard(trialApp)).toEqual(before.trial);
    const counted = await t.db
      .select({ n: sql<number>`sum(${sessionDayCounts.sessions})::int` })
      .from(sessionDayCounts)
      .where(eq(sessionDayCounts.appId, shortApp));
    expect(counted[0]!.n).toBe(60);

    // Nothing more to do: a sweep deletes nothing.
    const again = await sweepExpiredRows(t.app.ctx);
    expect(Object.values(again.deleted).every((n) => n === 0)).toBe(true);
  });

  it('goes back over older rows when an account lowers its retention, and keeps the rest', async () => {
    const res = await createApiClient(t, trial).post('/api/account/retention', { days: { inputs: 10, actionResults: 10 } });
    expect(res.statusCode).toBe(200);
    await sweepAll(t);
    expect(await sessionCounts(trialApp)).toEqual({ logs: 30, inputs: 10, results: 10, records: 30 });
    expect(await sessionCounts(shortApp)).toEqual({ logs: 7, inputs: 7, results: 7, records: 7 });
    expect(await sessionCounts(laterApp)).toEqual({ logs: 30, inputs: 30, results: 30, records: 30 });

    // Another account joins the 10-day group, whose id windows already went past its older rows: they are read again.
    expect((await createApiClient(t, later).post('/api/account/retention', { days: { inputs: 10 } })).statusCode).toBe(200);
    await sweepAll(t);
    expect(await sessionCounts(laterApp)).toEqual({ logs: 30, inputs: 10, results: 30, records: 30 });
    expect(await sessionCounts(trialApp)).toEqual({ logs: 30, inputs: 10, results: 10, records: 30 });
  });
});

describeDb('data retention, the account setting', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 365, MEDIA_RETENTION_DAYS: 90 });
  const trial = useUser(t, { plan: 'TRIAL' });
  const premium = useUser(t, { plan: 'PREMIUM' });

  it('shows each kind with its days and where they come from', async () => {
    const res = await createApiClient(t, premium).get('/api/account/retention');
    expect(res.statusCode).toBe(200);
    const { planTitle, figures } = res.json().data;
    expect(planTitle).toBe('Premium 1 year');
    expect(figures.find((f: { kind: string }) => f.kind === 'logs')).toEqual({
      kind: 'logs',
      label: 'Log lines',
      days: 365,
      bound: 365,
      planDays: 365,
      operatorDays: 365,
      askedDays: null,
    });
    // The operator's 90 days of media cap the plan's 365.
    expect(figures.find((f: { kind: string }) => f.kind === 'media')).toMatchObject({
      days: 90,
      bound: 90,
      planDays: 365,
      operatorDays: 90,
    });
  });

  it.each([
    [{ logs: 0 }, 'Log lines: keep them at least 1 day (a retention of 0 days would delete them as they arrive).'],
    [{ sessions: 3650 }, "Session records: at most 30 days on this account (its plan's and the installation's bound)."],
    [{ messages: 31 }, "Messages: at most 30 days on this account (its plan's and the installation's bound)."],
    [{ inputs: 2.5 }, 'Inputs: the retention is a whole number of days.'],
    [{ logs: -1 }, 'Log lines: keep them at least 1 day (a retention of 0 days would delete them as they arrive).'],
  ])('refuses %j with a clear 400 and changes nothing', async (days, message) => {
    const api = createApiClient(t, trial);
    expect((await api.post('/api/account/retention', { days: { media: 20 } })).statusCode).toBe(200);
    const res = await api.post('/api/account/retention', { days: { actionResults: 5, ...days } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: '02', message });
    const [row] = await t.db.select({ retention: users.retention }).from(users).where(eq(users.id, trial.user.id));
    expect(row!.retention).toEqual({ media: 20 });
  });

  it('refuses an unknown kind and a days figure that is not a number', async () => {
    const api = createApiClient(t, trial);
    expect((await api.post('/api/account/retention', { days: { forever: 5 } })).statusCode).toBe(400);
    expect((await api.post('/api/account/retention', { days: { logs: '10 years' } })).statusCode).toBe(400);
  });

  it('saves an ask below the bound, and null goes back to the bound', async () => {
    const api = createApiClient(t, premium);
    const saved = await api.post('/api/account/retention', { days: { logs: 14 } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data.figures.find((f: { kind: string }) => f.kind === 'logs')).toMatchObject({
      days: 14,
      askedDays: 14,
      bound: 365,
    });
    const reset = await api.post('/api/account/retention', { days: { logs: null } });
    expect(reset.json().data.figures.find((f: { kind: string }) => f.kind === 'logs')).toMatchObject({ days: 365, askedDays: null });
    // Another account's setting is its own.
    const [row] = await t.db.select({ retention: users.retention }).from(users).where(eq(users.id, trial.user.id));
    expect(row!.retention).toEqual({ media: 20 });
  });
});

describeDb('data retention off', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 0, BILLING: 'off' });
  const owner = useUser(t);

  it('keeps everything when no plan, operator or account bounds it (0: for ever)', async () => {
    const appId = await seedApp(t, owner.auth);
    const old = new Date(t.app.ctx.now().getTime() - 4000 * DAY);
    await t.db.insert(appLogs).values({ appId, sessionId: 's', level: 'info', type: 'x', message: 'm', createdAt: old });
    expect(await sweepExpiredRows(t.app.ctx)).toEqual({ deleted: {}, isBehind: false });
    expect(await countOf(t, appLogs, eq(appLogs.appId, appId))).toBe(1);
  });
});

describeDb('data retention at quiet moments', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 30, BILLING: 'off', DATA_RETENTION_INTERVAL_MS: 0 });
  const owner = useUser(t);

  it('waits between batches while the hops are busy, stops behind when they stay busy, and goes on when they calm', async () => {
    const appId = await seedApp(t, owner.auth);
    const old = new Date(t.app.ctx.now().getTime() - 40 * DAY);
    await t.db
      .insert(appLogs)
      .values(
        Array.from({ length: 20 }, (_, i) => ({ appId, sessionId: `s${i}`, level: 'info', type: 'x', message: 'm', createdAt: old })),
      );

    // Busy throughout: one batch, then the sweep waits, gives up, and says it is behind (the timer comes back soon).
    let checks = 0;
    const busy = await sweepExpiredRows(t.app.ctx, { batchSize: 5, isBusy: () => ++checks > 0, busyWaitMs: 300 });
    expect(busy).toMatchObject({ isBehind: true, deleted: { app_logs: 5 } });
    expect(checks).toBeGreaterThanOrEqual(3);
    expect(await countOf(t, appLogs, eq(appLogs.appId, appId))).toBe(15);

    // Busy for a moment only: the sweep waits it out and finishes.
    let calmAfter = 2;
    const calmed = await sweepExpiredRows(t.app.ctx, { batchSize: 5, isBusy: () => calmAfter-- > 0, busyWaitMs: 5000 });
    expect(calmed).toMatchObject({ isBehind: false, deleted: { app_logs: 15 } });
    expect(await countOf(t, appLogs, eq(appLogs.appId, appId))).toBe(0);
  });
});
