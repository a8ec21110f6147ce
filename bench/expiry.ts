/**
 * Expiry while hops are served, and the database's size per million sessions (docs/operations.md, "Data
 * lifetime"): a day of old sessions' rows (written in order, four days back) is expired by the retention sweep
 * while the bench shop's sessions hop in the same process (as every process sweeps), and each hop's time is taken
 * before and during the sweep. The size is the database's growth over the real sessions the bench runs. A report,
 * never part of `npm test`.
 *
 *   npx tsx bench/expiry.ts [--db=pglite|postgres] [--old=200000] [--sessions=20000] [--per-account=1] [--postgres=postgres://...]
 *     [--day-partition=1] [--inputs=0]
 *
 * On PostgreSQL the old day lands in the partition of a table as it was before partitioning (every time before the
 * day after tomorrow), so the operator's bound deletes it by id; with --day-partition=1 it has its own day's
 * partition, as every day after the conversion does, and the bound drops it whole (db/partitions.ts). --inputs=0
 * writes no `session_inputs` rows (no hop writes any since a hop's inputs went into its log row; that table is not
 * partitioned).
 *
 * By default the operator's bound expires the day (DATA_RETENTION_DAYS=2: every account at once, by id). With
 * --per-account=1 the operator keeps 365 days and the shop's account asks for 2 of everything: its log lines and
 * records go by their (app, time) index, its inputs by id windows (features/retention/expiry.ts).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parse as parseForm } from 'node:querystring';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { createConfig } from '../src/server/config';
import { sweepExpiredRows } from '../src/server/features/retention/expiry';
import { dayPartitionName, PARTITIONED_TABLES } from '../src/db/partitions';
import { openScratchDatabase } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';
import { seedShop } from './seed-shop';
import { atForm, expectedReply } from './shop';

const args = readBenchArgs();
const kind = args.db === 'postgres' ? 'postgres' : 'pglite';
const OLD_SESSIONS = Number(args.old ?? 200_000);
const SESSIONS = Number(args.sessions ?? 20_000);
const CONCURRENCY = 20;
/** Sessions started a second while the hops' times are taken (3 hops each). */
const RATE = Number(args.rate ?? 100);
const DAY = 86_400_000;

let dataDir = '';
let database: Database;
let closeDatabase: () => Promise<void>;
if (kind === 'postgres') {
  const scratch = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'expiry');
  database = scratch.database;
  closeDatabase = scratch.close;
} else {
  // As `npm start` opens it: PGlite's files in a folder, on its own low-priority thread.
  dataDir = mkdtempSync(join(tmpdir(), 'dialflow-expiry-'));
  database = await openDatabase({ dataDir, thread: true, lowPriority: true });
  await database.migrate();
  closeDatabase = () => database.close();
}
const perAccount = args['per-account'] === '1';
const app = await buildApp(
  createConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    BILLING: 'off',
    DATA_RETENTION_DAYS: perAccount ? 365 : 2,
    DATA_RETENTION_INTERVAL_MS: 0,
  }),
  { database, logger: false },
);
await app.ready();
const { appId } = await seedShop(app);
const db = app.ctx.db;
if (perAccount)
  await db.execute(
    sql`update users set retention = '{"logs":2,"inputs":2,"sessions":2,"actionResults":2,"messages":2}'::jsonb where email = 'bench@bench.dialflow'`,
  );

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
async function databaseBytes(): Promise<number> {
  if (kind === 'postgres') {
    await db.execute(sql`checkpoint`);
    return Number(rowsOf<{ n: string }>(await db.execute(sql`select pg_database_size(current_database())::text as n`))[0]!.n);
  }
  await db.execute(sql`checkpoint`);
  const walk = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (sum, e) => sum + (e.isDirectory() ? walk(join(dir, e.name)) : statSync(join(dir, e.name)).size),
      0,
    );
  return walk(dataDir);
}
const EVENT_TABLES = ['app_logs', 'session_inputs', 'action_results', 'session_records'];
const countRows = async () =>
  Object.fromEntries(
    await Promise.all(
      EVENT_TABLES.map(async (t) => [
        t,
        Number(rowsOf<{ n: string }>(await db.execute(sql.raw(`select count(*)::text as n from ${t}`)))[0]!.n),
      ]),
    ),
  ) as Record<string, number>;

const oldDay = new Date(Math.floor(Date.now() / DAY) * DAY - 4 * DAY);
// --day-partition=1: the empty partitions of the tables as they were go, and each day from the old one has its own.
const dayPartition = args['day-partition'] === '1';
const withInputs = args.inputs !== '0';
if (dayPartition) {
  if (kind !== 'postgres') throw new Error('--day-partition=1 is for --db=postgres');
  for (const { table } of PARTITIONED_TABLES) {
    await db.execute(sql.raw(`alter table ${table} detach partition ${table}_before`));
    await db.execute(sql.raw(`drop table ${table}_before`));
    for (let day = oldDay; day.getTime() < oldDay.getTime() + 6 * DAY; day = new Date(day.getTime() + DAY)) {
      const end = new Date(day.getTime() + DAY);
      await db.execute(
        sql.raw(
          `create table ${dayPartitionName(table, day)} partition of ${table} for values from ('${day.toISOString()}') to ('${end.toISOString()}')`,
        ),
      );
    }
  }
}

// The old day: as many rows a session as the shop's real sessions write (3 hops: 8 log lines, 3 inputs, 1 record,
// as the size run below counts them; the shop runs no action), a whole day four days back, in the order they happened, in batches.
const seedStarted = performance.now();
const BATCH = 20_000;
for (let from = 0; from < OLD_SESSIONS; from += BATCH) {
  const to = Math.min(OLD_SESSIONS, from + BATCH) - 1;
  const at = sql`${oldDay.toISOString()}::timestamptz + (n * interval '1 second') * (86000.0 / ${OLD_SESSIONS})`;
  await db.execute(sql`insert into app_logs (app_id, session_id, environment, level, type, message, created_at)
    select ${appId}, 'old-' || n, 'live', 'info', t, 'Shop: menu shown', ${at} from generate_series(${from}::int, ${to}::int) n, unnest(array['session_started', 'menu_shown', 'input', 'menu_shown', 'input', 'menu_shown', 'input', 'session_ended']) t`);
  if (withInputs)
    await db.execute(sql`insert into session_inputs (app_id, session_id, field_name, field_value, created_at)
    select ${appId}, 'old-' || n, f, '1', ${at} from generate_series(${from}::int, ${to}::int) n, unnest(array['product', 'amount', 'confirm']) f`);
  await db.execute(sql`insert into session_records (app_id, session_id, environment, gateway, mobile, network, service_code, status, inputs, hop_count, started_at, ended_at)
    select ${appId}, 'old-' || n, 'live', 'africastalking', '23324' || lpad(n::text, 7, '0'), 'MTN', '*920*55#', 'completed', '{}'::jsonb, 3, ${at}, ${at} from generate_series(${from}::int, ${to}::int) n`);
}
const seedMs = performance.now() - seedStarted;
const oldRows = await countRows();

/** One shop session of three hops through the runtime (no HTTP), each hop's time kept. */
async function session(n: number, times: number[]) {
  for (let step = 0; step < 3; step++) {
    const body = parseForm(atForm(`s${n}`, step, n));
    const started = performance.now();
    const reply = await app.runtime.handleRequest(appId, 'live', {
      method: 'POST',
      query: {},
      body,
      contentType: 'application/x-www-form-urlencoded',
    });
    times.push(performance.now() - started);
    if (reply?.body !== expectedReply(step, n)) throw new Error(`hop ${step} of ${n}: ${reply?.body}`);
    // A turn of the event loop between hops, as a server's I/O gives: the sink's writes and the sweep get theirs.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
let nextSession = 0;
/** Sessions, CONCURRENCY at a time, until `until` says stop (as fast as they go); answers the hops' times. */
async function hopWhile(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!until()) await session(nextSession++, times);
    }),
  );
  return times;
}
/** Sessions started at RATE a second (an open load: the rate holds whatever the answers' times) until `until` says stop. */
async function hopPaced(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  const running = new Set<Promise<void>>();
  const started = performance.now();
  let count = 0;
  while (!until()) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    for (; count < due; count++) {
      const one = session(nextSession++, times).finally(() => running.delete(one));
      running.add(one);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(running);
  return times;
}
const quantile = (times: number[], q: number) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const describe = (times: number[], ms: number) =>
  `${times.length} hops in ${(ms / 1000).toFixed(1)} s (${((times.length / ms) * 1000).toFixed(0)} hops/s), p50 ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms, max ${quantile(times, 1).toFixed(1)} ms`;

// The size of real sessions: the database's growth over SESSIONS shop sessions.
await hopWhile(() => nextSession >= 1000); // warm-up
await app.runtime.flushEvents();
const sizeBefore = await databaseBytes();
const sizeFrom = nextSession;
await hopWhile(() => nextSession >= sizeFrom + SESSIONS);
await app.runtime.flushEvents();
const sizeAfter = await databaseBytes();
const realRows = await countRows();

// The seeded and written tables vacuumed and analysed now, so no autovacuum lands in one window only.
for (const table of EVENT_TABLES) await db.execute(sql.raw(`vacuum analyze ${table}`));

// Before: hops alone, 20 seconds.
const beforeStarted = performance.now();
const before = await hopPaced(() => performance.now() >= beforeStarted + 20_000);
const beforeMs = performance.now() - beforeStarted;

// During: the sweep, one after another until it is not behind, while the hops go on.
let sweeping = true;
let sweeps = 0;
let deleted = 0;
const dropped: string[] = [];
const sweepStarted = performance.now();
const sweeper = (async () => {
  for (;;) {
    const result = await sweepExpiredRows(app.ctx);
    sweeps++;
    deleted += Object.values(result.deleted).reduce((a, b) => a + b, 0);
    dropped.push(...(result.dropped ?? []));
    if (!result.isBehind) break;
  }
  sweeping = false;
})();
const during = await hopPaced(() => !sweeping);
await sweeper;
const sweepMs = performance.now() - sweepStarted;

const perMillion = ((sizeAfter - sizeBefore) / SESSIONS) * 1_000_000;
const oldTotal = EVENT_TABLES.reduce((sum, t) => sum + oldRows[t]!, 0);
console.log(
  `database: ${kind}; old day: ${OLD_SESSIONS} sessions, ${oldTotal} rows (${JSON.stringify(oldRows)}), seeded in ${(seedMs / 1000).toFixed(1)} s`,
);
console.log(
  `size: ${SESSIONS} shop sessions grew the database by ${((sizeAfter - sizeBefore) / 1e6).toFixed(1)} MB: ${(perMillion / 1e9).toFixed(2)} GB per million sessions (rows now ${JSON.stringify(realRows)})`,
);
console.log(`before: ${describe(before, beforeMs)}`);
console.log(`during: ${describe(during, sweepMs)}`);
console.log(
  `expiry: ${deleted} rows in ${(sweepMs / 1000).toFixed(1)} s over ${sweeps} sweeps (${((deleted / sweepMs) * 1000).toFixed(0)} rows/s)`,
);
const oldEnd = new Date(oldDay.getTime() + DAY).toISOString();
const oldLeft = Object.fromEntries(
  await Promise.all(
    EVENT_TABLES.map(async (t) => {
      const at = t === 'session_records' ? 'ended_at' : 'created_at';
      return [
        t,
        Number(rowsOf<{ n: string }>(await db.execute(sql.raw(`select count(*)::text as n from ${t} where ${at} < '${oldEnd}'`)))[0]!.n),
      ];
    }),
  ),
);
console.log(
  `expiry: ${dropped.length} partitions dropped (${dropped.join(', ') || 'none'}); the old day's rows left ${JSON.stringify(oldLeft)}`,
);
await app.close();
await closeDatabase();
