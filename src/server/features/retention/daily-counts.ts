/**
 * The dashboard's counts for days past an app's retention (docs/operations.md, "Daily counts"): finished sessions
 * counted per app and UTC day, by environment, network, last menu, status and end cause, in `session_day_counts`.
 *
 * Each whole day is counted once, an hour after it ended, by the retention sweep before it deletes anything: the
 * sweep never deletes records of a day not yet counted (expiry.ts), so every expired day has its counts. A day's
 * records are found by their serial id (the same binary search as expiry's), so counting reads one day's rows by the
 * primary key and no index is added to the records; on PostgreSQL, a day with its own partition by that partition. Counting again (two processes at once) writes the same figures.
 *
 * The dashboard reads the counts for the days before the app's retention cutoff (whose records are gone, or going),
 * and the records from that day on: a day is read from one source only, so no session counts twice.
 *
 * WhatsApp messages and closed inbox conversations are counted as they go instead (`tallyDeleted`): the statement
 * that deletes them adds them to their day's counts, so each is counted in its table or in the counts, never both,
 * and a message's delivery status is the latest it had; on PostgreSQL a day's partition dropped whole is counted in
 * the drop's transaction (`tallyPartition`). The dashboard adds the two sources.
 */
import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { dailyRollups, inboxDayCounts, messageDayCounts, sessionDayCounts } from '../../../db/schema';
import type { Environment } from '../../../shared/api/monitoring.schema';
import type { Db } from '../../../db/client';
import { dayPartitionName, tableExists } from '../../../db/partitions';
import type { AppContext } from '../../context';
import { DAY_MS, formatDay } from '../../core/dates';
import { findCutoffId } from './serial-ids';
import { findRetentionTerms, getRetentionCutoff, getRetentionDays, startOfUtcDay } from './retention-terms';

const ROLLUP = 'sessions';
/** A day is counted this long after it ended: records a little late (the sink's batches) are in by then. */
const SETTLE_MS = 3_600_000;
/** Ids either side of a day's bounds also read, for records written a little out of order. */
const ID_MARGIN = 10_000;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** Where the counting stands: every day before the returned one is counted; null before the first roll-up. */
export async function getRolledUpUntil(ctx: AppContext): Promise<Date | null> {
  const [row] = await ctx.db.select({ through: dailyRollups.through }).from(dailyRollups).where(eq(dailyRollups.name, ROLLUP));
  return row ? new Date(dayStart(row.through).getTime() + DAY_MS) : null;
}

/** Counts the whole days not yet counted, oldest first, at most `maxDays` of them; answers how many it counted. */
export async function rollUpSessionDays(ctx: AppContext, { maxDays = 31 }: { maxDays?: number } = {}): Promise<number> {
  const until = startOfUtcDay(new Date(ctx.now().getTime() - SETTLE_MS));
  let next = await getRolledUpUntil(ctx);
  if (!next) {
    // The first roll-up starts at the oldest record's day (or today, with none).
    const [oldest] = rowsOf<{ ended_at: string | Date }>(
      await ctx.db.execute(sql`select ended_at from session_records order by id limit 1`),
    );
    next = oldest ? startOfUtcDay(new Date(oldest.ended_at)) : until;
    await markThrough(ctx, new Date(next.getTime() - DAY_MS));
  }
  let counted = 0;
  for (; next < until && counted < maxDays; next = new Date(next.getTime() + DAY_MS), counted++) {
    await countDay(ctx, next);
    await markThrough(ctx, next);
  }
  return counted;
}

async function markThrough(ctx: AppContext, day: Date): Promise<void> {
  const through = formatDay(day);
  await ctx.db
    .insert(dailyRollups)
    .values({ name: ROLLUP, through })
    .onConflictDoUpdate({ target: dailyRollups.name, set: { through: sql`greatest(${dailyRollups.through}, excluded.through)` } });
}

async function countDay(ctx: AppContext, start: Date): Promise<void> {
  const end = new Date(start.getTime() + DAY_MS);
  // A day with its own partition (PostgreSQL) is picked by its time bounds alone: no ids to look for (each probe
  // would plan every partition). A day of the table as it was before partitioning, or on PGlite, by ids.
  let ids = sql``;
  if (!(await tableExists(ctx.db, dayPartitionName('session_records', start)))) {
    const low = Math.max(0, (await findCutoffId(ctx, 'session_records', 'ended_at', start)) - ID_MARGIN);
    const high = (await findCutoffId(ctx, 'session_records', 'ended_at', end)) + ID_MARGIN;
    ids = sql`id > ${low} and id <= ${high} and `;
  }
  await ctx.db.execute(sql`
    insert into session_day_counts (app_id, day, environment, network, last_menu, status, end_cause, sessions)
    select app_id, ${formatDay(start)}::date, environment, network, coalesce(last_menu, ''), status, coalesce(end_cause, ''), count(*)::int
    from session_records
    where ${ids}ended_at >= ${start.toISOString()}::timestamptz and ended_at < ${end.toISOString()}::timestamptz
    group by 1, 3, 4, 5, 6, 7
    on conflict (app_id, day, environment, network, last_menu, status, end_cause) do update set sessions = excluded.sessions`);
}

/**
 * The day from which an app's finished sessions are read from their records (before it, from the daily counts):
 * the owner's retention cutoff for session records, or the first day not yet counted if that is earlier; null when
 * its records are kept for ever (records only).
 */
export async function findCountedBefore(ctx: AppContext, ownerId: string): Promise<Date | null> {
  const terms = await findRetentionTerms(ctx, ownerId);
  const days = terms && getRetentionDays(ctx.config, terms, 'sessions');
  if (!days) return null;
  const cutoff = getRetentionCutoff(ctx.now(), days);
  const until = await getRolledUpUntil(ctx);
  if (!until) return null;
  return until < cutoff ? until : cutoff;
}

export interface SessionDayTally {
  menuId: string;
  network: string;
  status: string;
  cause: string | null;
  sessions: number;
}

/** The app's counted sessions of one environment, on the days from `from` (its day included) to before `before`. */
export async function findSessionDayTallies(
  ctx: AppContext,
  appId: string,
  environment: Environment,
  from: Date | null,
  before: Date,
): Promise<SessionDayTally[]> {
  const c = sessionDayCounts;
  const rows = await ctx.db
    .select({
      menuId: c.lastMenu,
      network: c.network,
      status: c.status,
      endCause: c.endCause,
      sessions: sql<number>`sum(${c.sessions})::int`.mapWith(Number),
    })
    .from(c)
    .where(
      and(eq(c.appId, appId), eq(c.environment, environment), from ? gte(c.day, formatDay(from)) : undefined, lt(c.day, formatDay(before))),
    )
    .groupBy(c.lastMenu, c.network, c.status, c.endCause);
  return rows.map((r) => ({ menuId: r.menuId, network: r.network, status: r.status, cause: r.endCause || null, sessions: r.sessions }));
}

/** The daily counts rows are added to as they expire: WhatsApp messages, closed inbox conversations. */
export type DayTally = 'messages' | 'inbox';

/** The UTC day of a time column, as the counts key it. */
const utcDay = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date`);

/**
 * Deletes the rows `where` picks from the tally's table and adds them to their days' counts in the same statement
 * (a data-modifying CTE: the insert reads what the delete returns, and the conversations' messages as they were
 * before the delete's cascade); answers how many rows went.
 */
export async function tallyDeleted(ctx: AppContext, tally: DayTally, where: SQL, from = 'whatsapp_messages'): Promise<number> {
  const counted =
    tally === 'messages'
      ? sql`
    gone as (delete from ${sql.raw(from)} where ${where}
      returning app_id, environment, status, failure_code, failure_reason, sent_at),
    counted as (${countMessages(sql`gone`)} returning 1)`
      : sql`
    gone as (delete from inbox_conversations where ${where}
      returning id, app_id, channel, created_at, closed_at),
    counted as (
      insert into inbox_day_counts (app_id, day, opened, answered, closed)
      select app_id, day, sum(opened)::int, sum(answered)::int, sum(closed)::int from (
        -- Answered as the figures say: a sent reply by a person, or, for a callback request, being marked done.
        select app_id, ${utcDay('created_at')} as day, 1 as opened,
          (case when channel = 'ussd' then closed_at is not null else exists (
            select 1 from inbox_messages m where m.conversation_id = gone.id and m.author = 'agent' and m.send_status = 'sent'
          ) end)::int as answered, 0 as closed
        from gone
        union all
        select app_id, ${utcDay('closed_at')}, 0, 0, 1 from gone where closed_at is not null
      ) d group by 1, 2
      on conflict (app_id, day) do update set opened = inbox_day_counts.opened + excluded.opened,
        answered = inbox_day_counts.answered + excluded.answered, closed = inbox_day_counts.closed + excluded.closed
      returning 1)`;
  const [row] = rowsOf<{ n: number }>(await ctx.db.execute(sql`with ${counted} select count(*)::int as n from gone`));
  return Number(row?.n ?? 0);
}

/** Adds the WhatsApp messages `source` holds to their days' counts. */
const countMessages = (source: SQL) => sql`
  insert into message_day_counts (app_id, day, environment, status, failure_code, failure_reason, messages)
  select app_id, ${utcDay('sent_at')}, environment, status, failure_code, failure_reason, count(*)::int
  from ${source} group by 1, 2, 3, 4, 5, 6
  on conflict (app_id, day, environment, status, failure_code, failure_reason)
    do update set messages = message_day_counts.messages + excluded.messages`;

/**
 * Adds every row of a partition about to be dropped (day-partitions.ts) to its day's counts: run in the drop's
 * transaction, so each message is counted in its table or in the counts, never both.
 */
export async function tallyPartition(db: Db, tally: DayTally, partition: string): Promise<void> {
  if (tally !== 'messages') throw new Error(`no partitions for the ${tally} counts`);
  await db.execute(countMessages(sql.raw(partition)));
}

/** The days of a period's bounds, both included: a counted day is in the period when its date is. */
const periodDays = (column: typeof messageDayCounts.day | typeof inboxDayCounts.day, from: Date, to: Date) =>
  sql`${column} between ${formatDay(from)}::date and ${formatDay(to)}::date`;

/** A bot's expired messages of one environment counted on the period's days, by day, status and failure. */
export async function findMessageDayTallies(ctx: AppContext, appId: string, environment: Environment, from: Date, to: Date) {
  const c = messageDayCounts;
  return ctx.db
    .select({ day: c.day, status: c.status, failureCode: c.failureCode, failureReason: c.failureReason, messages: c.messages })
    .from(c)
    .where(and(eq(c.appId, appId), eq(c.environment, environment), periodDays(c.day, from, to)));
}

/** An app's expired inbox conversations counted on the period's days, by day. */
export async function findInboxDayTallies(ctx: AppContext, appId: string, from: Date, to: Date) {
  const c = inboxDayCounts;
  return ctx.db
    .select({ day: c.day, opened: c.opened, answered: c.answered, closed: c.closed })
    .from(c)
    .where(and(eq(c.appId, appId), periodDays(c.day, from, to)));
}
