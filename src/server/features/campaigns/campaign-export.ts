/**
 * A campaign's CSV export (docs/campaigns.md, "Results"): a row per contact of its audience, in number order, with the
 * channel, how far the message got and why, its delivery (WhatsApp's ticks, the SMS outbox's send), and whether the
 * contact replied, dialled the USSD app or opted out after it. Read a page at a time, however large the campaign.
 */
import { sql } from 'drizzle-orm';
import { toCsvLine } from '../../../shared/table-file';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getOwnedCampaign } from './campaigns.service';

const PAGE = 1000;

interface ExportRow {
  msisdn: string;
  name: string | null;
  channel: string | null;
  status: string;
  reason: string | null;
  sent_at: string | Date | null;
  delivery: string | null;
  replied_at: string | Date | null;
  dialled_at: string | Date | null;
  opted_out_at: string | null;
}

const iso = (value: string | Date | null) => (value ? new Date(value).toISOString() : '');

export async function* exportCampaign(ctx: AppContext, user: AuthUser, campaignId: string): AsyncGenerator<string> {
  const row = await getOwnedCampaign(ctx, user, campaignId);
  const window = `${ctx.config.CAMPAIGN_ATTRIBUTION_HOURS} hours`;
  yield toCsvLine(['number', 'name', 'channel', 'status', 'reason', 'sent_at', 'delivery', 'replied_at', 'dialled_at', 'opted_out_at']);
  let after = '';
  for (;;) {
    const page = (await ctx.db.execute(sql`
      select m.msisdn, c.name, m.channel, m.status, m.reason, m.sent_at,
        case when m.channel = 'whatsapp' then w.status when m.channel = 'sms' then lower(s.status) end as delivery,
        case when win.last_inbound_at > m.sent_at and win.last_inbound_at < m.sent_at + ${window}::interval
          then win.last_inbound_at end as replied_at,
        (select min(r.started_at) from session_records r where r.contact_msisdn = m.msisdn and r.app_id = ${row.ussdAppId ?? ''}
          and r.caller is null and r.started_at > m.sent_at and r.started_at < m.sent_at + ${window}::interval) as dialled_at,
        case when (c.consent -> m.channel ->> 'status') = 'out' and (c.consent -> m.channel ->> 'at')::timestamptz > m.sent_at
          then c.consent -> m.channel ->> 'at' end as opted_out_at
      from campaign_messages m
      left join contacts c on c.owner_id = m.owner_id and c.msisdn = m.msisdn
      left join sms_messages s on s.id = m.sms_message_id
      left join whatsapp_messages w on m.channel = 'whatsapp' and w.link_id = ${row.linkId ?? ''} and w.provider_message_id = m.provider_message_id
      left join whatsapp_windows win on m.channel = 'whatsapp' and win.link_id::text = ${row.linkId ?? ''} and win.msisdn = m.msisdn
      where m.campaign_id = ${row.id} and m.msisdn > ${after}
      order by m.msisdn limit ${PAGE}`)) as unknown as { rows: ExportRow[] };
    let chunk = '';
    for (const r of page.rows) {
      chunk += toCsvLine([
        r.msisdn,
        r.name ?? '',
        r.channel ?? '',
        r.status,
        r.reason ?? '',
        iso(r.sent_at),
        r.delivery ?? '',
        iso(r.replied_at),
        iso(r.dialled_at),
        r.opted_out_at ? iso(r.opted_out_at) : '',
      ]);
    }
    if (chunk) yield chunk;
    if (page.rows.length < PAGE) return;
    after = page.rows.at(-1)!.msisdn;
  }
}
