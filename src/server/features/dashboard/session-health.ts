/**
 * Why an app's sessions ended and how fast it answered them, on its dashboard (docs/monitoring.md, "Session
 * health"): the finished sessions of one environment that ended in the period, by end cause (shared/session-ends.ts),
 * by the menu where they stopped and by network; their hops' times against each gateway's response budget
 * (shared/gateway-profiles.ts, as the app's connections narrow it); and the slowest actions they ran.
 *
 * Read from session_records on its (app_id, ended_at) index (the period's records only, whatever the app's history)
 * and from action_results on its (app_id, session_id) index, for those records' sessions. Days past the app's
 * retention are counted from the daily counts (features/retention/daily-counts.ts): their sessions by cause, menu
 * and network; times and actions only where the records still are.
 */
import { and, between, count, eq, sql, type SQL } from 'drizzle-orm';
import { actionResults as ar, sessionRecords as sr } from '../../../db/schema';
import type { DashboardPeriod, Environment } from '../../../shared/api/monitoring.schema';
import { resolveGatewayProfile, USSD_GATEWAYS } from '../../../shared/gateway-profiles';
import { describeNetwork } from '../../../shared/mobile-networks';
import { COMPLETING_CAUSES, END_CAUSES, type EndCause } from '../../../shared/session-ends';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import { findCountedBefore, findSessionDayTallies } from '../retention/daily-counts';
import { findMenuLabels, periodBounds } from './dashboard.service';

/** The slowest actions listed. */
const SLOWEST_ACTIONS = 5;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

type Cause = EndCause | null;
type CauseCounts = Array<{ cause: Cause; sessions: number }>;

/** Counts by cause in END_CAUSES order, records without a cause last; causes nobody ended by are left out. */
function toCauseCounts(byCause: Map<Cause, number>): CauseCounts {
  return [...END_CAUSES, null].flatMap((cause) => {
    const sessions = byCause.get(cause) ?? 0;
    return sessions > 0 ? [{ cause, sessions }] : [];
  });
}

/** A tally of sessions by cause, for one menu or one network. */
class CauseTally {
  sessions = 0;
  readonly byCause = new Map<Cause, number>();
  add(cause: Cause, sessions: number) {
    this.sessions += sessions;
    this.byCause.set(cause, (this.byCause.get(cause) ?? 0) + sessions);
  }
  /** Completions over the sessions with a cause; null when none has one. */
  completionRate(): number | null {
    const withCause = this.sessions - (this.byCause.get(null) ?? 0);
    if (withCause === 0) return null;
    const completed = COMPLETING_CAUSES.reduce((sum, cause) => sum + (this.byCause.get(cause) ?? 0), 0);
    return completed / withCause;
  }
}

const toMs = (value: unknown) => (value === null || value === undefined ? null : Math.round(Number(value)));
const toPercentiles = (p50: unknown, p95: unknown) => {
  const [p50Ms, p95Ms] = [toMs(p50), toMs(p95)];
  return p50Ms === null || p95Ms === null ? null : { p50Ms, p95Ms };
};

/** `<name>_p50` and `<name>_p95` of `value` over the group's rows (interpolated between the nearest two). */
const percentiles = (name: string, value: SQL) => sql`
  percentile_cont(0.5) within group (order by ${value}) as ${sql.raw(`${name}_p50`)},
  percentile_cont(0.95) within group (order by ${value}) as ${sql.raw(`${name}_p95`)}`;

export async function getSessionHealth(ctx: AppContext, user: AuthUser, appId: string, environment: Environment, period: DashboardPeriod) {
  const app = await getMonitoredApp(ctx, user, appId);
  const { from, to } = periodBounds(ctx, period);
  // Days before `countedBefore` are read from the daily counts, whole; the records from it on.
  const countedBefore = await findCountedBefore(ctx, app.userId);
  const isCounted = countedBefore !== null && countedBefore > from;
  const inPeriod = and(eq(sr.appId, app.id), eq(sr.environment, environment), between(sr.endedAt, isCounted ? countedBefore : from, to))!;

  // Each gateway's budget as the app's connections narrow it, for counting the hops that went over it.
  const budgets = [...USSD_GATEWAYS, 'emulator'].map((gateway) => ({
    gateway,
    budgetMs: resolveGatewayProfile(gateway, app.gatewayConnections)!.budgetMs,
  }));
  const budgetOf = sql`(case ${sr.gateway} ${sql.join(
    budgets.map((b) => sql`when ${b.gateway}::text then ${b.budgetMs}::int`),
    sql` `,
  )} end)`;

  const [recordTallies, countedTallies, latency, slowest, menuLabel] = await Promise.all([
    ctx.db
      .select({ menuId: sql<string>`coalesce(${sr.lastMenu}, '')`, network: sr.network, cause: sr.endCause, sessions: count() })
      .from(sr)
      .where(inPeriod)
      .groupBy(sql`1`, sr.network, sr.endCause),
    isCounted ? findSessionDayTallies(ctx, app.id, environment, from, countedBefore) : [],
    ctx.db.execute(sql`
      select ${sr.gateway} as gateway, count(*)::int as hops,
        (count(*) filter (where h.total > ${budgetOf}))::int as over_budget,
        ${percentiles('hop', sql`h.total`)},
        ${percentiles('runtime', sql`h.total - coalesce(h.actions, 0)`)},
        ${percentiles('actions', sql`coalesce(h.actions, 0)`)}
      from ${sr} cross join lateral unnest(${sr.hopMs}, ${sr.actionMs}) as h(total, actions)
      where ${inPeriod} and ${sr.hopMs} is not null and h.total is not null
      group by ${sr.gateway}
      order by hops desc, gateway`),
    ctx.db.execute(sql`
      select ${ar.actionName} as action_name, ${ar.menuName} as menu_name, count(*)::int as runs,
        percentile_cont(0.95) within group (order by ${ar.durationMs}) as p95,
        (count(*) filter (where ${ar.isOk} = 0))::int as failures
      from ${sr} join ${ar} on ${ar.appId} = ${sr.appId} and ${ar.sessionId} = ${sr.sessionId}
      where ${inPeriod}
      group by ${ar.actionName}, ${ar.menuName}
      order by p95 desc nulls last, runs desc, action_name, menu_name
      limit ${SLOWEST_ACTIONS}`),
    findMenuLabels(ctx, app.id),
  ]);

  const causes = new Map<Cause, number>();
  const menus = new Map<string, CauseTally>();
  const networks = new Map<string, { detail: Set<string>; sent: Set<string>; tally: CauseTally }>();
  const tallies = [...recordTallies, ...countedTallies.map((c) => ({ ...c, cause: c.cause as EndCause | null }))];
  for (const row of tallies) {
    causes.set(row.cause, (causes.get(row.cause) ?? 0) + row.sessions);
    if (!menus.has(row.menuId)) menus.set(row.menuId, new CauseTally());
    menus.get(row.menuId)!.add(row.cause, row.sessions);
    // By the network's name, as the console shows it: `62001` from one gateway and `MTN` from another are one.
    const label = describeNetwork(row.network);
    if (!networks.has(label.name)) networks.set(label.name, { detail: new Set(), sent: new Set(), tally: new CauseTally() });
    const network = networks.get(label.name)!;
    network.detail.add(label.detail);
    network.sent.add(row.network);
    network.tally.add(row.cause, row.sessions);
  }
  const medians = await findMedianHops(ctx, inPeriod, networks);

  type LatencyRow = { gateway: string; hops: number; over_budget: number } & Record<string, unknown>;
  type ActionRow = { action_name: string; menu_name: string; runs: number; p95: unknown; failures: number };
  const bySessions = <T extends { sessions: number }>(a: T, b: T) => b.sessions - a.sessions;
  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    sessions: [...causes.values()].reduce((sum, n) => sum + n, 0),
    causes: toCauseCounts(causes),
    menus: [...menus]
      .map(([menuId, tally]) => ({ menuId, menu: menuLabel(menuId), sessions: tally.sessions, causes: toCauseCounts(tally.byCause) }))
      .sort((a, b) => bySessions(a, b) || a.menu.localeCompare(b.menu)),
    networks: [...networks]
      .map(([name, { detail, tally }]) => ({
        network: name,
        detail: [...detail].sort().join('; '),
        sessions: tally.sessions,
        completionRate: tally.completionRate(),
        medianHopMs: medians.get(name) ?? null,
        causes: toCauseCounts(tally.byCause),
      }))
      .sort((a, b) => bySessions(a, b) || a.network.localeCompare(b.network)),
    latency: rowsOf<LatencyRow>(latency).map((r) => {
      const profile = resolveGatewayProfile(r.gateway, app.gatewayConnections);
      return {
        gateway: r.gateway,
        label: profile?.label ?? r.gateway,
        budgetMs: profile?.budgetMs ?? null,
        hops: Number(r.hops),
        overBudget: Number(r.over_budget),
        hop: toPercentiles(r.hop_p50, r.hop_p95),
        runtime: toPercentiles(r.runtime_p50, r.runtime_p95),
        actions: toPercentiles(r.actions_p50, r.actions_p95),
      };
    }),
    slowestActions: rowsOf<ActionRow>(slowest).map((r) => ({
      actionName: r.action_name,
      menuName: r.menu_name,
      runs: Number(r.runs),
      p95Ms: toMs(r.p95),
      failures: Number(r.failures),
    })),
  };
}

/**
 * The middle hop time of each network, by its name: the networks as the gateways sent them are named first (one
 * name may stand for several), so the median is over all of a name's hops, not a median of medians.
 */
async function findMedianHops(ctx: AppContext, inPeriod: SQL, networks: Map<string, { sent: Set<string> }>): Promise<Map<string, number>> {
  const pairs = [...networks].flatMap(([name, { sent }]) => [...sent].map((network) => sql`(${network}::text, ${name}::text)`));
  if (pairs.length === 0) return new Map();
  const result = await ctx.db.execute(sql`
    select names.name as name, percentile_cont(0.5) within group (order by h.total) as median
    from ${sr}
      join (values ${sql.join(pairs, sql`, `)}) as names(sent, name) on names.sent = ${sr.network}
      cross join lateral unnest(${sr.hopMs}) as h(total)
    where ${inPeriod} and ${sr.hopMs} is not null and h.total is not null
    group by names.name`);
  return new Map(rowsOf<{ name: string; median: unknown }>(result).map((r) => [r.name, toMs(r.median)!]));
}
