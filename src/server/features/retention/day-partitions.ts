/**
 * The operator's bound on PostgreSQL's event tables (docs/operations.md, "Data lifetime"): a day's partition
 * (db/partitions.ts) goes whole once the whole day is older than the bound, its messages added to their daily counts
 * in the same transaction. Rows older than the bound in the partitions that are not a day's (the table as it was
 * before partitioning, until its last day passes the bound: by id as before; the default partition's strays, few and
 * in no order: by time) go in batches.
 */
import { sql } from 'drizzle-orm';
import { findPartitions, isLockTimeout, type Partition, tableExists, tryLockPartitions } from '../../../db/partitions';
import type { AppContext } from '../../context';
import { type DayTally, tallyPartition } from './daily-counts';

/** How long a drop waits for the table's lock (the hops' writes and reads hold it shared) before trying next sweep. */
const DROP_LOCK_TIMEOUT = '2s';

export interface PartitionDrops {
  /** The partitions dropped, oldest first. */
  dropped: string[];
  /** The partitions left that are not a day's: their rows past the bound go in batches (by id in the old table's). */
  rest: Array<{ name: string; isOrdered: boolean }>;
  /** A drop gave up waiting for its lock: the next sweep tries again. */
  isLocked: boolean;
}

/**
 * Drops the table's partitions whose every time is before `cutoff`; null when the table is not partitioned (PGlite,
 * or `session_inputs`).
 */
export async function dropPartitionsBefore(
  ctx: AppContext,
  table: { table: string; tally?: DayTally },
  cutoff: Date,
): Promise<PartitionDrops | null> {
  const partitions = await findPartitions(ctx.db, table.table);
  if (partitions.length === 0) return null;
  const drops: PartitionDrops = { dropped: [], rest: [], isLocked: false };
  const isPast = (p: Partition) => p.to !== null && p.to <= cutoff;
  // Dropped here, or by another process meanwhile.
  const gone = new Set<string>();
  for (const partition of partitions.filter(isPast)) {
    try {
      const outcome = await ctx.db.transaction(async (tx) => {
        if (!(await tryLockPartitions(tx))) return 'busy';
        if (!(await tableExists(tx, partition.name))) return 'gone';
        await tx.execute(sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`));
        if (table.tally) await tallyPartition(tx, table.tally, partition.name);
        await tx.execute(sql.raw(`drop table ${partition.name}`));
        return 'dropped';
      });
      // Another process is changing the partitions: the next sweep goes on.
      if (outcome === 'busy') {
        drops.isLocked = true;
        break;
      }
      gone.add(partition.name);
      if (outcome === 'dropped') drops.dropped.push(partition.name);
    } catch (err) {
      if (!isLockTimeout(err)) throw err;
      drops.isLocked = true;
      break;
    }
  }
  // The old table's rows were written in time order; the default's are any time's (a far clock, a late row).
  drops.rest = partitions.filter((p) => p.from === null && !gone.has(p.name)).map((p) => ({ name: p.name, isOrdered: p.to !== null }));
  return drops;
}
