/**
 * Rows the event sink appends have serial ids that grow with time (docs/operations.md, "Data lifetime"), so a time
 * bound is an id bound: found by a binary search over the primary key, with no time index on the table.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The highest id whose row happened before `cutoff` (0: none), by a binary search over the primary key. */
export async function findCutoffId(ctx: AppContext, table: string, at: string, cutoff: Date): Promise<number> {
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
