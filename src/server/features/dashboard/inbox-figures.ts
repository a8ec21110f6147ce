/**
 * An app's conversations handed to a person, on its dashboard (docs/inbox.md, "Figures"): how many were opened in
 * the period, how soon a person answered them, how long until they were closed, and what each agent did.
 *
 * A conversation is answered by its first reply that was sent (a failed one is not an answer), or, for a callback
 * request (channel 'ussd', which takes no reply), by being marked done. First response times are over the
 * conversations opened in the period; resolution times over those closed in it. All read from inbox_conversations
 * on its (owner, status, ...) index and inbox_messages on its (conversation, seq) index: the cost grows with the
 * app's conversations in the period, not with the account's history.
 */
import { sql, type SQL } from 'drizzle-orm';
import { inboxConversations as c, inboxMessages as m, users } from '../../../db/schema';
import type { DashboardPeriod } from '../../../shared/api/monitoring.schema';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';

const PERIOD_HOURS: Record<DashboardPeriod, number> = { day: 24, week: 7 * 24, month: 30 * 24 };
/** The agents listed, most conversations first. */
const AGENTS_SHOWN = 50;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

/** When a person first answered the conversation (null while nobody has). */
const answeredAt: SQL = sql`case when ${c.channel} = 'ussd' then ${c.closedAt} else (
  select min(${m.createdAt}) from ${m}
  where ${m.conversationId} = ${c.id} and ${m.author} = 'agent' and ${m.sendStatus} = 'sent'
) end`;

/** Who first answered: the first sent reply's author, or whoever marked a callback request done. */
const answeredBy: SQL = sql`case when ${c.channel} = 'ussd' then ${c.closedBy} else (
  select ${m.authorId} from ${m}
  where ${m.conversationId} = ${c.id} and ${m.author} = 'agent' and ${m.sendStatus} = 'sent'
  order by ${m.seq} limit 1
) end`;

const median = (seconds: SQL) => sql`percentile_cont(0.5) within group (order by ${seconds})`;
const p90 = (seconds: SQL) => sql`percentile_cont(0.9) within group (order by ${seconds})`;

const toDuration = (medianSeconds: unknown, p90Seconds: unknown) =>
  medianSeconds === null || medianSeconds === undefined
    ? null
    : { medianSeconds: Math.round(Number(medianSeconds)), p90Seconds: Math.round(Number(p90Seconds)) };

export async function getInboxFigures(ctx: AppContext, user: AuthUser, appId: string, period: DashboardPeriod) {
  const app = await getMonitoredApp(ctx, user, appId);
  const to = ctx.now();
  const from = new Date(to.getTime() - PERIOD_HOURS[period] * 3_600_000);
  const [fromAt, toAt] = [sql`${from.toISOString()}::timestamptz`, sql`${to.toISOString()}::timestamptz`];
  // The owner first: the conversations' index leads with it.
  const ofApp = sql`${c.ownerId} = ${app.userId} and ${c.appId} = ${app.id}`;
  const unit = sql.raw(period === 'day' ? `'hour'` : `'day'`);
  const bucket = (at: SQL) => sql`to_char(date_trunc(${unit}, ${at} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`;

  const [opened, closed, buckets, agents] = await Promise.all([
    ctx.db.execute(sql`
      select count(*)::int as opened, count(answered_at)::int as answered,
        (count(*) filter (where answered_at is null and status = 'open'))::int as waiting,
        ${median(sql`extract(epoch from answered_at - created_at)`)} as median, ${p90(sql`extract(epoch from answered_at - created_at)`)} as p90
      from (select ${c.createdAt} as created_at, ${c.status} as status, ${answeredAt} as answered_at
            from ${c} where ${ofApp} and ${c.createdAt} between ${fromAt} and ${toAt}) opened`),
    ctx.db.execute(sql`
      select count(*)::int as closed,
        ${median(sql`extract(epoch from ${c.closedAt} - ${c.createdAt})`)} as median,
        ${p90(sql`extract(epoch from ${c.closedAt} - ${c.createdAt})`)} as p90
      from ${c} where ${ofApp} and ${c.closedAt} between ${fromAt} and ${toAt}`),
    ctx.db.execute(sql`
      select at, sum(opened)::int as opened, sum(closed)::int as closed from (
        select ${bucket(sql`${c.createdAt}`)} as at, 1 as opened, 0 as closed
          from ${c} where ${ofApp} and ${c.createdAt} between ${fromAt} and ${toAt}
        union all
        select ${bucket(sql`${c.closedAt}`)}, 0, 1
          from ${c} where ${ofApp} and ${c.closedAt} between ${fromAt} and ${toAt}
      ) b group by at order by at`),
    ctx.db.execute(sql`
      with replies as (
        select ${m.authorId} as user_id, max(${m.authorName}) as name, count(*)::int as replies,
          count(distinct ${m.conversationId})::int as conversations
        from ${m} join ${c} on ${c.id} = ${m.conversationId}
        where ${ofApp} and ${m.author} = 'agent' and ${m.sendStatus} = 'sent' and ${m.createdAt} between ${fromAt} and ${toAt}
        group by ${m.authorId}
      ), closings as (
        select ${c.closedBy} as user_id, count(*)::int as closed
        from ${c} where ${ofApp} and ${c.closedAt} between ${fromAt} and ${toAt} and ${c.closedBy} is not null
        group by ${c.closedBy}
      ), first_answers as (
        select answered_by as user_id, ${median(sql`extract(epoch from answered_at - created_at)`)} as median
        from (select ${c.createdAt} as created_at, ${answeredAt} as answered_at, ${answeredBy} as answered_by
              from ${c} where ${ofApp} and ${c.createdAt} between ${fromAt} and ${toAt}) a
        where answered_at is not null and answered_by is not null
        group by answered_by
      ), people as (
        select user_id from replies union select user_id from closings
      )
      select people.user_id, coalesce(${users.fullName}, replies.name, '') as name,
        coalesce(replies.conversations, 0) as conversations, coalesce(replies.replies, 0) as replies,
        coalesce(closings.closed, 0) as closed, first_answers.median as median
      from people
      left join replies on replies.user_id is not distinct from people.user_id
      left join closings on closings.user_id is not distinct from people.user_id
      left join first_answers on first_answers.user_id is not distinct from people.user_id
      left join ${users} on ${users.id} = people.user_id
      order by greatest(coalesce(replies.conversations, 0), coalesce(closings.closed, 0)) desc, name, people.user_id
      limit ${AGENTS_SHOWN}`),
  ]);

  const [o] = rowsOf<{ opened: number; answered: number; waiting: number; median: unknown; p90: unknown }>(opened);
  const [k] = rowsOf<{ closed: number; median: unknown; p90: unknown }>(closed);
  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    opened: Number(o?.opened ?? 0),
    answered: Number(o?.answered ?? 0),
    waiting: Number(o?.waiting ?? 0),
    firstResponse: toDuration(o?.median, o?.p90),
    closed: Number(k?.closed ?? 0),
    resolution: toDuration(k?.median, k?.p90),
    buckets: rowsOf<{ at: string; opened: number; closed: number }>(buckets).map((b) => ({
      at: b.at,
      opened: Number(b.opened),
      closed: Number(b.closed),
    })),
    agents: rowsOf<{ user_id: string | null; name: string; conversations: number; replies: number; closed: number; median: unknown }>(
      agents,
    ).map((a) => ({
      userId: a.user_id,
      name: a.name || 'A removed user',
      conversations: Number(a.conversations),
      replies: Number(a.replies),
      closed: Number(a.closed),
      firstResponseMedianSeconds: a.median === null || a.median === undefined ? null : Math.round(Number(a.median)),
    })),
  };
}
