import { and, count, countDistinct, eq, gte, sql, type SQL } from 'drizzle-orm';
import { appLogs, menus, sessionRecords, transactions } from '../../../db/schema';
import type { DashboardPeriod, Environment } from '../../../shared/api/monitoring.schema';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import { findCountedBefore, findSessionDayTallies } from '../retention/daily-counts';
import type { Runtime } from '../runtime/runtime.service';

const PERIOD_HOURS: Record<DashboardPeriod, number> = { day: 24, week: 7 * 24, month: 30 * 24 };

/** A dashboard period's bounds, ending now: the last 24 hours, 7 days or 30 days. */
export function periodBounds(ctx: AppContext, period: DashboardPeriod): { from: Date; to: Date } {
  const to = ctx.now();
  return { from: new Date(to.getTime() - PERIOD_HOURS[period] * 3_600_000), to };
}

/**
 * How the dashboard names the menu where sessions stopped, by its id as records keep it ('' when none was reached):
 * its name, "deleted menu" for one the app no longer has, "before the first menu".
 */
export async function findMenuLabels(ctx: AppContext, appId: string): Promise<(menuId: string) => string> {
  const rows = await ctx.db.select({ id: menus.id, name: menus.userDefinedName }).from(menus).where(eq(menus.appId, appId));
  const names = new Map(rows.map((m) => [m.id, m.name]));
  return (menuId) => names.get(menuId) ?? (menuId ? 'deleted menu' : 'before the first menu');
}

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
      environment: s.environment,
      gateway: s.gateway,
    }));
}

/**
 * Whether a transaction was paid in a test run (test URL or emulator). A transaction keeps the id of the session
 * that started it, not its environment, so a test run is recognised by that session: finished (its record) or
 * still open (its log lines). Any other transaction, one without a session included, counts as live.
 */
function isTestTransaction(): SQL {
  const sessionId = sql`${transactions.metadata}->>'sessionId'`;
  return sql`(exists (select 1 from ${sessionRecords} where ${sessionRecords.appId} = ${transactions.appId} and ${sessionRecords.sessionId} = ${sessionId} and ${sessionRecords.environment} = 'test')
    or exists (select 1 from ${appLogs} where ${appLogs.appId} = ${transactions.appId} and ${appLogs.sessionId} = ${sessionId} and ${appLogs.environment} = 'test'))`;
}

/**
 * The four cards, plus what a manager reads at a glance: sessions per hour by network, outcomes per menu. One
 * environment at a time (live traffic by default), so emulator runs never inflate the live figures. Outcomes per
 * menu count the days past the app's retention from the daily counts (features/retention/daily-counts.ts); the
 * users are the callers of the records still kept.
 */
export async function getAppDashboard(ctx: AppContext, user: AuthUser, runtime: Runtime, appId: string, environment: Environment) {
  const app = await getMonitoredApp(ctx, user, appId);
  const since = new Date(ctx.now().getTime() - 24 * 3_600_000);
  const ofApp = and(eq(sessionRecords.appId, app.id), eq(sessionRecords.environment, environment));
  const isTest = isTestTransaction();
  const countedBefore = await findCountedBefore(ctx, app.userId);
  const [active, [tx], [users], [menuCount], byHour, outcomes, menuLabel] = await Promise.all([
    runtime.findActiveSessions(app.id),
    ctx.db
      .select({ n: count() })
      .from(transactions)
      .where(and(eq(transactions.appId, app.id), environment === 'test' ? isTest : sql`not ${isTest}`)),
    ctx.db
      .select({ n: countDistinct(sessionRecords.mobile) })
      .from(sessionRecords)
      .where(ofApp),
    ctx.db.select({ n: count() }).from(menus).where(eq(menus.appId, app.id)),
    ctx.db
      .select({
        hour: sql<string>`to_char(date_trunc('hour', ${sessionRecords.endedAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`,
        network: sessionRecords.network,
        sessions: count(),
      })
      .from(sessionRecords)
      .where(and(ofApp, gte(sessionRecords.endedAt, since)))
      .groupBy(sql`1`, sessionRecords.network)
      .orderBy(sql`1`),
    ctx.db
      .select({
        menuId: sql<string>`coalesce(${sessionRecords.lastMenu}, '')`,
        completed: sql<number>`count(*) filter (where ${sessionRecords.status} = 'completed')`.mapWith(Number),
        abandoned: sql<number>`count(*) filter (where ${sessionRecords.status} = 'abandoned')`.mapWith(Number),
      })
      .from(sessionRecords)
      .where(and(ofApp, countedBefore ? gte(sessionRecords.endedAt, countedBefore) : undefined))
      .groupBy(sql`1`),
    findMenuLabels(ctx, app.id),
  ]);
  const outcomesByMenu = new Map(outcomes.map((o) => [o.menuId, { ...o }]));
  for (const day of countedBefore ? await findSessionDayTallies(ctx, app.id, environment, null, countedBefore) : []) {
    if (day.status !== 'completed' && day.status !== 'abandoned') continue;
    if (!outcomesByMenu.has(day.menuId)) outcomesByMenu.set(day.menuId, { menuId: day.menuId, completed: 0, abandoned: 0 });
    outcomesByMenu.get(day.menuId)![day.status] += day.sessions;
  }
  return {
    connectedSessions: active.filter((s) => s.environment === environment).length,
    transactions: tx!.n,
    totalUsers: users!.n,
    menuCount: menuCount!.n,
    sessionsByHour: byHour.map((r) => ({ hour: r.hour, network: r.network, sessions: r.sessions })),
    menuOutcomes: [...outcomesByMenu.values()].map((o) => ({
      menuId: o.menuId,
      menu: menuLabel(o.menuId),
      completed: o.completed,
      abandoned: o.abandoned,
    })),
  };
}
