/**
 * On PostgreSQL the event tables the sink appends to are partitioned by UTC day (docs/operations.md, "Data
 * lifetime"), so the operator's bound drops a whole day's partition rather than deleting its rows one by one. PGlite
 * keeps plain tables (its expiry deletes in small batches at quiet moments).
 *
 * A table is converted once, at start after the migrations, without copying a row: the table as it was becomes the
 * partition `<table>_before` (every time up to the start of the day after tomorrow), under a new partitioned table of
 * the same name, columns, defaults, id sequence, indexes, triggers and views; its range is proved by a CHECK
 * constraint validated beforehand, so the attach reads nothing under its lock. Then each day has its partition
 * `<table>_pYYYYMMDD`, made some days ahead, and `<table>_default` takes a row of any day without one (a far clock, a
 * late row of a day already dropped) so a write never fails for want of a partition.
 *
 * Every step is idempotent and runs under an advisory lock, so processes starting at once convert a table once.
 */
import { sql } from 'drizzle-orm';
import { PARTITIONS_LOCK_KEY, withSessionLock } from './advisory-lock';
import type { Db } from './client';

export interface PartitionedTable {
  table: string;
  /** The time column the table is partitioned by (NOT NULL). */
  at: string;
}

/**
 * The event tables partitioned by day. `session_inputs` is not: no row is written to it any more (a hop's inputs are
 * in its `app_logs` row), so it only shrinks, by the batches of expiry.ts.
 */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'app_logs', at: 'created_at' },
  { table: 'action_results', at: 'created_at' },
  { table: 'session_records', at: 'ended_at' },
  { table: 'whatsapp_messages', at: 'sent_at' },
];

/** Days ahead of today that have their partition. */
export const DAYS_AHEAD = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a step waits for a table's lock before giving up until its next run (the hops' writes are not held long). */
const LOCK_TIMEOUT = '5s';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);
const literal = (at: Date) => `'${at.toISOString()}'`;
/** `app_logs_p20261130`: the partition of that UTC day. */
export const dayPartitionName = (table: string, day: Date) => `${table}_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;

/** One partition of a table: a day's (`from` to `to`), the table as it was (`from` null) or the default (both null). */
export interface Partition {
  name: string;
  from: Date | null;
  to: Date | null;
}

/** Whether the table is partitioned (false on PGlite, and on PostgreSQL before the conversion). */
export async function isPartitioned(db: Db, table: string): Promise<boolean> {
  const [row] = rowsOf<{ kind: string }>(
    await db.execute(sql`select relkind::text as kind from pg_class where oid = to_regclass(${table})`),
  );
  return row?.kind === 'p';
}

const BOUND = /FROM \((?:'([^']+)'|MINVALUE)\) TO \('([^']+)'\)/;

/** The table's partitions, oldest first (the default last). */
export async function findPartitions(db: Db, table: string): Promise<Partition[]> {
  const rows = rowsOf<{ name: string; bound: string }>(
    await db.execute(sql`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table})`),
  );
  const partitions = rows.map(({ name, bound }) => {
    const match = BOUND.exec(bound);
    return { name, from: match?.[1] ? new Date(match[1]) : null, to: match?.[2] ? new Date(match[2]) : null };
  });
  const order = (p: Partition) => (p.to ? p.to.getTime() : Number.POSITIVE_INFINITY);
  return partitions.sort((a, b) => order(a) - order(b));
}

/** SQLSTATE lock_not_available: a lock timeout ran out (drizzle gives the driver's error as its `cause`). */
export const isLockTimeout = (err: unknown): boolean =>
  [(err as { code?: string }).code, (err as { cause?: { code?: string } }).cause?.code].includes('55P03');

/**
 * Inside a transaction: takes the partitions' advisory lock (held to its end), so one process changes them at a time;
 * false when another holds it (the caller leaves the change to its next run). Never waited for: a conversion holding
 * it builds an index CONCURRENTLY, which waits for every open transaction, a waiting one too (a deadlock).
 */
export async function tryLockPartitions(tx: Db): Promise<boolean> {
  const [row] = rowsOf<{ got: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${PARTITIONS_LOCK_KEY}) as got`));
  return row?.got === true;
}

/** Whether a table (a partition) is there. */
export async function tableExists(db: Db, name: string): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from pg_class where oid = to_regclass(${name})`)).length > 0;
}

/** Converts every event table not yet partitioned, and makes the days ahead (PostgreSQL only; `db` on one connection). */
export async function partitionEventTables(db: Db, now = new Date()): Promise<void> {
  await withSessionLock(db, PARTITIONS_LOCK_KEY, async () => {
    for (const table of PARTITIONED_TABLES) {
      if (await isPartitioned(db, table.table)) continue;
      try {
        await convertTable(db, table, now);
      } catch (err) {
        // A table busy past the lock timeout (a long statement on it) stays as it is until the next start.
        if (!isLockTimeout(err)) throw err;
      }
    }
  });
  await addDayPartitions(db, now);
}

/** An index built without holding writes up, again if a build before was cut short (left invalid). */
async function buildIndexConcurrently(db: Db, name: string, definition: string): Promise<void> {
  const [row] = rowsOf<{ valid: boolean }>(
    await db.execute(sql`select indisvalid as valid from pg_index where indexrelid = to_regclass(${name})`),
  );
  if (row?.valid) return;
  if (row) await db.execute(sql.raw(`drop index concurrently ${name}`));
  await db.execute(sql.raw(`create unique index concurrently ${name} on ${definition}`));
}

async function convertTable(db: Db, { table, at }: PartitionedTable, now: Date): Promise<void> {
  const before = `${table}_before`;
  const bound = addDays(startOfDay(now), 2);
  // Outside the transaction, holding no write up: the indexes the partitioned table's keys need on the old table,
  // and the constraint that proves its range, validated while writes go on.
  await buildIndexConcurrently(db, `${before}_key`, `${table} (id, ${at})`);
  if (table === 'whatsapp_messages')
    await buildIndexConcurrently(db, `${before}_provider_at_uq`, `${table} (link_id, provider_message_id, ${at})`);
  await db.execute(sql.raw(`set lock_timeout = '${LOCK_TIMEOUT}'`));
  try {
    await db.execute(sql.raw(`alter table ${table} drop constraint if exists ${before}_range`));
    await db.execute(sql.raw(`alter table ${table} add constraint ${before}_range check (${at} < ${literal(bound)}) not valid`));
    await db.execute(sql.raw(`alter table ${table} validate constraint ${before}_range`));
  } finally {
    await db.execute(sql.raw('reset lock_timeout'));
  }
  await db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
    await run(`lock table ${table} in access exclusive mode`);
    // What hangs on the table by name: its views (app_log_lines), triggers (the webhooks' session events) and
    // indexes, each made again on the partitioned table from its own definition.
    const views = rowsOf<{ name: string; definition: string }>(
      await tx.execute(sql`select distinct v.oid::regclass::text as name, pg_get_viewdef(v.oid) as definition
        from pg_depend d join pg_rewrite r on r.oid = d.objid join pg_class v on v.oid = r.ev_class
        where d.refobjid = to_regclass(${table}) and v.oid <> d.refobjid`),
    );
    const triggers = rowsOf<{ name: string; definition: string }>(
      await tx.execute(sql`select tgname as name, pg_get_triggerdef(oid) as definition from pg_trigger
        where tgrelid = to_regclass(${table}) and not tgisinternal`),
    );
    const indexes = rowsOf<{ name: string; definition: string }>(
      await tx.execute(sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i where i.indrelid = to_regclass(${table}) and not i.indisprimary and not i.indisunique`),
    );
    for (const view of views) await run(`drop view ${view.name}`);
    for (const trigger of triggers) await run(`drop trigger ${trigger.name} on ${table}`);
    for (const index of indexes) await run(`alter index ${index.name} rename to ${index.name}_before`);
    await run(`alter table ${table} rename constraint ${table}_pkey to ${before}_pkey`);
    await run(`alter table ${table} add constraint ${before}_key unique using index ${before}_key`);
    await run(`alter table ${table} rename to ${before}`);
    await run(`create table ${table} (like ${before} including defaults including storage) partition by range (${at})`);
    await run(`alter sequence ${table}_id_seq owned by ${table}.id`);
    await run(`alter table ${table} add constraint ${table}_pkey primary key (id, ${at})`);
    if (table === 'whatsapp_messages') {
      // A partitioned table's unique index holds its partition key: a (link, provider id) is unique with its time,
      // which a batch the sink writes again (a commit whose answer was lost) repeats exactly.
      await run(`alter index whatsapp_messages_provider_uq rename to ${before}_provider_uq`);
      await run(`create unique index whatsapp_messages_provider_uq on ${table} (link_id, provider_message_id, ${at})`);
    }
    for (const index of indexes) await run(index.definition);
    // The old table's indexes match the new ones, so the attach takes them as they are, and the validated
    // constraint spares it reading the rows.
    await run(`alter table ${table} attach partition ${before} for values from (minvalue) to (${literal(bound)})`);
    await run(`create table ${table}_default partition of ${table} default`);
    for (const trigger of triggers) await run(trigger.definition);
    for (const view of views) await run(`create view ${view.name} as ${view.definition}`);
  });
}

/**
 * Makes each partitioned table's partitions from the end of its last one (or today) through DAYS_AHEAD days after
 * today; a day's rows already in the default partition move into the day's. Answers how many it made.
 */
export async function addDayPartitions(db: Db, now = new Date()): Promise<number> {
  let made = 0;
  const until = addDays(startOfDay(now), DAYS_AHEAD + 1);
  for (const { table, at } of PARTITIONED_TABLES) {
    if (!(await isPartitioned(db, table))) continue;
    const ranged = (await findPartitions(db, table)).filter((p) => p.to);
    // From the end of the last partition, or from today when that is past (the days between go to the default).
    const last = ranged[ranged.length - 1]?.to;
    let day = last && last > startOfDay(now) ? last : startOfDay(now);
    for (; day < until; day = addDays(day, 1)) {
      const name = dayPartitionName(table, day);
      const end = addDays(day, 1);
      await db.transaction(async (tx) => {
        const run = (text: string) => tx.execute(sql.raw(text));
        if (!(await tryLockPartitions(tx)) || (await tableExists(tx, name))) return;
        await run(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
        await run(`create table ${name} (like ${table} including defaults including storage)`);
        const range = `${at} >= ${literal(day)} and ${at} < ${literal(end)}`;
        await run(`with moved as (delete from ${table}_default where ${range} returning *) insert into ${name} select * from moved`);
        await run(`alter table ${table} attach partition ${name} for values from (${literal(day)}) to (${literal(end)})`);
        made++;
      });
    }
  }
  return made;
}
