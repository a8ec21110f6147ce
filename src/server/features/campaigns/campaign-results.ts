/**
 * What a campaign did and would do (docs/campaigns.md, "Results"): its funnel per channel, read from its messages and
 * what followed them; what it cost; its sends over time; and, before it starts, whom it would reach and at what cost.
 */
import { and, eq, sql } from 'drizzle-orm';
import { apps, campaignMessages, contacts, smsMessages } from '../../../db/schema';
import type { Campaign, CampaignChannels, CampaignCost, CampaignFunnel } from '../../../shared/api/campaigns.schema';
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
 * A campaign with its funnel, per channel and in all, read from its messages and what followed them: a WhatsApp
 * message's ticks (whatsapp_messages), an SMS's send (sms_messages), the contact's reply on the number
 * (whatsapp_windows), a session of the USSD app or the bot after the message (session_records), an opt out of the
 * channel after it; each within CAMPAIGN_ATTRIBUTION_HOURS of the message.
 */
export async function readResults(ctx: AppContext, row: CampaignRow): Promise<NonNullable<Campaign['results']>> {
  const window = `${ctx.config.CAMPAIGN_ATTRIBUTION_HOURS} hours`;
  const m = campaignMessages;
  const flowApps = [row.ussdAppId, row.botId].filter((id): id is string => !!id);
  const flowAppList =
    flowApps.length > 0
      ? sql.join(
          flowApps.map((id) => sql`${id}`),
          sql`, `,
        )
      : sql`null`;
  const result = (await ctx.db.execute(sql`
    select m.channel,
      count(*) filter (where m.status in ('queued', 'claimed', 'sending') or (m.status = 'sent' and s.status = 'QUEUED')) as queued,
      count(*) filter (where m.status = 'sent' and coalesce(s.status, 'SENT') = 'SENT' and coalesce(w.status, 'sent') <> 'failed') as sent,
      count(*) filter (where w.status in ('delivered', 'read')) as delivered,
      count(*) filter (where w.status = 'read') as read,
      count(*) filter (where m.channel = 'whatsapp' and win.last_inbound_at > m.sent_at
        and win.last_inbound_at < m.sent_at + ${window}::interval) as replied,
      count(*) filter (where m.status = 'sent' and exists (
        select 1 from session_records r where r.contact_msisdn = m.msisdn and r.app_id = ${row.ussdAppId ?? ''}
          and r.caller is null and r.started_at > m.sent_at and r.started_at < m.sent_at + ${window}::interval)) as dialled,
      count(*) filter (where m.status = 'sent' and exists (
        select 1 from session_records r where r.contact_msisdn = m.msisdn and r.app_id in (${flowAppList})
          and r.status = 'completed' and r.caller is null and r.started_at > m.sent_at
          and r.started_at < m.sent_at + ${window}::interval)) as completed,
      count(*) filter (where m.status = 'sent' and (c.consent -> m.channel ->> 'status') = 'out'
        and (c.consent -> m.channel ->> 'at')::timestamptz > m.sent_at) as opted_out,
      count(*) filter (where m.status = 'failed' or s.status = 'FAILED' or w.status = 'failed') as failed,
      count(*) filter (where m.status = 'unknown') as unknown,
      count(*) filter (where m.status = 'skipped') as skipped,
      count(*) filter (where m.status = 'cancelled') as cancelled,
      count(*) filter (where m.fell_back_at is not null) as fell_back
    from ${m} m
    left join ${smsMessages} s on s.id = m.sms_message_id
    left join whatsapp_messages w on m.channel = 'whatsapp' and w.link_id = ${row.linkId ?? ''}
      and w.provider_message_id = m.provider_message_id
    left join whatsapp_windows win on m.channel = 'whatsapp' and win.link_id::text = ${row.linkId ?? ''} and win.msisdn = m.msisdn
    left join contacts c on c.owner_id = m.owner_id and c.msisdn = m.msisdn
    where m.campaign_id = ${row.id}
    group by m.channel`)) as unknown as { rows: Array<Record<string, unknown>> };
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
  return { ...byChannel, cost: await readCost(ctx, row), timeline: await readTimeline(ctx, row) };
}

/** The SMS as a contact gets it: the campaign's text with the USSD app's dial string for `{dial}`. */
export function toSmsText(text: string, dial: string): string {
  return text.split(DIAL_PLACEHOLDER).join(dial);
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
  return countSmsParts(toSmsText(row.smsText, await readDial(ctx, row)));
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
