/**
 * A day's rows gone on PostgreSQL (docs/operations.md, "Day partitions on PostgreSQL"): the time to drop a day's
 * partition (a `whatsapp_messages` one counted into `message_day_counts` first, in the same transaction) against the
 * time to delete the same rows by the batches of 5,000 ids the sweep uses on PGlite. No hops run: bench/expiry.ts
 * measures them while a day goes. A report, never part of `npm test`.
 *
 *   npx tsx bench/partition-drop.ts [--rows=1600000] [--messages=1000000] [--postgres=postgres://...]
 */
import { performance } from 'node:perf_hooks';
import { type SQL, sql } from 'drizzle-orm';
import { dayPartitionName } from '../src/db/partitions';
import type { AppContext } from '../src/server/context';
import { tallyDeleted } from '../src/server/features/retention/daily-counts';
import { dropPartitionsBefore } from '../src/server/features/retention/day-partitions';
import { openScratchDatabase } from './bench-app';
import { DEFAULT_POSTGRES_URL, readBenchArgs } from './scratch-database';

const args = readBenchArgs();
const ROWS = Number(args.rows ?? 1_600_000);
const MESSAGES = Number(args.messages ?? 1_000_000);
const BATCH = 5000;
const DAY = 86_400_000;

const { database, close } = await openScratchDatabase(args.postgres ?? DEFAULT_POSTGRES_URL, 'partition_drop');
const db = database.db;
const ctx = { db } as AppContext;
// The first day with its own partition (the conversion made the day after tomorrow's).
const day = new Date(Math.floor(Date.now() / DAY) * DAY + 2 * DAY);
const at = (n: number) => sql`${day.toISOString()}::timestamptz + (n * interval '1 millisecond') * (86000000.0 / ${n})`;

const fillLogs = (table: string) =>
  db.execute(sql`insert into ${sql.raw(table)} (app_id, session_id, environment, level, type, message, created_at)
    select 'app-' || (n % 50), 's-' || (n / 8), 'live', 'info', 'menu_shown', 'Shop: menu shown', ${at(ROWS)}
    from generate_series(1, ${ROWS}::int) n`);
const fillMessages = (table: string) =>
  db.execute(sql`insert into ${sql.raw(table)} (user_id, app_id, link_id, environment, to_number, provider_message_id, kind, status, sent_at)
    select 'u', 'app-' || (n % 50), 'l', 'live', '2332' || n, 'm-' || n, 'text', (array['sent', 'delivered', 'read'])[1 + n % 3], ${at(MESSAGES)}
    from generate_series(1, ${MESSAGES}::int) n`);

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(2)} s`);
}

/** Every row of `table`, a batch of 5,000 ids at a time, as the sweep's operator bound deletes on PGlite. */
async function deleteInBatches(table: string, remove: (where: SQL) => Promise<number>): Promise<void> {
  for (;;) {
    const count = await remove(sql`id in (select id from ${sql.raw(table)} order by id limit ${BATCH})`);
    if (count < BATCH) return;
  }
}
const affected = (result: unknown) => (result as { rowCount?: number }).rowCount ?? 0;

// Plain tables of the same shape for the batches (a partitioned table's old rows go the same way).
await db.execute(sql`create table logs_plain (like app_logs including all)`);
await db.execute(sql`create table messages_plain (like whatsapp_messages including all)`);
await fillLogs(dayPartitionName('app_logs', day));
await fillLogs('logs_plain');
await fillMessages(dayPartitionName('whatsapp_messages', day));
await fillMessages('messages_plain');
for (const table of ['app_logs', 'logs_plain', 'whatsapp_messages', 'messages_plain']) await db.execute(sql.raw(`vacuum analyze ${table}`));

const cutoff = new Date(day.getTime() + DAY);
console.log(`${ROWS} log rows, ${MESSAGES} messages, one day each`);
await timed(`app_logs: the day's partition dropped`, () => dropPartitionsBefore(ctx, { table: 'app_logs' }, cutoff));
await timed(`app_logs: the same rows deleted in batches of ${BATCH}`, () =>
  deleteInBatches('logs_plain', async (where) => affected(await db.execute(sql`delete from logs_plain where ${where}`))),
);
await timed(`whatsapp_messages: the day's partition counted and dropped`, () =>
  dropPartitionsBefore(ctx, { table: 'whatsapp_messages', tally: 'messages' }, cutoff),
);
await timed(`whatsapp_messages: the same rows counted and deleted in batches of ${BATCH}`, () =>
  deleteInBatches('messages_plain', (where) => tallyDeleted(ctx, 'messages', where, 'messages_plain')),
);
await close();
