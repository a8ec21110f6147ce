/**
 * A bot's outbound WhatsApp messages on the dashboard (docs/monitoring.md, "WhatsApp delivery"): how many it sent
 * in the period, how many of those were delivered, read or failed, by hour or day, and the commonest failures. Read
 * from `whatsapp_messages` (docs/whatsapp-connectors.md, "Delivery statuses") on its (app_id, sent_at) index, plus
 * the daily counts of the messages that expired since (retention/daily-counts.ts), each message in one of the two.
 */
import { and, asc, between, count, desc, eq, sql } from 'drizzle-orm';
import { whatsappMessages } from '../../../db/schema';
import type { DashboardPeriod, Environment } from '../../../shared/api/monitoring.schema';
import type { DeliveryStatus } from '../../../shared/whatsapp-status';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import { findMessageDayTallies } from '../retention/daily-counts';
import { periodBounds } from './dashboard.service';

/** Where each message stands now: delivered counts read ones too, since a read message was delivered. */
const tally = {
  sent: count(),
  delivered: sql<number>`count(*) filter (where ${whatsappMessages.status} in ('delivered', 'read'))`.mapWith(Number),
  read: sql<number>`count(*) filter (where ${whatsappMessages.status} = 'read')`.mapWith(Number),
  failed: sql<number>`count(*) filter (where ${whatsappMessages.status} = 'failed')`.mapWith(Number),
};

export async function getDeliveryCounts(ctx: AppContext, user: AuthUser, appId: string, environment: Environment, period: DashboardPeriod) {
  const app = await getMonitoredApp(ctx, user, appId);
  const { from, to } = periodBounds(ctx, period);
  const inPeriod = and(
    eq(whatsappMessages.appId, app.id),
    between(whatsappMessages.sentAt, from, to),
    eq(whatsappMessages.environment, environment),
  );
  const unit = period === 'day' ? 'hour' : 'day';
  const at = sql<string>`to_char(date_trunc(${unit}, ${whatsappMessages.sentAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`;
  const [[totals], buckets, failureReasons, expired] = await Promise.all([
    ctx.db.select(tally).from(whatsappMessages).where(inPeriod),
    ctx.db
      .select({ at, ...tally })
      .from(whatsappMessages)
      .where(inPeriod)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    ctx.db
      .select({ code: whatsappMessages.failureCode, reason: whatsappMessages.failureReason, messages: count() })
      .from(whatsappMessages)
      .where(and(inPeriod, eq(whatsappMessages.status, 'failed')))
      .groupBy(whatsappMessages.failureCode, whatsappMessages.failureReason)
      .orderBy(desc(count()), whatsappMessages.failureCode)
      .limit(FAILURES_SHOWN),
    findMessageDayTallies(ctx, app.id, environment, from, to),
  ]);
  return { period, from: from.toISOString(), to: to.toISOString(), ...addExpired({ totals: totals!, buckets, failureReasons }, expired) };
}

/** The commonest failures shown. */
const FAILURES_SHOWN = 5;

type Tally = { sent: number; delivered: number; read: number; failed: number };
type Failure = { code: number | null; reason: string; messages: number };

const addStatus = (tally: Tally, status: string, messages: number) => {
  tally.sent += messages;
  if (status === 'delivered' || status === 'read') tally.delivered += messages;
  if (status === 'read') tally.read += messages;
  if (status === 'failed') tally.failed += messages;
};

/**
 * The period's figures with the expired messages' daily counts added: to the totals, to each day's bucket (a day
 * period's hourly buckets take a counted day at its first hour) and to the failures, whose first five are taken
 * again. The live query's failures are its first five only, so a reason just outside them may be counted short.
 */
function addExpired(
  live: { totals: Tally; buckets: Array<{ at: string } & Tally>; failureReasons: Failure[] },
  expired: Awaited<ReturnType<typeof findMessageDayTallies>>,
) {
  const totals = { ...live.totals };
  const buckets = new Map(live.buckets.map((b) => [b.at, { ...b }]));
  const failures = new Map(live.failureReasons.map((f) => [`${f.code} ${f.reason}`, { ...f }]));
  for (const row of expired) {
    addStatus(totals, row.status, row.messages);
    const at = `${row.day}T00:00:00Z`;
    if (!buckets.has(at)) buckets.set(at, { at, sent: 0, delivered: 0, read: 0, failed: 0 });
    addStatus(buckets.get(at)!, row.status, row.messages);
    if (row.status !== 'failed') continue;
    const key = `${row.failureCode} ${row.failureReason}`;
    if (!failures.has(key)) failures.set(key, { code: row.failureCode, reason: row.failureReason, messages: 0 });
    failures.get(key)!.messages += row.messages;
  }
  return {
    totals,
    buckets: [...buckets.values()].sort((a, b) => a.at.localeCompare(b.at)),
    failureReasons: [...failures.values()]
      .sort((a, b) => b.messages - a.messages || (a.code ?? 0) - (b.code ?? 0))
      .slice(0, FAILURES_SHOWN),
  };
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** The messages a bot sent in one of its sessions, in the order sent, with where each stands (the session's log). */
export async function findSessionMessages(ctx: AppContext, user: AuthUser, appId: string, sessionId: string) {
  const app = await getMonitoredApp(ctx, user, appId);
  const rows = await ctx.db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.appId, app.id), eq(whatsappMessages.sessionId, sessionId)))
    .orderBy(asc(whatsappMessages.sentAt), asc(whatsappMessages.id))
    .limit(500);
  return rows.map((r) => ({
    providerMessageId: r.providerMessageId,
    kind: r.kind,
    status: r.status as DeliveryStatus,
    failureCode: r.failureCode,
    failureReason: r.failureReason,
    sentAt: r.sentAt.toISOString(),
    deliveredAt: iso(r.deliveredAt),
    readAt: iso(r.readAt),
    failedAt: iso(r.failedAt),
  }));
}
