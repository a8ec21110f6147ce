import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { sessionRecords } from '../../../db/schema';
import type { SearchBody } from '../../../shared/api/monitoring.schema';
import { invalid } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../auth/auth.service';
import { getMonitoredApp } from '../apps/apps.service';

const LIST_LIMIT = 1000;
export const SEARCH_LIMIT = 5000;

type SessionRecordRow = typeof sessionRecords.$inferSelect;

function toSessionRow(r: SessionRecordRow) {
  return {
    id: r.id,
    sessionId: r.sessionId,
    mobile: r.mobile,
    network: r.network,
    createdAt: r.endedAt.toISOString(),
    inputs: r.inputs as Record<string, string>,
    lastMenu: r.lastMenu,
    status: r.status,
  };
}

/** Completed (the app ended them) or abandoned (timed out, released by the gateway) sessions, newest first. */
export async function findSessions(ctx: AppContext, user: AuthUser, appId: string, status: 'completed' | 'abandoned') {
  const app = await getMonitoredApp(ctx, user, appId);
  const rows = await ctx.db
    .select()
    .from(sessionRecords)
    .where(and(eq(sessionRecords.appId, app.id), eq(sessionRecords.status, status)))
    .orderBy(desc(sessionRecords.endedAt))
    .limit(LIST_LIMIT);
  return rows.map(toSessionRow);
}

function parseDate(value: string, endOfDay: boolean): Date {
  // A date without a time (the picker's) covers the whole day.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${endOfDay ? '23:59:59.999' : '00:00:00'}Z` : value);
  if (Number.isNaN(date.getTime())) throw invalid('Please select a date range');
  return date;
}

/** Finished sessions by date range or by a word in the mobile number or any input. */
export async function searchSessions(ctx: AppContext, user: AuthUser, body: SearchBody) {
  const app = await getMonitoredApp(ctx, user, body.appId);
  const conditions: SQL[] = [eq(sessionRecords.appId, app.id)];
  if (body.searchBy === 'date') {
    conditions.push(gte(sessionRecords.endedAt, parseDate(body.startDate, false)), lte(sessionRecords.endedAt, parseDate(body.endDate, true)));
  } else {
    const pattern = `%${body.searchQuery.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // The same expression as the trigram index (migration 0004), so the index answers it.
    conditions.push(sql`(${sessionRecords.mobile} || ' ' || ${sessionRecords.inputs}::text) ilike ${pattern}`);
  }
  const rows = await ctx.db.select().from(sessionRecords).where(and(...conditions)).orderBy(desc(sessionRecords.endedAt)).limit(SEARCH_LIMIT);
  const results = rows.map((r) => ({ mobile: r.mobile, network: r.network, date: r.endedAt.toISOString(), inputs: r.inputs as Record<string, string> }));
  if (!body.flatResults) return results;
  const base = ['mobile', 'network', 'date'] as const;
  const inputNames = [...new Set(results.flatMap((r) => Object.keys(r.inputs)))].filter((n) => !(base as readonly string[]).includes(n)).sort();
  return {
    headers: [...base, ...inputNames],
    rows: results.map((r) => ({
      mobile: r.mobile,
      network: r.network,
      date: r.date,
      ...Object.fromEntries(inputNames.map((name) => [name, r.inputs[name] ?? ''])),
    })),
  };
}
