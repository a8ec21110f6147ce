import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { actionResults, apps, sessionRecords } from '../../../db/schema';
import { describeDb } from '../../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp, seedMenu } from '../../../../tests/support/seed-app';

const HOUR = 3_600_000;

/**
 * The dashboard's session health (docs/monitoring.md, "Session health"): records written as the runtime writes them
 * (an end cause, hop and action times, networks as gateways send them), read back as sessions per cause, per menu,
 * per network, hop times against each gateway's budget, the slowest actions; and the session lists' cause filter.
 * Percentiles are PostgreSQL's percentile_cont, worked out by hand below for these few hops.
 */
describeDb('session health on the dashboard', () => {
  const t = useTestApp();
  const owner = useUser(t);
  const stranger = useUser(t);
  const { get } = createApiClient(t, owner);
  let appId: string;
  let otherAppId: string;
  let home: string;
  let pay: string;

  type Record = Partial<typeof sessionRecords.$inferInsert> & Pick<typeof sessionRecords.$inferInsert, 'sessionId'>;
  const record = (app: string, endedAt: Date, r: Record) => ({
    appId: app,
    environment: 'live',
    gateway: 'africastalking',
    mobile: '233240000001',
    network: '62001',
    serviceCode: '*920*55#',
    status: 'abandoned',
    inputs: {},
    hopCount: r.hopMs?.length ?? 1,
    startedAt: new Date(endedAt.getTime() - 60_000),
    endedAt,
    ...r,
  });
  const action = (app: string, sessionId: string, actionName: string, menuName: string, durationMs: number | null, isOk = 1) => ({
    appId: app,
    sessionId,
    actionName,
    menuName,
    plugin: 'javascript',
    isOk,
    durationMs,
    createdAt: new Date(),
  });

  beforeAll(async () => {
    appId = await seedApp(t, owner.auth);
    otherAppId = await seedApp(t, stranger.auth);
    home = await seedMenu(t, owner.auth, appId, { userDefinedName: 'home', displayText: 'Welcome', isFirst: true });
    pay = await seedMenu(t, owner.auth, appId, { userDefinedName: 'pay', displayText: 'Pay' });
    // Hubtel's contract gives this app 4 s instead of the profile's 10 s.
    await t.db
      .update(apps)
      .set({ gatewayConnections: [{ gateway: 'hubtel', screenLimit: null, budgetMs: 4000 }] })
      .where(eq(apps.id, appId));
    const ago = (ms: number) => new Date(Date.now() - ms);
    await t.db.insert(sessionRecords).values([
      record(appId, ago(HOUR), {
        sessionId: 's1',
        lastMenu: home,
        status: 'completed',
        endCause: 'completed',
        hopMs: [100, 300],
        actionMs: [0, 200],
      }),
      record(appId, ago(HOUR), { sessionId: 's2', lastMenu: pay, endCause: 'timed_out', hopMs: [200, 16000], actionMs: [50, 15000] }),
      record(appId, ago(2 * HOUR), {
        sessionId: 's3',
        network: 'mtn',
        lastMenu: pay,
        endCause: 'network_error',
        gatewayWords: 'Subscriber absent',
        gatewayDurationMs: 12000,
        gatewayCost: 'KES 0.0500',
        hopMs: [400],
        actionMs: [0],
      }),
      record(appId, ago(2 * HOUR), {
        sessionId: 's4',
        gateway: 'hubtel',
        network: '62002',
        lastMenu: home,
        status: 'completed',
        endCause: 'terminated',
        hopMs: [1000, 5000],
        actionMs: [500, 4500],
      }),
      record(appId, ago(3 * HOUR), {
        sessionId: 's5',
        gateway: 'hubtel',
        network: '62002',
        lastMenu: pay,
        endCause: 'budget_exceeded',
        hopMs: [4500],
        actionMs: [4200],
      }),
      // Kept from before causes and hop times were recorded.
      record(appId, ago(3 * HOUR), { sessionId: 's6', lastMenu: null }),
      // Two days ago: in the week only.
      record(appId, ago(48 * HOUR), {
        sessionId: 's7',
        lastMenu: home,
        status: 'completed',
        endCause: 'app_error',
        hopMs: [900],
        actionMs: [0],
      }),
      // A test run, and another account's app (its session id the same as one of ours).
      record(appId, ago(HOUR), {
        sessionId: 't1',
        environment: 'test',
        gateway: 'emulator',
        endCause: 'user_cancelled',
        hopMs: [80],
        actionMs: [0],
      }),
      record(otherAppId, ago(HOUR), { sessionId: 's1', endCause: 'app_error', hopMs: [99_000], actionMs: [99_000] }),
    ]);
    await t.db
      .insert(actionResults)
      .values([
        action(appId, 's1', 'checkBalance', 'home', 200),
        action(appId, 's4', 'checkBalance', 'home', 500),
        action(appId, 's4', 'checkBalance', 'home', 4000),
        action(appId, 's2', 'charge', 'pay', 50),
        action(appId, 's2', 'charge', 'pay', 15000, 0),
        action(appId, 's5', 'charge', 'pay', 4200, 0),
        action(appId, 's3', 'notify', 'pay', null),
        action(appId, 's7', 'lateAction', 'home', 60_000),
        action(appId, 't1', 'testAction', 'home', 70_000),
        action(otherAppId, 's1', 'leak', 'home', 80_000),
      ]);
  });

  const health = (query = '', auth = owner.auth) => get(`/api/dashboard/sessionHealth/${appId}${query}`, auth);

  it('counts the live sessions of the last 24 hours by cause, by the menu where they stopped and by network', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.period).toBe('day');
    expect(data.sessions).toBe(6);
    expect(data.causes).toEqual([
      { cause: 'completed', sessions: 1 },
      { cause: 'terminated', sessions: 1 },
      { cause: 'timed_out', sessions: 1 },
      { cause: 'network_error', sessions: 1 },
      { cause: 'budget_exceeded', sessions: 1 },
      { cause: null, sessions: 1 },
    ]);
    expect(data.menus).toEqual([
      {
        menuId: pay,
        menu: 'pay',
        sessions: 3,
        causes: [
          { cause: 'timed_out', sessions: 1 },
          { cause: 'network_error', sessions: 1 },
          { cause: 'budget_exceeded', sessions: 1 },
        ],
      },
      {
        menuId: home,
        menu: 'home',
        sessions: 2,
        causes: [
          { cause: 'completed', sessions: 1 },
          { cause: 'terminated', sessions: 1 },
        ],
      },
      { menuId: '', menu: 'before the first menu', sessions: 1, causes: [{ cause: null, sessions: 1 }] },
    ]);
    // `62001` and `mtn` are one network; its median is over all its hops: 100, 200, 300, 400, 16000.
    expect(data.networks).toEqual([
      {
        network: 'MTN',
        detail: expect.stringContaining('network code 62001'),
        sessions: 4,
        completionRate: 1 / 3,
        medianHopMs: 300,
        causes: [
          { cause: 'completed', sessions: 1 },
          { cause: 'timed_out', sessions: 1 },
          { cause: 'network_error', sessions: 1 },
          { cause: null, sessions: 1 },
        ],
      },
      {
        network: 'Telecel',
        detail: expect.stringContaining('network code 62002'),
        sessions: 2,
        completionRate: 0.5,
        medianHopMs: 4500,
        causes: [
          { cause: 'terminated', sessions: 1 },
          { cause: 'budget_exceeded', sessions: 1 },
        ],
      },
    ]);
    expect(data.networks[0].detail).toContain('Sent by the gateway as "mtn"');
  });

  it("times hops per gateway against its budget as the app's connection narrows it, and names the slowest actions", async () => {
    const data = (await health()).json().data;
    // Africa's Talking: hops 100, 300, 200, 16000, 400 (actions 0, 200, 50, 15000, 0). p95 sits at 3.8 of 0..4:
    // 400 + 0.8 × (16000 − 400) = 12880; in the runtime 100, 100, 150, 1000, 400: 400 + 0.8 × 600 = 880.
    // Hubtel: hops 1000, 5000, 4500 (actions 500, 4500, 4200) under its 4 s: two over. p95 at 1.9 of 0..2.
    expect(data.latency).toEqual([
      {
        gateway: 'africastalking',
        label: "Africa's Talking",
        budgetMs: 15_000,
        hops: 5,
        overBudget: 1,
        hop: { p50Ms: 300, p95Ms: 12_880 },
        runtime: { p50Ms: 150, p95Ms: 880 },
        actions: { p50Ms: 50, p95Ms: 12_040 },
      },
      {
        gateway: 'hubtel',
        label: 'Hubtel',
        budgetMs: 4000,
        hops: 3,
        overBudget: 2,
        hop: { p50Ms: 4500, p95Ms: 4950 },
        runtime: { p50Ms: 500, p95Ms: 500 },
        actions: { p50Ms: 4200, p95Ms: 4470 },
      },
    ]);
    // charge: 50, 4200, 15000 → 4200 + 0.9 × 10800; checkBalance: 200, 500, 4000 → 500 + 0.9 × 3500; notify never timed.
    expect(data.slowestActions).toEqual([
      { actionName: 'charge', menuName: 'pay', runs: 3, p95Ms: 13_920, failures: 2 },
      { actionName: 'checkBalance', menuName: 'home', runs: 3, p95Ms: 3650, failures: 0 },
      { actionName: 'notify', menuName: 'pay', runs: 1, p95Ms: null, failures: 0 },
    ]);
  });

  it('covers the period and the environment asked for', async () => {
    const week = (await health('?period=week')).json().data;
    expect(week.sessions).toBe(7);
    expect(week.causes).toContainEqual({ cause: 'app_error', sessions: 1 });
    expect(week.slowestActions[0]).toEqual({ actionName: 'lateAction', menuName: 'home', runs: 1, p95Ms: 60_000, failures: 0 });
    const test = (await health('?environment=test')).json().data;
    expect(test.causes).toEqual([{ cause: 'user_cancelled', sessions: 1 }]);
    expect(test.latency).toEqual([
      expect.objectContaining({
        gateway: 'emulator',
        label: 'Emulator',
        budgetMs: 7000,
        hops: 1,
        overBudget: 0,
        hop: { p50Ms: 80, p95Ms: 80 },
      }),
    ]);
    expect(test.slowestActions.map((a: { actionName: string }) => a.actionName)).toEqual(['testAction']);
  });

  it("answers 404 for another account's app, and a clear 400 for a bad period", async () => {
    expect((await health('', stranger.auth)).statusCode).toBe(404);
    const theirs = (await get(`/api/dashboard/sessionHealth/${otherAppId}`, stranger.auth)).json().data;
    expect(theirs.causes).toEqual([{ cause: 'app_error', sessions: 1 }]);
    expect(theirs.slowestActions.map((a: { actionName: string }) => a.actionName)).toEqual(['leak']);
    const bad = await health('?period=year');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('The period must be day, week or month');
  });

  it("lists sessions of one cause with the gateway's words, and refuses a cause it does not know", async () => {
    const abandoned = await get(`/dashboard/uncompletedSessions/${appId}?cause=network_error`);
    expect(abandoned.statusCode).toBe(200);
    expect(abandoned.json().data).toEqual([
      expect.objectContaining({
        sessionId: 's3',
        endCause: 'network_error',
        gatewayWords: 'Subscriber absent',
        gatewayDurationMs: 12000,
        gatewayCost: 'KES 0.0500',
      }),
    ]);
    const all = (await get(`/dashboard/uncompletedSessions/${appId}`)).json().data as Array<{ sessionId: string; endCause: string | null }>;
    expect(all.map((s) => [s.sessionId, s.endCause]).sort()).toEqual([
      ['s2', 'timed_out'],
      ['s3', 'network_error'],
      ['s5', 'budget_exceeded'],
      ['s6', null],
      ['t1', 'user_cancelled'],
    ]);
    const completed = (await get(`/dashboard/completedSessions/${appId}?cause=terminated`)).json().data;
    expect(
      completed.map((s: { sessionId: string; endCause: string; gatewayWords: null }) => [s.sessionId, s.endCause, s.gatewayWords]),
    ).toEqual([['s4', 'terminated', null]]);
    const bad = await get(`/dashboard/uncompletedSessions/${appId}?cause=hung_up`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('The cause must be one of completed, terminated, user_cancelled');
    expect((await get(`/dashboard/uncompletedSessions/${appId}?cause=timed_out`, stranger.auth)).statusCode).toBe(404);
  });
});
