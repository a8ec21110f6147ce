import { and, eq, sql } from 'drizzle-orm';
import { usageCounters } from '../../../db/schema';
import type { AppContext } from '../../context';
import type { UsageKind, UsageTallies } from '../../core/caches';
import { toUsageMonth } from './subscription';

/** How often each process adds what it counted to the table (and reads back everyone's total). */
export const USAGE_FLUSH_MS = 1000;

interface Tally {
  ownerId: string;
  month: string;
  kind: UsageKind;
  /** The table's count when last read or written: every process's flushed sessions. */
  base: number;
  /** Counted here since, not yet in the table. */
  pending: number;
  /** The highest usage warning already mailed (80, 100). */
  warnedPercent: number;
  /**
   * The write under way, if any: writes of one tally take turns, so two flushes at once (the timer's and a usage
   * read's) cannot both add the same pending sessions to the table.
   */
  writing?: Promise<void>;
}

/**
 * The per-process side of the usage counters (docs/billing.md, The counter's cost): a new live session costs a
 * Map lookup and an addition; every USAGE_FLUSH_MS the process adds its counts to the table with one
 * `count = count + n ... returning count` per active owner, which also brings back what other processes
 * counted. Counts survive restarts (flushed at close; a crash loses at most one interval) and several processes
 * share the table, each admitting at most one interval's sessions past a limit another process reached.
 */
export function createUsageTallies(ctx: Pick<AppContext, 'db' | 'now'>): UsageTallies {
  const tallies = new Map<string, Tally>();
  const loading = new Map<string, Promise<Tally>>();
  const keyOf = (ownerId: string, month: string, kind: UsageKind) => `${ownerId}\n${month}\n${kind}`;

  async function load(ownerId: string, month: string, kind: UsageKind): Promise<Tally> {
    const [row] = await ctx.db
      .select({ count: usageCounters.count, warnedPercent: usageCounters.warnedPercent })
      .from(usageCounters)
      .where(and(eq(usageCounters.userId, ownerId), eq(usageCounters.month, month), eq(usageCounters.kind, kind)));
    return { ownerId, month, kind, base: row?.count ?? 0, pending: 0, warnedPercent: row?.warnedPercent ?? 0 };
  }

  async function getTally(ownerId: string, kind: UsageKind): Promise<Tally> {
    const month = toUsageMonth(ctx.now());
    const key = keyOf(ownerId, month, kind);
    const known = tallies.get(key);
    if (known) return known;
    let pending = loading.get(key);
    if (!pending) {
      // A failed read (the database blinked) is forgotten too: the owner's next session reads again.
      pending = load(ownerId, month, kind).then(
        (tally) => {
          loading.delete(key);
          tallies.set(key, tally);
          return tally;
        },
        (err: unknown) => {
          loading.delete(key);
          throw err;
        },
      );
      loading.set(key, pending);
    }
    return pending;
  }

  function write(key: string, tally: Tally): Promise<void> {
    const turn = (tally.writing ?? Promise.resolve()).catch(() => {}).then(() => (tally.pending > 0 ? writeNow(key, tally) : undefined));
    tally.writing = turn;
    return turn;
  }

  async function writeNow(key: string, tally: Tally): Promise<void> {
    const n = tally.pending;
    const [row] = await ctx.db
      .insert(usageCounters)
      .values({ userId: tally.ownerId, month: tally.month, kind: tally.kind, count: n })
      .onConflictDoUpdate({
        target: [usageCounters.userId, usageCounters.month, usageCounters.kind],
        set: { count: sql`${usageCounters.count} + ${n}` },
      })
      .returning({ count: usageCounters.count, warnedPercent: usageCounters.warnedPercent });
    tally.pending -= n;
    tally.base = row!.count;
    tally.warnedPercent = Math.max(tally.warnedPercent, row!.warnedPercent);
    if (tally.pending === 0 && tally.month !== toUsageMonth(ctx.now())) tallies.delete(key);
  }

  return {
    async count(ownerId, kind, limit) {
      const tally = await getTally(ownerId, kind);
      const used = tally.base + tally.pending;
      if (limit !== null && used >= limit) return null;
      tally.pending++;
      return { count: used + 1, warnedPercent: tally.warnedPercent };
    },
    markWarned(ownerId, kind, percent) {
      const tally = tallies.get(keyOf(ownerId, toUsageMonth(ctx.now()), kind));
      if (tally) tally.warnedPercent = Math.max(tally.warnedPercent, percent);
    },
    async flush(ownerId) {
      for (const [key, tally] of [...tallies]) {
        if (ownerId !== undefined && tally.ownerId !== ownerId) continue;
        if (tally.pending > 0) await write(key, tally);
        // Idle, or asked for one owner (whose usage is being read): read again on next use, with other processes' counts.
        else tallies.delete(key);
        if (ownerId !== undefined && tally.pending === 0) tallies.delete(key);
      }
    },
  };
}
