/**
 * The event tables' lifetime (docs/operations.md, "Data lifetime"): log lines, inputs, action results and session
 * records older than DATA_RETENTION_DAYS are deleted, a bounded batch at a time, so expiry never holds a hop up.
 *
 * Rows are found by their serial id, not by a time index: the event sink appends them in the order they happen, so
 * ids grow with time. The newest id older than the cutoff is found by a binary search over the primary key (a few
 * dozen point reads whatever the table's size), and everything below it goes in batches of `batchSize` ids. A row a
 * few seconds out of order (two processes' batches) goes a tick early or late; no index is added to the tables
 * every hop writes to.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';

/** The tables that grow with every hop, and the column that says when a row happened. */
const EXPIRING = [
  { table: 'app_logs', at: 'created_at' },
  { table: 'session_inputs', at: 'created_at' },
  { table: 'action_results', at: 'created_at' },
  { table: 'session_records', at: 'ended_at' },
] as const;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The highest id whose row happened before `cutoff` (0: none), by a binary search over the primary key. */
async function findCutoffId(ctx: AppContext, table: string, at: string, cutoff: Date): Promise<number> {
  const [bounds] = rowsOf<{ low: string | null; high: string | null }>(
    await ctx.db.execute(sql.raw(`select min(id)::text as low, max(id)::text as high from ${table}`)),
  );
  if (!bounds?.low || !bounds.high) return 0;
  let low = Number(bounds.low);
  let high = Number(bounds.high);
  let found = 0;
  const isBefore = async (id: number) => {
    // Ordered by the id itself (a text alias would order "100" before "60").
    const [row] = rowsOf<{ found: string; before: boolean }>(
      await ctx.db.execute(
        sql`select id::text as found, ${sql.raw(at)} < ${cutoff.toISOString()}::timestamptz as before from ${sql.raw(table)} where id >= ${id} order by id limit 1`,
      ),
    );
    return row ? { id: Number(row.found), before: row.before } : null;
  };
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const probe = await isBefore(mid);
    if (!probe) break;
    if (probe.before) {
      found = Math.max(found, probe.id);
      low = probe.id + 1;
    } else high = mid - 1;
  }
  return found;
}

export interface RetentionSweep {
  /** Rows deleted per table in this sweep. */
  deleted: Record<string, number>;
  /** True when a table still had expired rows when the sweep's batches ran out (the next sweep goes on). */
  isBehind: boolean;
}

/**
 * One sweep: every expiring table's rows past the retention, at most `maxBatches` batches of `batchSize` a table.
 * Several processes sweeping at once delete the same rows at most twice over (a delete is idempotent).
 */
export async function sweepExpiredRows(
  ctx: AppContext,
  { batchSize = 5000, maxBatches = 20 }: { batchSize?: number; maxBatches?: number } = {},
): Promise<RetentionSweep> {
  const days = ctx.config.DATA_RETENTION_DAYS;
  const deleted: Record<string, number> = {};
  let isBehind = false;
  if (days === 0) return { deleted, isBehind };
  const cutoff = new Date(ctx.now().getTime() - days * 86_400_000);
  for (const { table, at } of EXPIRING) {
    const last = await findCutoffId(ctx, table, at, cutoff);
    deleted[table] = 0;
    for (let batch = 0; batch < maxBatches && last > 0; batch++) {
      const result = await ctx.db.execute(
        sql`delete from ${sql.raw(table)} where id in (select id from ${sql.raw(table)} where id <= ${last} order by id limit ${batchSize})`,
      );
      const count =
        (result as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ?? (result as { rowCount?: number }).rowCount ?? 0;
      deleted[table] += count;
      if (count < batchSize) break;
      if (batch === maxBatches - 1) isBehind = true;
      // Between batches, the hops' own statements get the database.
      await yieldToEventLoop();
    }
  }
  const total = Object.values(deleted).reduce((a, b) => a + b, 0);
  if (total > 0) ctx.log.info({ deleted, days, isBehind }, 'expired event rows deleted');
  return { deleted, isBehind };
}
