/**
 * Expiry of the tables that grow with traffic (docs/operations.md, "Data lifetime"): each row goes once its account's
 * retention for its kind (retention-terms.ts) is past, a bounded batch at a time, so expiry never holds a hop up and
 * no index is added to the tables every hop writes to.
 *
 * Three ways of finding the rows, by what the table already has:
 * - the operator's bound, for every account at once, on the event tables the sink appends to: on PostgreSQL, whose
 *   tables are partitioned by day (db/partitions.ts), each day's partition is dropped whole once the day is past
 *   (day-partitions.ts); on PGlite, and in the partitions that are not a day's, by their serial id. Ids grow with
 *   time, so the newest id before the cutoff is found by a binary search over the primary key (a few dozen point
 *   reads whatever the table's size) and everything below it goes in batches of ids;
 * - an account's shorter retention on a table with an (app or owner, time) index: by that index, for the group of
 *   accounts keeping the kind for as many days (one group per plan figure and per distinct ask);
 * - a shorter retention on a table without one (inputs, action results: their only index is the session's): id
 *   windows between the operator's cutoff and the group's, each statement reading at most `windowSize` rows by the
 *   primary key and deleting the group's apps' rows among them. How far each group's windows have gone is kept per
 *   process, so later sweeps read only new windows; a process that starts again, or a group that gains an app older
 *   than its mark (an account that lowered its retention, a plan that changed), reads the range once more.
 *
 * A row a few seconds out of order (two processes' batches) goes a tick early or late. Several processes sweeping at
 * once delete the same rows at most twice over (a delete is idempotent).
 */
import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import type { RetentionKind } from '../../../shared/billing/plans';
import type { AppContext } from '../../context';
import { type DayTally, getRolledUpUntil, rollUpSessionDays, tallyDeleted } from './daily-counts';
import { dropPartitionsBefore } from './day-partitions';
import { findCutoffId } from './serial-ids';
import { findRetentionGroups, getOperatorDays, getRetentionCutoff, type RetentionGroup } from './retention-terms';

interface ExpiringTable {
  table: string;
  kind: Exclude<RetentionKind, 'media'>;
  /** The column that says when the row happened. */
  at: string;
  /** The column naming whose row it is: an app or an account (owner). */
  key: 'app_id' | 'owner_id';
  /** Rows the sink appends in order, with a serial id: the operator's bound goes by id. */
  isSerial: boolean;
  /** How an account's shorter retention finds the rows: its (key, time) index, or id windows. */
  byIndex: boolean;
  /** Rows that must stay whatever their age (not yet sent, still open). */
  keep?: string;
  /** The dashboard's daily counts the rows are added to as they go (daily-counts.ts `tallyDeleted`). */
  tally?: DayTally;
}

/** Every table that grows with traffic; the docs list each with its kind (docs/operations.md, "Data lifetime"). */
export const EXPIRING: readonly ExpiringTable[] = [
  { table: 'app_logs', kind: 'logs', at: 'created_at', key: 'app_id', isSerial: true, byIndex: true },
  // A hop's row holds its inputs too (docs/runtime.md, "What a hop keeps"): an account's shorter retention for
  // either kind takes that part of the row (expireHopRows); the operator's bound is the same for both.
  { table: 'app_logs', kind: 'inputs', at: 'created_at', key: 'app_id', isSerial: true, byIndex: true },
  { table: 'session_inputs', kind: 'inputs', at: 'created_at', key: 'app_id', isSerial: true, byIndex: false },
  { table: 'action_results', kind: 'actionResults', at: 'created_at', key: 'app_id', isSerial: true, byIndex: false },
  { table: 'session_records', kind: 'sessions', at: 'ended_at', key: 'app_id', isSerial: true, byIndex: true },
  { table: 'whatsapp_messages', kind: 'messages', at: 'sent_at', key: 'app_id', isSerial: true, byIndex: true, tally: 'messages' },
  { table: 'sms_messages', kind: 'messages', at: 'created_at', key: 'owner_id', isSerial: false, byIndex: true, keep: "status = 'QUEUED'" },
  { table: 'sms_replies', kind: 'messages', at: 'received_at', key: 'owner_id', isSerial: false, byIndex: true },
  {
    table: 'whatsapp_first_messages',
    kind: 'messages',
    at: 'created_at',
    key: 'app_id',
    isSerial: false,
    byIndex: true,
    keep: "status = 'sending'",
  },
  // A closed conversation goes whole, its messages with it (their foreign key); an open one stays.
  {
    table: 'inbox_conversations',
    kind: 'messages',
    at: 'closed_at',
    key: 'app_id',
    isSerial: false,
    byIndex: true,
    keep: "status <> 'closed'",
    tally: 'inbox',
  },
  {
    table: 'webhook_deliveries',
    kind: 'logs',
    at: 'created_at',
    key: 'app_id',
    isSerial: false,
    byIndex: true,
    keep: "status in ('pending', 'sending')",
  },
];

const EXPIRING_KINDS = [...new Set(EXPIRING.map((t) => t.kind))];
/** Keys per statement: a group's apps or owners go in chunks, so no statement carries an unbounded list. */
const KEYS_PER_STATEMENT = 1000;

const affected = (result: unknown) =>
  (result as { affectedRows?: number; rowCount?: number }).affectedRows ?? (result as { rowCount?: number }).rowCount ?? 0;

/** Deletes the table's rows `where` picks, adding them to its daily counts first where it has them; answers how many went. */
async function deleteRows(ctx: AppContext, table: ExpiringTable, where: SQL): Promise<number> {
  if (table.tally) return tallyDeleted(ctx, table.tally, where, table.table);
  return affected(await ctx.db.execute(sql`delete from ${sql.raw(table.table)} where ${where}`));
}

export interface RetentionSweep {
  /** Rows deleted per table in this sweep. */
  deleted: Record<string, number>;
  /** True when a table still had expired rows when the sweep's batches ran out (the next sweep goes on). */
  isBehind: boolean;
  /** On PostgreSQL, the day partitions dropped whole (day-partitions.ts); left out when none. */
  dropped?: string[];
}

export interface SweepOptions {
  /** Rows per delete. */
  batchSize?: number;
  /** Deletes (or id windows) per table and group in one sweep. */
  maxBatches?: number;
  /** Ids one window statement reads, for the tables without a time index. */
  windowSize?: number;
  /**
   * Whether the hops are busy (the event writer behind): between batches the sweep waits while it is, and stops
   * (behind, for the next sweep) after `busyWaitMs` of waiting, so expiry takes the database's quiet moments.
   */
  isBusy?: () => boolean;
  busyWaitMs?: number;
}

/** How often a waiting sweep looks again whether the hops are still busy. */
const BUSY_CHECK_MS = 100;

/**
 * Between two batches: the hops' own statements get the database, and while they are busy the sweep waits; false
 * when it waited `busyWaitMs` and they still are (the sweep stops there).
 */
function createBreather({ isBusy, busyWaitMs = 5000 }: SweepOptions): () => Promise<boolean> {
  return async () => {
    await yieldToEventLoop();
    for (let waited = 0; isBusy?.(); waited += BUSY_CHECK_MS) {
      if (waited >= busyWaitMs) return false;
      await sleep(BUSY_CHECK_MS);
    }
    return true;
  };
}

/** How far a group's id windows have gone in one table: every id up to `throughId` was looked at for `cutoff`. */
interface WindowMark {
  throughId: number;
  cutoff: Date;
  appIds: Set<string>;
}
/** Per process (per context: tests run several apps in one process), per table and group's days. */
const windowMarks = new WeakMap<AppContext, Map<string, WindowMark>>();

const chunksOf = <T>(items: readonly T[]) => {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += KEYS_PER_STATEMENT) chunks.push(items.slice(i, i + KEYS_PER_STATEMENT));
  return chunks;
};

/**
 * One sweep: the sessions' daily counts rolled up first (records only go once their day is counted), then every
 * expiring table's rows past their accounts' retention, at most `maxBatches` batches of `batchSize` a table and
 * group, waiting between batches while the hops are busy.
 */
export async function sweepExpiredRows(ctx: AppContext, options: SweepOptions = {}): Promise<RetentionSweep> {
  const { batchSize = 5000, maxBatches = 20, windowSize = 50_000 } = options;
  const deleted: Record<string, number> = {};
  const dropped: string[] = [];
  let isBehind = false;
  const groupsByKind = await findRetentionGroups(ctx, EXPIRING_KINDS);
  const operatorDays = getOperatorDays(ctx.config, 'logs');
  if (operatorDays === null && [...groupsByKind.values()].every((groups) => groups.length === 0)) return { deleted, isBehind };
  await rollUpSessionDays(ctx);
  // Records go only once their day is counted: never past the day after the last one rolled up.
  const countedUntil = await getRolledUpUntil(ctx);
  const clamp = (table: ExpiringTable, cutoff: Date) =>
    table.table === 'session_records' && countedUntil && countedUntil < cutoff ? countedUntil : cutoff;
  const operatorCutoff = operatorDays === null ? null : getRetentionCutoff(ctx.now(), operatorDays);
  const batches: Batches = { batchSize, maxBatches, breathe: createBreather(options) };

  sweep: for (const table of EXPIRING) {
    deleted[table.table] ??= 0;
    const add = (n: number) => {
      deleted[table.table]! += n;
    };
    // The operator's bound, every account at once, by id.
    let floorId = 0;
    // app_logs's second entry (its inputs) has nothing left under the operator's bound once its first went.
    const isSecondPart = table.table === 'app_logs' && table.kind === 'inputs';
    if (table.isSerial && operatorCutoff && !isSecondPart) {
      const cutoff = clamp(table, operatorCutoff);
      // On PostgreSQL, whole days' partitions go first; what is left past the bound is in the others (day-partitions.ts).
      const drops = await dropPartitionsBefore(ctx, table, cutoff);
      if (drops) {
        dropped.push(...drops.dropped);
        isBehind ||= drops.isLocked;
      }
      let done: Done = true;
      for (const part of drops?.rest ?? [{ name: table.table, isOrdered: true }]) {
        const target = { ...table, table: part.name };
        done = part.isOrdered
          ? await deleteBelowId(ctx, target, await findCutoffId(ctx, part.name, table.at, cutoff), batches, add)
          : await deleteBeforeTime(ctx, target, cutoff, batches, add);
        if (done !== true) break;
      }
      isBehind ||= done !== true;
      if (done === 'busy') break;
      // The id windows of the tables without a time index start from the bound's id (the whole table's).
      if (!table.byIndex) floorId = await findCutoffId(ctx, table.table, table.at, cutoff);
    }
    for (const group of groupsByKind.get(table.kind) ?? []) {
      // The operator's bound already took these on a serial table.
      if (table.isSerial && operatorDays !== null && group.days >= operatorDays) continue;
      const cutoff = clamp(table, group.cutoff);
      const done =
        table.table === 'app_logs'
          ? await expireHopRows(ctx, table, group, cutoff, batches, add)
          : table.byIndex
            ? await deleteByIndex(ctx, table, group, cutoff, batches, add)
            : await deleteByWindows(ctx, table, group, cutoff, floorId, { ...batches, windowSize }, add);
      isBehind ||= done !== true;
      if (done === 'busy') break sweep;
    }
  }
  const total = Object.values(deleted).reduce((a, b) => a + b, 0);
  if (total > 0 || isBehind || dropped.length > 0) ctx.log.info({ deleted, dropped, isBehind }, 'expired rows deleted');
  return dropped.length > 0 ? { deleted, isBehind, dropped } : { deleted, isBehind };
}

/** How much one table and group may delete in a sweep, and the pause between its batches. */
interface Batches {
  batchSize: number;
  maxBatches: number;
  breathe: () => Promise<boolean>;
}

/** What a table's batches came to: all gone (true), batches ran out (false), or the hops stayed busy ('busy'). */
type Done = boolean | 'busy';

/** The rows `pick` chooses (a condition, and an order), in batches, until a batch takes fewer than its size. */
async function deleteEachBatch(
  ctx: AppContext,
  table: ExpiringTable,
  pick: SQL,
  { batchSize, maxBatches, breathe }: Batches,
  add: (n: number) => void,
): Promise<Done> {
  const name = sql.raw(table.table);
  for (let batch = 0; batch < maxBatches; batch++) {
    const count = await deleteRows(ctx, table, sql`id in (select id from ${name} where ${pick} limit ${batchSize})`);
    add(count);
    if (count < batchSize) return true;
    if (!(await breathe())) return 'busy';
  }
  return false;
}

/** Every row with an id up to `lastId`, in batches. */
const deleteBelowId = (ctx: AppContext, table: ExpiringTable, lastId: number, batches: Batches, add: (n: number) => void) =>
  lastId === 0 ? Promise.resolve<Done>(true) : deleteEachBatch(ctx, table, sql`id <= ${lastId} order by id`, batches, add);

/** Every row before `cutoff` of a small table in no time order (PostgreSQL's default partition), in batches. */
const deleteBeforeTime = (ctx: AppContext, table: ExpiringTable, cutoff: Date, batches: Batches, add: (n: number) => void) =>
  deleteEachBatch(ctx, table, sql`${sql.raw(table.at)} < ${cutoff.toISOString()}::timestamptz`, batches, add);

/**
 * Runs `run` over the group's rows before `cutoff` (and matching `also`) by the table's (key, time) index, in
 * batches: `run` is given `id in (...)` of at most `batchSize` of them and answers how many it took, until it takes
 * fewer.
 */
async function eachBatchByIndex(
  table: ExpiringTable,
  group: RetentionGroup,
  cutoff: Date,
  { batchSize, maxBatches, breathe }: Batches,
  also: SQL | undefined,
  run: (where: SQL) => Promise<number>,
): Promise<Done> {
  const keys = table.key === 'app_id' ? group.apps.map((a) => a.id) : group.ownerIds;
  const keep: SQL = table.keep ? sql.raw(` and not (${table.keep})`) : sql``;
  const andAlso: SQL = also ? sql` and ${also}` : sql``;
  const name = sql.raw(table.table);
  let batches = 0;
  for (const chunk of chunksOf(keys)) {
    for (;;) {
      if (batches++ >= maxBatches) return false;
      // The time bound outside too: on a partitioned table the statement then reads only the partitions before it.
      const count = await run(
        sql`${sql.raw(table.at)} < ${cutoff.toISOString()}::timestamptz and id in (select id from ${name}
          where ${sql.raw(table.key)} in ${chunk} and ${sql.raw(table.at)} < ${cutoff.toISOString()}::timestamptz${keep}${andAlso}
          limit ${batchSize})`,
      );
      if (count < batchSize) break;
      if (!(await breathe())) return 'busy';
    }
  }
  return true;
}

/** The group's rows before `cutoff` (and matching `also`) by the table's (key, time) index, in batches. */
async function deleteByIndex(
  ctx: AppContext,
  table: ExpiringTable,
  group: RetentionGroup,
  cutoff: Date,
  batches: Batches,
  add: (n: number) => void,
  also?: SQL,
): Promise<Done> {
  return eachBatchByIndex(table, group, cutoff, batches, also, async (where) => {
    const count = await deleteRows(ctx, table, where);
    add(count);
    return count;
  });
}

/**
 * A group's shorter retention for log lines or for inputs on `app_logs`, by its (app, time) index: a row that keeps
 * nothing else goes (a line row; a hop's row without inputs, or whose lines went), and a hop's row that keeps the
 * other part loses this one (its lines become '[]', or its inputs null).
 */
async function expireHopRows(
  ctx: AppContext,
  table: ExpiringTable,
  group: RetentionGroup,
  cutoff: Date,
  batches: Batches,
  add: (n: number) => void,
): Promise<Done> {
  const steps =
    table.kind === 'inputs'
      ? { goes: sql`inputs is not null and lines = '[]'::jsonb`, loses: sql`inputs is not null`, set: sql`inputs = null` }
      : { goes: sql`inputs is null`, loses: sql`inputs is not null and lines <> '[]'::jsonb`, set: sql`lines = '[]'::jsonb, data = null` };
  const deleted = await deleteByIndex(ctx, table, group, cutoff, batches, add, steps.goes);
  if (deleted !== true) return deleted;
  return eachBatchByIndex(table, group, cutoff, batches, steps.loses, async (where) =>
    affected(await ctx.db.execute(sql`update app_logs set ${steps.set} where ${where}`)),
  );
}

/**
 * The group's rows before `cutoff` on a table without a time index: id windows from where the group's last sweep
 * stopped (or the operator's cutoff) to the group's cutoff id; true when the windows reached it.
 */
async function deleteByWindows(
  ctx: AppContext,
  table: ExpiringTable,
  group: RetentionGroup,
  cutoff: Date,
  floorId: number,
  { windowSize, maxBatches, breathe }: Batches & { windowSize: number },
  add: (n: number) => void,
): Promise<Done> {
  if (group.apps.length === 0) return true;
  if (!windowMarks.has(ctx)) windowMarks.set(ctx, new Map());
  const marks = windowMarks.get(ctx)!;
  const markKey = `${table.table}:${group.days}`;
  const mark = marks.get(markKey);
  // An app new to the group with rows from before the mark's cutoff: its older rows were never looked at for it.
  const isMarkGood = mark && group.apps.every((app) => mark.appIds.has(app.id) || app.createdAt >= mark.cutoff);
  let from = Math.max(floorId, isMarkGood ? mark.throughId : 0);
  const lastId = await findCutoffId(ctx, table.table, table.at, cutoff);
  const appIds = group.apps.map((a) => a.id);
  const chunks = chunksOf(appIds);
  for (let window = 0; window < maxBatches && from < lastId; window++) {
    const to = Math.min(from + windowSize, lastId);
    for (const chunk of chunks) add(await deleteRows(ctx, table, sql`id > ${from} and id <= ${to} and ${sql.raw(table.key)} in ${chunk}`));
    from = to;
    marks.set(markKey, { throughId: from, cutoff, appIds: new Set(appIds) });
    if (from < lastId && !(await breathe())) return 'busy';
  }
  return from >= lastId;
}
