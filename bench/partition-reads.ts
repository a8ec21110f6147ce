/**
 * What a year of day partitions costs the reads that have no time bound (docs/operations.md, "Day partitions on
 * PostgreSQL"): the log panel's next lines by id, and an app's latest finished sessions, over 365 day partitions
 * against one plain table of the same rows. Planning and execution time, the median of 30 runs each (EXPLAIN
 * ANALYZE). A report, never part of `npm test`.
 *
 *   npx tsx bench/partition-reads.ts [--days=365] [--rows=730000] [--postgres=postgres://...]
 */
import { sql } from 'drizzle-orm';
import { dayPartitionName, PARTITIONED_TABLES } from '../src/db/partitions';
import { openScratchDatabase } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const DAYS = Number(args.days ?? 365);
const ROWS = Number(args.rows ?? 730_000);
const DAY = 86_400_000;
const RUNS = 30;

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'partition_reads');
const db = database.db;
const today = Math.floor(Date.now() / DAY) * DAY;
const first = new Date(today - (DAYS - 3) * DAY);
// A year of day partitions: the old tables' (empty) partitions go, and each day from a year back has its own.
for (const { table } of PARTITIONED_TABLES) {
  await db.execute(sql.raw(`alter table ${table} detach partition ${table}_before`));
  await db.execute(sql.raw(`drop table ${table}_before`));
  for (let day = first; day.getTime() < today + 2 * DAY; day = new Date(day.getTime() + DAY))
    await db.execute(
      sql.raw(
        `create table ${dayPartitionName(table, day)} partition of ${table} for values from ('${day.toISOString()}') to ('${new Date(day.getTime() + DAY).toISOString()}')`,
      ),
    );
}
// The same rows in plain tables beside them.
await db.execute(sql`create table logs_plain (like app_logs including all)`);
await db.execute(sql`create table records_plain (like session_records including all)`);
const at = sql`${first.toISOString()}::timestamptz + (n * interval '1 second') * (${(DAYS - 1) * 86_400}::float8 / ${ROWS})`;
for (const table of ['app_logs', 'logs_plain'])
  await db.execute(sql`insert into ${sql.raw(table)} (app_id, session_id, environment, level, type, message, created_at)
    select 'app-' || (n % 20), 's-' || n, 'live', 'info', 'menu_shown', 'Shop: menu shown', ${at} from generate_series(1, ${ROWS}::int) n`);
for (const table of ['session_records', 'records_plain'])
  await db.execute(sql`insert into ${sql.raw(table)} (app_id, session_id, environment, gateway, mobile, network, service_code, status, inputs, hop_count, started_at, ended_at)
    select 'app-' || (n % 20), 's-' || n, 'live', 'africastalking', '23324' || lpad(n::text, 7, '0'), 'MTN', '*920#', 'completed', '{}'::jsonb, 3, ${at}, ${at}
    from generate_series(1, ${ROWS / 4}::int) n`);
for (const table of ['app_logs', 'logs_plain', 'session_records', 'records_plain']) await db.execute(sql.raw(`vacuum analyze ${table}`));
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const lastId = Number(rowsOf<{ id: string }>(await db.execute(sql`select (max(id) - 500)::text as id from app_logs`))[0]!.id);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function measure(label: string, query: string): Promise<void> {
  const planning: number[] = [];
  const execution: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await db.execute(sql.raw(`explain (analyze, format json) ${query}`)));
    const plan = (row!['QUERY PLAN'] as Array<{ 'Planning Time': number; 'Execution Time': number }>)[0]!;
    planning.push(plan['Planning Time']);
    execution.push(plan['Execution Time']);
  }
  console.log(`${label}: planning ${median(planning).toFixed(2)} ms, execution ${median(execution).toFixed(2)} ms`);
}

console.log(`${DAYS} day partitions a table; ${ROWS} log rows, ${ROWS / 4} session records over the year, 20 apps`);
for (const [label, logs, records] of [
  [`${DAYS} partitions`, 'app_logs', 'session_records'],
  ['one plain table', 'logs_plain', 'records_plain'],
] as const) {
  await measure(
    `${label}: the log panel's next lines (by id)`,
    `select * from ${logs} where app_id = 'app-3' and id > ${lastId} order by id limit 200`,
  );
  const dayBefore = new Date(Date.now() - 60_000 - 86_400_000 - 600_000).toISOString();
  await measure(
    `${label}: the log panel's next lines (by id and its last line's time, as it polls now)`,
    `select * from ${logs} where app_id = 'app-3' and id > ${lastId} and created_at > '${dayBefore}' order by id limit 200`,
  );
  await measure(
    `${label}: an app's 100 latest finished sessions`,
    `select * from ${records} where app_id = 'app-3' and status = 'completed' order by ended_at desc limit 100`,
  );
  await measure(
    `${label}: an app's 100 latest finished sessions of the last week (as the lists read first now)`,
    `select * from ${records} where app_id = 'app-3' and status = 'completed' and ended_at >= '${new Date(Date.now() - 7 * DAY).toISOString()}' order by ended_at desc limit 100`,
  );
  await measure(
    `${label}: an app's sessions of the last day`,
    // A time as the server sends one (a bound parameter, so the plan leaves out the other partitions).
    `select count(*) from ${records} where app_id = 'app-3' and ended_at > '${new Date(Date.now() - DAY).toISOString()}'`,
  );
}
await close();
