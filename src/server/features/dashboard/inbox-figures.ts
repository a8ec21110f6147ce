/**
 * An app's conversations handed to a person, on its dashboard (docs/inbox.md, "Figures"): how many were opened in
 * the period, how soon a person answered them, how long until they were closed, and what each agent did.
 *
 * A conversation is answered by its first reply that was sent (a failed one is not an answer), or, for a callback
 * request (channel 'ussd', which takes no reply), by being marked done. First response times are over the
 * conversations opened in the period; resolution times over those closed in it. All read from inbox_conversations
 * on its (app, created_at) and (app, closed_at) indexes and inbox_messages on its (conversation, seq) index: the cost
 * grows with the app's conversations in the period, not with its history (bench/inbox-conversations.ts).
 *
 * Closed conversations that expired (retention) are in the daily counts (retention/daily-counts.ts): they add to
 * opened, answered and closed and to the chart; the times and the agents' figures are over the ones still kept.
 */
import { sql, type SQL } from 'drizzle-orm';
import { inboxConversations as c, inboxMessages as m, users } from '../../../db/schema';
import type { DashboardPeriod } from '../../../shared/api/monitoring.schema';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import { findInboxDayTallies } from '../retention/daily-counts';
import { periodBounds } from './dashboard.service';

/** The agents listed, most conversations first. */
const AGENTS_SHOWN = 50;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** The middle and the 90th percentile of a duration in seconds, over the rows `where` keeps, as `<name>_median`, `<name>_p90`. */
const percentiles = (name: string, seconds: SQL, where: SQL) => sql`
  percentile_cont(0.5) within group (order by ${seconds}) filter (where ${where}) as ${sql.raw(`${name}_median`)},
  percentile_cont(0.9) within group (order by ${seconds}) filter (where ${where}) as ${sql.raw(`${name}_p90`)}`;

const toDuration = (medianSeconds: unknown, p90Seconds: unknown) =>
  medianSeconds === null || medianSeconds === undefined
    ? null
    : { medianSeconds: Math.round(Number(medianSeconds)), p90Seconds: Math.round(Number(p90Seconds)) };

export async function getInboxFigures(ctx: AppContext, user: AuthUser, appId: string, period: DashboardPeriod) {
  const app = await getMonitoredApp(ctx, user, appId);
  const { from, to } = periodBounds(ctx, period);
  const [fromAt, toAt] = [sql`${from.toISOString()}::timestamptz`, sql`${to.toISOString()}::timestamptz`];
  const ofApp = sql`${c.ownerId} = ${app.userId} and ${c.appId} = ${app.id}`;
  const unit = sql.raw(period === 'day' ? `'hour'` : `'day'`);
  const bucket = (at: SQL) => sql`to_char(date_trunc(${unit}, ${at} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`;

  // One pass over the app's conversations opened or closed in the period (its two indexes), each with its first
  // sent reply (one lookup on the messages' index): when and by whom it was answered.
  const conversations = sql`
    select ${c.createdAt} as created_at, ${c.closedAt} as closed_at, ${c.closedBy} as closed_by, ${c.status} as status,
      case when ${c.channel} = 'ussd' then ${c.closedAt} else first_reply.created_at end as answered_at,
      case when ${c.channel} = 'ussd' then ${c.closedBy} else first_reply.author_id end as answered_by,
      coalesce(${c.createdAt} between ${fromAt} and ${toAt}, false) as opened_in,
      coalesce(${c.closedAt} between ${fromAt} and ${toAt}, false) as closed_in
    from ${c}
    left join lateral (
      select ${m.createdAt} as created_at, ${m.authorId} as author_id from ${m}
      where ${m.conversationId} = ${c.id} and ${m.author} = 'agent' and ${m.sendStatus} = 'sent'
      order by ${m.seq} limit 1
    ) first_reply on ${c.channel} <> 'ussd'
    where ${ofApp} and (${c.createdAt} between ${fromAt} and ${toAt} or ${c.closedAt} between ${fromAt} and ${toAt})`;
  const [figures, buckets, expired] = await Promise.all([
    ctx.db.execute(sql`
      with conv as (${conversations}),
      totals as (
        select (count(*) filter (where opened_in))::int as opened,
          (count(answered_at) filter (where opened_in))::int as answered,
          (count(*) filter (where opened_in and answered_at is null and status = 'open'))::int as waiting,
          (count(*) filter (where closed_in))::int as closed,
          ${percentiles('response', sql`extract(epoch from answered_at - created_at)`, sql`opened_in`)},
          ${percentiles('resolution', sql`extract(epoch from closed_at - created_at)`, sql`closed_in`)}
        from conv
      ),
      replies as (
        -- A reply in the period may be in a conversation opened before it: those are still open or closed since, and
        -- had a message since the period began.
        select ${m.authorId} as user_id, max(${m.authorName}) as name, count(*)::int as replies,
          count(distinct ${m.conversationId})::int as conversations
        from ${m} join ${c} on ${c.id} = ${m.conversationId}
        where ${ofApp} and ${c.lastMessageAt} >= ${fromAt} and ${m.author} = 'agent' and ${m.sendStatus} = 'sent'
          and ${m.createdAt} between ${fromAt} and ${toAt}
        group by ${m.authorId}
      ),
      closings as (
        select closed_by as user_id, count(*)::int as closed from conv where closed_in and closed_by is not null group by closed_by
      ),
      first_answers as (
        select answered_by as user_id, percentile_cont(0.5) within group (order by extract(epoch from answered_at - created_at)) as median
        from conv where opened_in and answered_at is not null and answered_by is not null group by answered_by
      ),
      people as (select user_id from replies union select user_id from closings),
      agents as (
        select people.user_id, coalesce(${users.fullName}, replies.name, '') as name,
          coalesce(replies.conversations, 0) as conversations, coalesce(replies.replies, 0) as replies,
          coalesce(closings.closed, 0) as closed, first_answers.median as median
        from people
        left join replies on replies.user_id is not distinct from people.user_id
        left join closings on closings.user_id is not distinct from people.user_id
        left join first_answers on first_answers.user_id is not distinct from people.user_id
        left join ${users} on ${users.id} = people.user_id
        order by greatest(coalesce(replies.conversations, 0), coalesce(closings.closed, 0)) desc, name, people.user_id
        limit ${AGENTS_SHOWN}
      )
      select totals.*, (select coalesce(json_agg(agents), '[]'::json) from agents) as agents from totals`),
    ctx.db.execute(sql`
      select at, sum(opened)::int as opened, sum(closed)::int as closed from (
        select ${bucket(sql`${c.createdAt}`)} as at, 1 as opened, 0 as closed
          from ${c} where ${ofApp} and ${c.createdAt} between ${fromAt} and ${toAt}
        union all
        select ${bucket(sql`${c.closedAt}`)}, 0, 1
          from ${c} where ${ofApp} and ${c.closedAt} between ${fromAt} and ${toAt}
      ) b group by at order by at`),
    findInboxDayTallies(ctx, app.id, from, to),
  ]);

  type AgentRow = { user_id: string | null; name: string; conversations: number; replies: number; closed: number; median: unknown };
  const [f] = rowsOf<{
    opened: number;
    answered: number;
    waiting: number;
    closed: number;
    response_median: unknown;
    response_p90: unknown;
    resolution_median: unknown;
    resolution_p90: unknown;
    agents: AgentRow[] | string;
  }>(figures);
  const agents: AgentRow[] = typeof f?.agents === 'string' ? JSON.parse(f.agents) : (f?.agents ?? []);
  const byAt = new Map(
    rowsOf<{ at: string; opened: number; closed: number }>(buckets).map((b) => [
      b.at,
      { at: b.at, opened: Number(b.opened), closed: Number(b.closed) },
    ]),
  );
  const gone = { opened: 0, answered: 0, closed: 0 };
  for (const day of expired) {
    gone.opened += day.opened;
    gone.answered += day.answered;
    gone.closed += day.closed;
    const at = `${day.day}T00:00:00Z`;
    const bucket = byAt.get(at) ?? { at, opened: 0, closed: 0 };
    byAt.set(at, { at, opened: bucket.opened + day.opened, closed: bucket.closed + day.closed });
  }
  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    opened: Number(f?.opened ?? 0) + gone.opened,
    answered: Number(f?.answered ?? 0) + gone.answered,
    waiting: Number(f?.waiting ?? 0),
    firstResponse: toDuration(f?.response_median, f?.response_p90),
    closed: Number(f?.closed ?? 0) + gone.closed,
    resolution: toDuration(f?.resolution_median, f?.resolution_p90),
    buckets: [...byAt.values()].sort((a, b) => a.at.localeCompare(b.at)),
    agents: agents.map((a) => ({
      userId: a.user_id,
      name: a.name || 'A removed user',
      conversations: Number(a.conversations),
      replies: Number(a.replies),
      closed: Number(a.closed),
      firstResponseMedianSeconds: a.median === null || a.median === undefined ? null : Math.round(Number(a.median)),
    })),
  };
}
