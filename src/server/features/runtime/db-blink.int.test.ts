/**
 * PostgreSQL's connections going away under load, as a managed failover, a restart or a network blip does:
 * pg_terminate_backend on every connection to the test's own database, from a connection of the test's. Only on
 * PostgreSQL (int-postgres): PGlite has no connections to end.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { count, countDistinct, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../../db/client';
import { appLogs, sessionRecords } from '../../../db/schema';
import { describeDb, createTestDatabase, type TestDatabase } from '../../../../tests/support/test-db';
import { createPostgresDatabase, testDatabaseUrl } from '../../../../tests/support/services';
import { phoneNumberOf, startTestServer, type TestServer } from '../../../../tests/support/test-server';
import { createEventSink, type EventRecord } from './event-sink';

/** Ends every connection to `databaseName` but the caller's; how many it ended. */
async function terminateConnections(admin: pg.Client, databaseName: string): Promise<number> {
  const result = await admin.query<{ n: number }>(
    'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [databaseName],
  );
  return result.rows[0]!.n;
}

const logLine = (appId: string, i: number): EventRecord => ({
  table: 'logs',
  row: { appId, sessionId: `s${i}`, level: 'info', type: 'menu_shown', message: `line ${i}`, createdAt: new Date() },
});
const session = (appId: string, i: number): EventRecord => ({
  table: 'sessions',
  row: {
    appId,
    sessionId: `s${i}`,
    environment: 'live',
    gateway: 'africastalking',
    mobile: '233241112222',
    network: 'MTN',
    serviceCode: '*920#',
    status: 'completed',
    inputs: { home: String(i) },
    hopCount: 2,
    startedAt: new Date(),
    endedAt: new Date(),
  },
});

describeDb('the database blinking', () => {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  beforeAll(() => admin.connect());
  afterAll(() => admin.end());

  describeDb('the event sink', () => {
    let testDb: TestDatabase;
    let databaseName = '';
    beforeAll(async () => {
      testDb = await createTestDatabase();
      const result = (await testDb.database.db.execute(sql`select current_database() as name`)) as unknown as {
        rows: Array<{ name: string }>;
      };
      databaseName = result.rows[0]!.name;
    });
    afterAll(() => testDb.close());

    it('writes every session record exactly once while its connections are terminated mid-COPY, never row by row', async () => {
      // The real COPY on the real pool; every third one has its connections ended as it starts.
      let copies = 0;
      let terminated = 0;
      const database = {
        db: testDb.database.db,
        copyRows: (table: string, columns: string[], text: string) => {
          const copying = testDb.database.copyRows(table, columns, text);
          if (++copies % 3 === 0) void terminateConnections(admin, databaseName).then((n) => (terminated += n));
          return copying;
        },
      };
      const lines: Array<{ msg: string }> = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const sink = createEventSink(database, log, { flushEveryMs: 10, batchSize: 200 });
      const appId = `blink-${Date.now().toString(36)}`;
      const rounds = 12;
      const perRound = 250;
      for (let round = 0; round < rounds; round++) {
        for (let i = round * perRound; i < (round + 1) * perRound; i++) {
          sink.push(logLine(appId, i));
          sink.push(session(appId, i));
        }
        await sink.flush();
      }
      await sink.close();
      const total = rounds * perRound;
      const [records] = await testDb.database.db
        .select({ n: count(), distinct: countDistinct(sessionRecords.sessionId) })
        .from(sessionRecords)
        .where(eq(sessionRecords.appId, appId));
      expect(records).toEqual({ n: total, distinct: total });
      const [logs] = await testDb.database.db.select({ n: count() }).from(appLogs).where(eq(appLogs.appId, appId));
      expect(logs!.n).toBe(total);
      expect(terminated).toBeGreaterThan(0);
      // Writes failed on the ended connections and were tried again whole.
      expect(sink.stats()).toMatchObject({ buffered: 0, failedBatches: 0, written: 2 * total });
      expect(sink.stats().retries).toBeGreaterThan(0);
      expect(lines.map((l) => l.msg)).not.toContain('event batch refused; writing its rows one by one');
    });
  });

  it("gives a transaction's connection back to the pool when its BEGIN fails, so the next one gets a connection", async () => {
    // A pool of one whose connection refuses BEGIN (left in an aborted transaction: everything but ROLLBACK fails), as a
    // connection that ended while it sat idle in the pool does.
    const scratch = await createPostgresDatabase('dialflow_test');
    const database = await openDatabase({ url: scratch.url, poolSize: 1 });
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    try {
      const client = await pool.connect();
      await client.query('begin');
      await client.query('select 1 / 0').catch(() => undefined);
      client.release();
      await expect(database.db.transaction((tx) => tx.execute(sql`select 1`))).rejects.toThrow();
      // The refused connection was dropped, not kept checked out: the next transaction gets a new one at once.
      expect(pool.totalCount - pool.idleCount).toBe(0);
      const next = await database.db.transaction((tx) => tx.execute(sql`select 2 as n`));
      expect((next as unknown as { rows: unknown[] }).rows).toEqual([{ n: 2 }]);
    } finally {
      // A pool with a connection kept out would never end; dropping the database ends its connections.
      if (pool.totalCount === pool.idleCount) await database.close();
      await scratch.drop();
    }
  });

  describeDb('a server process', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it('terminates PostgreSQL connections under load and shows no crash and no lost record', async () => {
      const { auth } = server.users[0]!;
      // Two hops a session: the menu, then the closing text of its Terminate rule.
      const appId = await server.createApp(auth, '*920*71#', {
        displayText: 'Pick one\n1. Yes\n2. No',
        switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'Terminate', actionParam: 'Thanks' }],
      });
      await server.api(auth, 'GET', `/api/deployChanges/${appId}`);

      const hop = async (sessionId: string, text: string) => {
        const res = await fetch(`${server.url}/ussd/${appId}/live`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            sessionId,
            serviceCode: '*920*71#',
            phoneNumber: phoneNumberOf(sessionId),
            networkCode: '62001',
            text,
          }),
          signal: AbortSignal.timeout(20_000),
        });
        return `${res.status} ${await res.text()}`;
      };
      const sessions = 300;
      const completed: string[] = [];
      const replies = new Map<string, number>();
      let started = 0;
      let terminated = 0;
      const run = `b${Date.now().toString(36)}`;
      async function caller(): Promise<void> {
        while (started < sessions) {
          const n = started++;
          // Three times during the burst, every connection of the server's pool is ended.
          if (n > 0 && n % 75 === 0) terminated += await terminateConnections(admin, server.databaseName);
          const sessionId = `${run}-${n}`;
          const first = await hop(sessionId, '');
          replies.set(first.slice(0, 3), (replies.get(first.slice(0, 3)) ?? 0) + 1);
          if (!first.startsWith('200 CON')) continue;
          const last = await hop(sessionId, String(1 + (n % 2)));
          replies.set(last.slice(0, 3), (replies.get(last.slice(0, 3)) ?? 0) + 1);
          if (last === '200 END Thanks') completed.push(sessionId);
        }
      }
      await Promise.all(Array.from({ length: 20 }, caller));
      expect(server.isRunning(), server.output().slice(-2000)).toBe(true);
      expect(terminated).toBeGreaterThan(0);
      // A gateway never saw a 500: a hop that met the blink got the end screen.
      expect([...replies.keys()]).toEqual(['200']);
      // Most sessions complete: only those whose hop met a blink end early (each dials from its own number, so
      // no gateway limit stands in).
      expect(completed.length).toBeGreaterThan(sessions / 2);

      // The server writes its records every 250 ms, a blink's rows again once the database is back.
      const reader = new pg.Client({
        connectionString: Object.assign(new URL(testDatabaseUrl), { pathname: `/${server.databaseName}` }).toString(),
      });
      await reader.connect();
      try {
        const readRecords = async () =>
          (
            await reader.query<{ session_id: string; n: number }>(
              "select session_id, count(*)::int as n from session_records where app_id = $1 and status = 'completed' group by session_id",
              [appId],
            )
          ).rows;
        let records = await readRecords();
        for (let i = 0; i < 200 && records.length < completed.length; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          records = await readRecords();
        }
        expect(records.filter((r) => r.n !== 1)).toEqual([]);
        expect(records.map((r) => r.session_id).sort()).toEqual([...completed].sort());
      } finally {
        await reader.end();
      }
      expect(server.isRunning(), server.output().slice(-2000)).toBe(true);
    });
  });
});
