/**
 * What a campaign did and would do (docs/campaigns.md, "Results"): its funnel per channel, read from its messages and
 * what followed them; what it cost; its sends over time; and, before it starts, whom it would reach and at what cost.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { apps, campaignMessages, contacts, smsMessages } from '../../../db/schema';
import type { Campaign, CampaignChannels, CampaignCost, CampaignFailure, CampaignFunnel } from '../../../shared/api/campaigns.schema';
import { priceOf } from '../../../shared/campaign-prices';
import { countSmsParts, type SmsParts } from '../../../shared/sms-parts';
import type { AppContext } from '../../context';
import { toAudienceConditions, countReach, toChannelChoice } from './audiences.service';
import { DIAL_PLACEHOLDER, type CampaignRow } from './campaign-rows';

type Rows<T> = { rows: T[] };

const EMPTY_FUNNEL: CampaignFunnel = {
  queued: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  replied: 0,
  dialled: 0,
  completed: 0,
  optedOut: 0,
  failed: 0,
  unknown: 0,
  skipped: 0,
  cancelled: 0,
  fellBack: 0,
};

/**
 * A campaign's messages with what followed each, one row per message: the one reading of them that the funnel counts
 * and the export lists. `delivery` is WhatsApp's tick (sent, delivered, read, failed) or the SMS's (queued, sent,
 * failed from the outbox; submitted, delivered, failed from the network's delivery report); `replied_at` the first
 * reply after it (on the WhatsApp number, or an SMS back), `dialled_at` the first session of the USSD app,
 * `completed` a completed session of the USSD app or the bot, `opted_out_at` an opt out of the channel, each within
 * CAMPAIGN_ATTRIBUTION_HOURS of the message; `why` the reason a message failed or was not sent, in words.
 */
export function selectMessageFacts(ctx: AppContext, row: CampaignRow, where: SQL = sql`true`): SQL {
  const window = sql`${`${ctx.config.CAMPAIGN_ATTRIBUTION_HOURS} hours`}::interval`;
  const flowApps = [row.ussdAppId, row.botId].filter((id): id is string => !!id);
  const flowAppList =
    flowApps.length > 0
      ? sql.join(
          flowApps.map((id) => sql`${id}`),
          sql`, `,
        )
      : sql`null`;
  const linkId = row.linkId ?? '';
  return sql`
    select m.msisdn, c.name, m.channel, m.status, m.sent_at, m.fell_back_at, s.status as sms_status,
      case when m.channel = 'whatsapp' then w.status when m.channel = 'sms' then coalesce(s.delivery_status, lower(s.status)) end
        as delivery,
      case when m.channel = 'whatsapp' then
          case when win.last_inbound_at > m.sent_at and win.last_inbound_at < m.sent_at + ${window} then win.last_inbound_at end
        else (select min(r.received_at) from sms_replies r where r.owner_id = m.owner_id and r.msisdn = m.msisdn
          and r.received_at > m.sent_at and r.received_at < m.sent_at + ${window}) end as replied_at,
      (select min(r.started_at) from session_records r where r.contact_msisdn = m.msisdn and r.app_id = ${row.ussdAppId ?? ''}
        and r.caller is null and r.started_at > m.sent_at and r.started_at < m.sent_at + ${window}) as dialled_at,
      exists (select 1 from session_records r where r.contact_msisdn = m.msisdn and r.app_id in (${flowAppList})
        and r.status = 'completed' and r.caller is null and r.started_at > m.sent_at
        and r.started_at < m.sent_at + ${window}) as completed,
      case when (c.consent -> m.channel ->> 'status') = 'out' and (c.consent -> m.channel ->> 'at')::timestamptz > m.sent_at
        then (c.consent -> m.channel ->> 'at')::timestamptz end as opted_out_at,
      case when m.channel = 'sms' then coalesce(s.delivery_error, s.last_error, m.reason)
        else coalesce(m.reason, nullif(w.failure_reason, '')) end as why
    from ${campaignMessages} m
    left join ${smsMessages} s on s.id = m.sms_message_id
    left join whatsapp_messages w on m.channel = 'whatsapp' and w.link_id = ${linkId} and w.provider_message_id = m.provider_message_id
    left join whatsapp_windows win on m.channel = 'whatsapp' and win.link_id::text = ${linkId} and win.msisdn = m.msisdn
    left join contacts c on c.owner_id = m.owner_id and c.msisdn = m.msisdn
    where m.campaign_id = ${row.id} and ${where}`;
}

/**
 * A campaign with its funnel, per channel and in all, counted over its messages' facts (selectMessageFacts), with its
 * cost, its sends over time and its most common failures (not with `funnelOnly`: the list's).
 */
export async function readResults(
  ctx: AppContext,
  row: CampaignRow,
  options: { funnelOnly?: boolean } = {},
): Promise<NonNullable<Campaign['results']>> {
  const result = (await ctx.db.execute(sql`
    select f.channel,
      count(*) filter (where f.status in ('queued', 'claimed', 'sending') or (f.status = 'sent' and f.sms_status = 'QUEUED')) as queued,
      count(*) filter (where f.status = 'sent' and coalesce(f.sms_status, 'SENT') = 'SENT' and coalesce(f.delivery, 'sent') <> 'failed')
        as sent,
      count(*) filter (where f.delivery in ('delivered', 'read')) as delivered,
      count(*) filter (where f.delivery = 'read') as read,
      count(*) filter (where f.replied_at is not null) as replied,
      count(*) filter (where f.status = 'sent' and f.dialled_at is not null) as dialled,
      count(*) filter (where f.status = 'sent' and f.completed) as completed,
      count(*) filter (where f.status = 'sent' and f.opted_out_at is not null) as opted_out,
      count(*) filter (where f.status = 'failed' or f.delivery = 'failed') as failed,
      count(*) filter (where f.status = 'unknown') as unknown,
      count(*) filter (where f.status = 'skipped') as skipped,
      count(*) filter (where f.status = 'cancelled') as cancelled,
      count(*) filter (where f.fell_back_at is not null) as fell_back
    from (${selectMessageFacts(ctx, row)}) f
    group by f.channel`)) as unknown as Rows<Record<string, unknown>>;
  const byChannel = { whatsapp: { ...EMPTY_FUNNEL }, sms: { ...EMPTY_FUNNEL }, all: { ...EMPTY_FUNNEL } };
  for (const r of result.rows) {
    const funnel: CampaignFunnel = {
      queued: Number(r.queued),
      sent: Number(r.sent),
      delivered: Number(r.delivered),
      read: Number(r.read),
      replied: Number(r.replied),
      dialled: Number(r.dialled),
      completed: Number(r.completed),
      optedOut: Number(r.opted_out),
      failed: Number(r.failed),
      unknown: Number(r.unknown),
      skipped: Number(r.skipped),
      cancelled: Number(r.cancelled),
      fellBack: Number(r.fell_back),
    };
    if (r.channel === 'whatsapp' || r.channel === 'sms') byChannel[r.channel] = funnel;
    for (const key of Object.keys(funnel) as Array<keyof CampaignFunnel>) byChannel.all[key] += funnel[key];
  }
  // The list needs the funnels only: its cost, timeline and failures are the campaign's page's.
  if (options.funnelOnly) return { ...byChannel, cost: null, timeline: [], failures: [] };
  return {
    ...byChannel,
    cost: await readCost(ctx, row),
    timeline: await readTimeline(ctx, row),
    failures: await readFailures(ctx, row),
  };
}

/**
 * The five most common reasons the campaign's messages failed, went nobody knows where, or were not sent, with their
 * counts; a message failed by the network after it was sent counts under failed with the report's words.
 */
async function readFailures(ctx: AppContext, row: CampaignRow): Promise<CampaignFailure[]> {
  const result = (await ctx.db.execute(sql`
    select f.channel, case when f.delivery = 'failed' then 'failed' else f.status end as status,
      coalesce(f.why, 'No reason given') as reason, count(*)::int as count
    from (${selectMessageFacts(ctx, row)}) f
    where f.status in ('failed', 'unknown', 'skipped') or f.delivery = 'failed'
    group by 1, 2, 3 order by 4 desc, 3 limit 5`)) as unknown as Rows<{
    channel: 'whatsapp' | 'sms' | null;
    status: CampaignFailure['status'];
    reason: string;
    count: number;
  }>;
  return result.rows.map((r) => ({ channel: r.channel, status: r.status, reason: r.reason, count: Number(r.count) }));
}

/**
 * The SMS as a contact gets it: the campaign's text with the USSD app's dial string for `{dial}`, and the
 * installation's opt-out line (CAMPAIGN_SMS_OPT_OUT) on a line of its own.
 */
export function toSmsText(ctx: AppContext, text: string, dial: string): string {
  const filled = text.split(DIAL_PLACEHOLDER).join(dial);
  const optOut = ctx.config.CAMPAIGN_SMS_OPT_OUT;
  return optOut ? `${filled}\n${optOut}` : filled;
}

/** The USSD app's dial string ('' without one, or when the app is no longer the campaign's account's). */
export async function readDial(ctx: AppContext, row: Pick<CampaignRow, 'ownerId' | 'ussdAppId'>): Promise<string> {
  if (!row.ussdAppId) return '';
  const [app] = await ctx.db
    .select({ dial: apps.shortCode })
    .from(apps)
    .where(and(eq(apps.id, row.ussdAppId), eq(apps.userId, row.ownerId)));
  return app?.dial ?? '';
}

/** The campaign's SMS parts, as a contact gets it; null without SMS. */
async function readSmsParts(ctx: AppContext, row: CampaignRow): Promise<SmsParts | null> {
  if (row.channels === 'whatsapp' || !row.smsText) return null;
  return countSmsParts(toSmsText(ctx, row.smsText, await readDial(ctx, row)));
}

/**
 * Prices counts of numbers by their first three digits (calling codes are prefix-free, so three digits name one):
 * a WhatsApp message each, an SMS its parts each. Null when the operator set no prices.
 */
function priceCounts(
  ctx: AppContext,
  counts: Array<{ channel: string; prefix: string; contacts: number }>,
  smsParts: number,
): CampaignCost | null {
  const prices = ctx.config.CAMPAIGN_PRICES;
  if (!prices) return null;
  const cost = { currency: prices.currency, whatsapp: 0, sms: 0, total: 0 };
  for (const { channel, prefix, contacts: n } of counts) {
    if (channel !== 'whatsapp' && channel !== 'sms') continue;
    const price = priceOf(prices, channel, prefix) ?? 0;
    cost[channel] += Number(n) * price * (channel === 'sms' ? smsParts : 1);
  }
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return { currency: cost.currency, whatsapp: round(cost.whatsapp), sms: round(cost.sms), total: round(cost.whatsapp + cost.sms) };
}

/** What the campaign's sent messages cost. */
async function readCost(ctx: AppContext, row: CampaignRow): Promise<CampaignCost | null> {
  if (!ctx.config.CAMPAIGN_PRICES) return null;
  const counts = (await ctx.db.execute(sql`
    select channel, substr(msisdn, 2, 3) as prefix, count(*)::int as contacts from ${campaignMessages}
    where campaign_id = ${row.id} and status = 'sent' group by 1, 2`)) as unknown as Rows<{
    channel: string;
    prefix: string;
    contacts: number;
  }>;
  return priceCounts(ctx, counts.rows, (await readSmsParts(ctx, row))?.parts ?? 0);
}

/** The bucket a campaign's timeline counts by: minutes over its first three hours, hours over a week, else days. */
function bucketOf(row: CampaignRow, now: Date): 'minute' | 'hour' | 'day' {
  const span = (row.finishedAt ?? now).getTime() - (row.startedAt ?? now).getTime();
  return span <= 3 * 3_600_000 ? 'minute' : span <= 7 * 86_400_000 ? 'hour' : 'day';
}

async function readTimeline(ctx: AppContext, row: CampaignRow): Promise<NonNullable<Campaign['results']>['timeline']> {
  const bucket = bucketOf(row, ctx.now());
  const points = (await ctx.db.execute(sql`
    select date_trunc(${bucket}, coalesce(sent_at, created_at)) as at,
      count(*) filter (where status = 'sent')::int as sent,
      count(*) filter (where status in ('failed', 'unknown'))::int as failed
    from ${campaignMessages}
    where campaign_id = ${row.id} and status in ('sent', 'failed', 'unknown')
    group by 1 order by 1`)) as unknown as Rows<{ at: string | Date; sent: number; failed: number }>;
  return points.rows.map((p) => ({ at: new Date(p.at).toISOString(), sent: Number(p.sent), failed: Number(p.failed) }));
}

/** Before it starts: whom the campaign would reach, its SMS's parts, and its cost at the operator's prices. */
export async function readEstimate(ctx: AppContext, row: CampaignRow): Promise<NonNullable<Campaign['estimate']>> {
  const channels = row.channels as CampaignChannels;
  const reach = await countReach(ctx, row.ownerId, row.filter, channels);
  const smsParts = await readSmsParts(ctx, row);
  let cost: CampaignCost | null = null;
  if (ctx.config.CAMPAIGN_PRICES) {
    const counts = (await ctx.db.execute(sql`
      select ${toChannelChoice(channels)} as channel, substr(${contacts.msisdn}, 2, 3) as prefix, count(*)::int as contacts
      from ${contacts} where ${sql.join(toAudienceConditions(row.ownerId, row.filter, ctx.now()), sql` and `)}
      group by 1, 2`)) as unknown as Rows<{ channel: string; prefix: string; contacts: number }>;
    cost = priceCounts(ctx, counts.rows, smsParts?.parts ?? 0);
  }
  return { reach, smsParts, cost };
}
