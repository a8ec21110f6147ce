import pg from 'pg';
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { MIGRATIONS_DIR, openDatabase } from '../../../db/client';
import { addDayPartitions, dayPartitionName, findPartitions, PARTITIONED_TABLES } from '../../../db/partitions';
import { actionResults, appLogs, messageDayCounts, sessionRecords, whatsappMessages } from '../../../db/schema';
import { createPostgresDatabase, testDatabaseUrl } from '../../../../tests/support/services';
import { describeDb, type TestDatabase } from '../../../../tests/support/test-db';
import { createApiClient, type TestApp, useTestApp, useUser } from '../../../../tests/support/test-app';
import { seedApp } from '../../../../tests/support/seed-app';
import { applyDeliveryUpdate, findMessageStatuses } from '../bots/whatsapp-messages';
import { sweepExpiredRows } from './expiry';
import { startOfUtcDay } from './retention-terms';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A database as a release before partitioning left it: the migrations alone, the event tables plain. */
async function openUnpartitioned(): Promise<TestDatabase> {
  const scratch = await createPostgresDatabase('dialflow_test');
  const database = await openDatabase({ url: scratch.url, poolSize: 4 });
  await migrate(database.db as unknown as NodePgDatabase, { migrationsFolder: MIGRATIONS_DIR });
  return {
    database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** The test database's address, for a connection of a test's own. */
async function urlOfTestDatabase(t: TestApp): Promise<string> {
  const [row] = rowsOf<{ name: string }>(await t.db.execute(sql`select current_database() as name`));
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${row!.name}`;
  return url.toString();
}

/** Where a table's rows are: the partition of each, by its message-like column. */
async function partitionOf(t: TestApp, table: string, where: string): Promise<string[]> {
  return rowsOf<{ part: string }>(await t.db.execute(sql.raw(`select tableoid::regclass::text as part from ${table} where ${where}`))).map(
    (r) => r.part,
  );
}

const kindOf = async (t: TestApp, table: string) =>
  rowsOf<{ kind: string }>(await t.db.execute(sql`select relkind::text as kind from pg_class where oid = to_regclass(${table})`))[0]?.kind;

async function seedDay(t: TestApp, appId: string, ownerId: string, at: Date, tag: string): Promise<void> {
  await t.db.insert(appLogs).values([
    {
      appId,
      sessionId: `s-${tag}`,
      level: 'hop',
      type: 'hop',
      message: 'hop',
      createdAt: at,
      lines: [{ level: 'info', type: 'menu_shown', menuId: 'home', message: `Welcome ${tag}` }],
      inputs: [['name', `Ama ${tag}`]],
    },
    { appId, sessionId: `s-${tag}`, level: 'error', type: 'action_error', message: `Boom ${tag}`, createdAt: at },
  ]);
  await t.db
    .insert(actionResults)
    .values({ appId, sessionId: `s-${tag}`, actionName: 'a', menuName: 'home', plugin: 'javascript', result: { tag }, createdAt: at });
  await t.db.insert(sessionRecords).values({
    appId,
    sessionId: `s-${tag}`,
    environment: 'live',
    gateway: 'africastalking',
    mobile: '233241112222',
    network: 'MTN',
    serviceCode: '*920#',
    status: 'completed',
    endCause: 'completed',
    lastMenu: 'bye',
    inputs: { name: `Ama ${tag}` },
    hopCount: 1,
    startedAt: at,
    endedAt: at,
  });
  for (const [i, status] of (['read', 'delivered', 'failed'] as const).entries())
    await t.db.insert(whatsappMessages).values({
      userId: ownerId,
      appId,
      linkId: `console:${appId}`,
      environment: 'live',
      toNumber: '233241112222',
      providerMessageId: `m-${tag}-${i}`,
      kind: 'text',
      status,
      ...(status === 'failed' ? { failureCode: 131026, failureReason: 'Message undeliverable' } : {}),
      sentAt: at,
    });
}

describeDb('event tables partitioned by day on PostgreSQL', () => {
  const t = useTestApp({ DATA_RETENTION_DAYS: 2, BILLING: 'off', DATA_RETENTION_INTERVAL_MS: 0 }, { openDatabase: openUnpartitioned });
  const owner = useUser(t);
  let appId = '';
  let today = new Date();

  const reads = async () => {
    const api = createApiClient(t, owner);
    const day = today.toISOString().slice(0, 10);
    const logs = (await api.post('/streamLogs', { appId })).json().data;
    const search = (await api.post('/actionlogs/searchLogs', { appId, filterByLevel: true, level: 'error' })).json().data;
    const sessions = (await api.get(`/dashboard/completedSessions/${appId}`)).json().data;
    const byWord = (await api.post('/dashboard/search', { appId, searchBy: 'word', searchQuery: 'Ama', flatResults: true })).json().data;
    const byDate = (await api.post('/dashboard/search', { appId, searchBy: 'date', startDate: day, endDate: day })).json().data;
    const delivery = (await api.get(`/api/dashboard/whatsappMessages/${appId}?environment=live&period=month`)).json().data;
    return { logs, search, sessions, byWord, byDate, delivery: delivery.totals };
  };

  it('converts each table holding rows without copying them, and every read path reads them as before', async () => {
    appId = await seedApp(t, owner.auth);
    today = startOfUtcDay(t.app.ctx.now());
    await seedDay(t, appId, owner.user.id, new Date(t.app.ctx.now().getTime() - HOUR), 'before');
    const files = rowsOf<{ name: string; file: number }>(
      await t.db.execute(sql`select relname as name, relfilenode as file from pg_class where relname in ('app_logs', 'session_records')`),
    );
    const before = await reads();
    expect(before.logs).toHaveLength(2);
    expect(before.search).toHaveLength(1);
    expect(before.sessions).toHaveLength(1);
    expect(before.delivery).toMatchObject({ sent: 3, failed: 1 });

    await t.app.ctx.database.migrate();

    for (const { table } of PARTITIONED_TABLES) expect(await kindOf(t, table)).toBe('p');
    expect(await kindOf(t, 'session_inputs')).toBe('r');
    // The old table is the first partition, its file untouched: no row was copied.
    for (const { name, file } of files)
      expect(
        rowsOf(await t.db.execute(sql`select 1 from pg_class where relname = ${`${name}_before`} and relfilenode = ${file}`)),
      ).toHaveLength(1);
    expect(await reads()).toEqual(before);
    // The webhooks' trigger and the log lines' view are on the partitioned tables.
    const triggers = await t.db.execute(
      sql`select tgname from pg_trigger where tgrelid = 'session_records'::regclass and not tgisinternal`,
    );
    expect(rowsOf<{ tgname: string }>(triggers).map((r) => r.tgname)).toEqual(['session_records_webhook_events']);

    // The partitions: the old table, the days ahead, the default.
    const names = (await findPartitions(t.db, 'app_logs')).map((p) => p.name);
    expect(names).toEqual([
      'app_logs_before',
      dayPartitionName('app_logs', new Date(today.getTime() + 2 * DAY)),
      dayPartitionName('app_logs', new Date(today.getTime() + 3 * DAY)),
      'app_logs_default',
    ]);

    // Once more (a restart, another process): nothing changes.
    await t.app.ctx.database.migrate();
    expect((await findPartitions(t.db, 'app_logs')).map((p) => p.name)).toEqual(names);
    expect(await reads()).toEqual(before);
  });

  it("reads the log panel's next lines by its last line's id and time, a row written late included", async () => {
    const api = createApiClient(t, owner);
    const first = (await api.post('/streamLogs', { appId })).json().data as Array<{ id: number; timestamp: string; message: string }>;
    const last = first[first.length - 1]!;
    // A row written after the last line read but dated two hours before it (its writer held up), and one of now.
    const late = new Date(new Date(last.timestamp).getTime() - 2 * HOUR);
    await t.db.insert(appLogs).values([
      { appId, sessionId: 'late', level: 'info', type: 'x', message: 'Late', createdAt: late },
      { appId, sessionId: 'now', level: 'info', type: 'x', message: 'Now', createdAt: t.app.ctx.now() },
    ]);
    const next = (await api.post('/streamLogs', { appId, afterId: last.id, timeStamp: last.timestamp })).json().data;
    expect(next.map((l: { message: string }) => l.message)).toEqual(['Late', 'Now']);
  });

  it("lists an app's newest finished sessions from the last week when it holds a whole list, and from every day else", async () => {
    const api = createApiClient(t, owner);
    const list = async () => (await api.get(`/dashboard/completedSessions/${appId}`)).json().data as Array<{ sessionId: string }>;
    const record = (ids: string, endedAt: string) =>
      t.db.execute(
        sql.raw(`insert into session_records (app_id, session_id, environment, gateway, mobile, network, service_code, status, inputs, hop_count, started_at, ended_at)
          select '${appId}', ${ids}, 'live', 'africastalking', '233241112222', 'MTN', '*920#', 'completed', '{}'::jsonb, 1, ${endedAt}, ${endedAt}
          from generate_series(1, 1000) n`),
      );
    // A few weeks back: fewer than a list in the last week, so the older ones are listed too.
    await record(`'old-' || n`, `now() - interval '20 days' - n * interval '1 second'`);
    expect((await list()).filter((s) => s.sessionId.startsWith('old-'))).toHaveLength(1000 - 1);
    // A whole list of the last week: the newest, none older.
    await record(`'week-' || n`, `now() - n * interval '1 minute'`);
    const listed = await list();
    expect(listed).toHaveLength(1000);
    expect(listed.some((s) => s.sessionId.startsWith('old-'))).toBe(false);
    // The session of an hour ago is among the newest; the week's oldest (1,000 minutes back) is not.
    expect(listed.map((s) => s.sessionId)).toContain('s-before');
    expect(listed.map((s) => s.sessionId)).not.toContain('week-1000');
  });

  it('keeps a delivery status moving by (link, provider id), and refuses the same message written twice', async () => {
    const update = { linkId: `console:${appId}`, providerMessageId: 'm-before-1', status: 'read' as const, at: Date.now() };
    expect(await applyDeliveryUpdate(t.app.ctx, update)).toEqual({ found: true, changed: true });
    const [row] = await t.db.select().from(whatsappMessages).where(sql`provider_message_id = 'm-before-1'`);
    const { id: _id, ...again } = row!;
    await expect(t.db.insert(whatsappMessages).values(again)).rejects.toMatchObject({ cause: { code: '23505' } });

    // A message of weeks ago (read late) is found past the recent days looked at first, by its status and its ticks.
    await t.db
      .insert(whatsappMessages)
      .values({ ...again, providerMessageId: 'm-old', status: 'delivered', sentAt: new Date(Date.now() - 20 * DAY) });
    expect(await applyDeliveryUpdate(t.app.ctx, { ...update, providerMessageId: 'm-old' })).toEqual({ found: true, changed: true });
    expect(await findMessageStatuses(t.app.ctx, `console:${appId}`, ['m-old', 'm-before-1', 'm-never'])).toEqual(
      expect.arrayContaining([
        { id: 'm-old', status: 'read', failureReason: '' },
        { id: 'm-before-1', status: 'read', failureReason: '' },
      ]),
    );
    expect(await findMessageStatuses(t.app.ctx, `console:${appId}`, ['m-old', 'm-before-1', 'm-never'])).toHaveLength(2);
    expect(await applyDeliveryUpdate(t.app.ctx, { ...update, providerMessageId: 'm-never' })).toEqual({ found: false, changed: false });
  });

  it('puts a row of a day without a partition in the default one, and into its day once that is made', async () => {
    const far = new Date(today.getTime() + 5 * DAY + HOUR);
    const old = new Date('2000-01-01T12:00:00Z');
    await t.db.insert(appLogs).values([
      { appId, sessionId: 'far', level: 'info', type: 'x', message: 'far', createdAt: far },
      { appId, sessionId: 'old', level: 'info', type: 'x', message: 'old', createdAt: old },
      { appId, sessionId: 'later', level: 'info', type: 'x', message: 'later', createdAt: new Date('2100-01-01T00:00:00Z') },
    ]);
    // The old table's partition takes every time before its end; the days after the last made one go to the default.
    expect(await partitionOf(t, 'app_logs', "message in ('far', 'later', 'old') order by message")).toEqual([
      'app_logs_default',
      'app_logs_default',
      'app_logs_before',
    ]);
    // Two days on, the days through three ahead are made: the far row's day among them.
    expect(await addDayPartitions(t.db, new Date(today.getTime() + 2 * DAY + HOUR))).toBe(2 * PARTITIONED_TABLES.length);
    expect(await partitionOf(t, 'app_logs', "message = 'far'")).toEqual([
      dayPartitionName('app_logs', new Date(today.getTime() + 5 * DAY)),
    ]);
    expect(await addDayPartitions(t.db, new Date(today.getTime() + 2 * DAY + HOUR))).toBe(0);
  });

  it("drops each day's partition once the day is past the operator's bound, its messages counted first, and nothing else", async () => {
    const first = new Date(today.getTime() + 2 * DAY);
    const second = new Date(today.getTime() + 3 * DAY);
    await seedDay(t, appId, owner.user.id, new Date(first.getTime() + 3 * HOUR), 'first');
    await seedDay(t, appId, owner.user.id, new Date(second.getTime() + 3 * HOUR), 'second');
    // Two days after the first: it is past the 2 days kept, the second is not.
    t.advanceClock(first.getTime() + 3 * DAY + 2 * HOUR - t.app.ctx.now().getTime());
    const delivery = (await reads()).delivery;
    // Three messages a day seeded, and the one of weeks ago.
    expect(delivery).toMatchObject({ sent: 10, failed: 3 });

    // A statement holding the day's messages (here a transaction that locked them) past the drop's lock timeout:
    // the drop gives up with its count undone, and the sweep says it is behind.
    const blocker = new pg.Client(await urlOfTestDatabase(t));
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query(`lock table ${dayPartitionName('whatsapp_messages', first)} in access share mode`);
    const blocked = await sweepExpiredRows(t.app.ctx);
    await blocker.query('rollback');
    await blocker.end();
    expect(blocked.isBehind).toBe(true);
    expect(blocked.dropped).toContain('whatsapp_messages_before');
    expect(blocked.dropped).not.toContain(dayPartitionName('whatsapp_messages', first));
    const countedSoFar = await t.db.select().from(messageDayCounts);
    expect(countedSoFar.reduce((n, c) => n + c.messages, 0)).toBe(4);
    expect((await reads()).delivery).toEqual(delivery);

    const rest = await sweepExpiredRows(t.app.ctx);
    const sweep = { ...rest, dropped: [...(blocked.dropped ?? []), ...(rest.dropped ?? [])] };
    expect(sweep.dropped).toEqual(
      expect.arrayContaining(PARTITIONED_TABLES.flatMap(({ table }) => [`${table}_before`, dayPartitionName(table, first)])),
    );
    expect(sweep.dropped).toHaveLength(2 * PARTITIONED_TABLES.length);
    expect(sweep.deleted).toMatchObject({ app_logs: 0, whatsapp_messages: 0 });
    const names = (await findPartitions(t.db, 'whatsapp_messages')).map((p) => p.name);
    expect(names).not.toContain(dayPartitionName('whatsapp_messages', first));
    expect(names).toContain(dayPartitionName('whatsapp_messages', second));

    const left = rowsOf<{ session_id: string }>(await t.db.execute(sql`select distinct session_id from app_logs order by 1`));
    expect(left.map((r) => r.session_id)).toEqual(['far', 'later', 's-second']);
    const messages = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from whatsapp_messages`))[0]!.n;
    expect(messages).toBe(3);
    // The dropped messages are in their days' counts: the dashboard's figures are the same.
    const counted = await t.db.select().from(messageDayCounts);
    expect(counted.reduce((n, c) => n + c.messages, 0)).toBe(7);
    expect((await reads()).delivery).toEqual(delivery);

    // The dropped day's session was counted before, from its partition.
    const [day] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`select sum(sessions)::int as n from session_day_counts where app_id = ${appId} and day = ${first.toISOString().slice(0, 10)}::date`,
      ),
    );
    expect(day!.n).toBe(1);

    // A row of a day long gone now lands in the default partition, and the next sweep deletes it there by id.
    await t.db
      .insert(appLogs)
      .values({ appId, sessionId: 'late', level: 'info', type: 'x', message: 'late', createdAt: new Date('2000-01-01') });
    expect(await partitionOf(t, 'app_logs', "message = 'late'")).toEqual(['app_logs_default']);
    const next = await sweepExpiredRows(t.app.ctx);
    expect(next.dropped).toBeUndefined();
    expect(next.deleted.app_logs).toBe(1);
    expect(await partitionOf(t, 'app_logs', "message in ('late', 'later')")).toEqual(['app_logs_default']);
  });
});

describeDb('event tables partitioned by processes starting at once', () => {
  it('converts each table once while three processes start together, none of them failing', async () => {
    const { database, close } = await openUnpartitioned();
    const url = await urlOfTestDatabase({ db: database.db } as TestApp);
    const others = await Promise.all([1, 2].map(() => openDatabase({ url, poolSize: 2 })));
    try {
      await database.db.execute(
        sql`insert into app_logs (app_id, level, type, message, created_at) select 'a', 'info', 't', 'm', now() - g * interval '1 minute' from generate_series(1, 20000) g`,
      );
      const started = await Promise.allSettled([database, ...others].map((d) => d.migrate()));
      expect(started.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const partitions = (await findPartitions(database.db, 'app_logs')).map((p) => p.name);
      expect(partitions[0]).toBe('app_logs_before');
      expect(partitions[partitions.length - 1]).toBe('app_logs_default');
      const lines = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from app_log_lines`));
      expect(lines[0]!.n).toBe(20000);
    } finally {
      for (const other of others) await other.close();
      await close();
    }
  });
});
