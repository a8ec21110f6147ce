import { and, count, countDistinct, eq, gte, sql } from 'drizzle-orm';
import { menus, sessionRecords, transactions } from '../../../db/schema';
import type { AppContext } from '../../context';
import type { AuthUser } from '../auth/auth.service';
import { getMonitoredApp } from '../apps/apps.service';
import type { Runtime } from '../runtime/runtime.service';

/** The live view: sessions in progress with the screen each caller is looking at. */
export async function findLiveSessions(ctx: AppContext, user: AuthUser, runtime: Runtime, appId: string) {
  const app = await getMonitoredApp(ctx, user, appId);
  const states = await runtime.findActiveSessions(app.id);
  return states
    .sort((a, b) => b.lastHopAt - a.lastHopAt)
    .map((s) => ({
      id: `${s.gateway}:${s.sessionId}`,
      menuText: s.screen,
      sessionId: s.sessionId,
      network: s.network,
      mobile: s.msisdn,
      updatedAt: new Date(s.lastHopAt).toISOString(),
    }));
}

/** The four cards, plus what a manager reads at a glance: sessions per hour by network, outcomes per menu. */
export async function getAppDashboard(ctx: AppContext, user: AuthUser, runtime: Runtime, appId: string) {
  const app = await getMonitoredApp(ctx, user, appId);
  const since = new Date(ctx.now().getTime() - 24 * 3_600_000);
  const [active, [tx], [users], [menuCount], byHour, outcomes, menuNames] = await Promise.all([
    runtime.findActiveSessions(app.id),
    ctx.db.select({ n: count() }).from(transactions).where(eq(transactions.appId, app.id)),
    ctx.db.select({ n: countDistinct(sessionRecords.mobile) }).from(sessionRecords).where(eq(sessionRecords.appId, app.id)),
    ctx.db.select({ n: count() }).from(menus).where(eq(menus.appId, app.id)),
    ctx.db
      .select({
        hour: sql<string>`to_char(date_trunc('hour', ${sessionRecords.endedAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`,
        network: sessionRecords.network,
        sessions: count(),
      })
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, app.id), gte(sessionRecords.endedAt, since)))
      .groupBy(sql`1`, sessionRecords.network)
      .orderBy(sql`1`),
    ctx.db
      .select({
        menuId: sql<string>`coalesce(${sessionRecords.lastMenu}, '')`,
        completed: sql<number>`count(*) filter (where ${sessionRecords.status} = 'completed')`.mapWith(Number),
        abandoned: sql<number>`count(*) filter (where ${sessionRecords.status} = 'abandoned')`.mapWith(Number),
      })
      .from(sessionRecords)
      .where(eq(sessionRecords.appId, app.id))
      .groupBy(sql`1`),
    ctx.db.select({ id: menus.id, name: menus.userDefinedName }).from(menus).where(eq(menus.appId, app.id)),
  ]);
  const names = new Map(menuNames.map((m) => [m.id, m.name]));
  return {
    connectedSessions: active.length,
    transactions: tx!.n,
    totalUsers: users!.n,
    menuCount: menuCount!.n,
    sessionsByHour: byHour.map((r) => ({ hour: r.hour, network: r.network || 'unknown', sessions: r.sessions })),
    menuOutcomes: outcomes.map((o) => ({ menuId: o.menuId, menu: names.get(o.menuId) ?? (o.menuId ? 'deleted menu' : 'before the first menu'), completed: o.completed, abandoned: o.abandoned })),
  };
}
