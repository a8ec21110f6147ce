/**
 * A campaign's CSV export (docs/campaigns.md, "Results"): a row per contact of its audience, in number order, with the
 * channel, how far the message got and why, its delivery (WhatsApp's ticks, the SMS outbox's send), and whether the
 * contact replied, dialled the USSD app or opted out after it (selectMessageFacts, as the funnel counts them). Read a
 * page at a time, however large the campaign.
 */
import { sql } from 'drizzle-orm';
import { toCsvLine } from '../../../shared/table-file';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { selectMessageFacts } from './campaign-results';
import { getOwnedCampaign } from './campaigns.service';

const PAGE = 1000;

interface ExportRow {
  msisdn: string;
  name: string | null;
  channel: string | null;
  status: string;
  why: string | null;
  sent_at: string | Date | null;
  delivery: string | null;
  replied_at: string | Date | null;
  dialled_at: string | Date | null;
  opted_out_at: string | Date | null;
}

const iso = (value: string | Date | null) => (value ? new Date(value).toISOString() : '');

export async function* exportCampaign(ctx: AppContext, user: AuthUser, campaignId: string): AsyncGenerator<string> {
  const row = await getOwnedCampaign(ctx, user, campaignId);
  yield toCsvLine(['number', 'name', 'channel', 'status', 'reason', 'sent_at', 'delivery', 'replied_at', 'dialled_at', 'opted_out_at']);
  let after = '';
  for (;;) {
    const page = (await ctx.db.execute(
      sql`${selectMessageFacts(ctx, row, sql`m.msisdn > ${after}`)} order by m.msisdn limit ${PAGE}`,
    )) as unknown as { rows: ExportRow[] };
    let chunk = '';
    for (const r of page.rows) {
      chunk += toCsvLine([
        r.msisdn,
        r.name ?? '',
        r.channel ?? '',
        r.status,
        r.why ?? '',
        iso(r.sent_at),
        r.delivery ?? '',
        iso(r.replied_at),
        iso(r.dialled_at),
        iso(r.opted_out_at),
      ]);
    }
    if (chunk) yield chunk;
    if (page.rows.length < PAGE) return;
    after = page.rows.at(-1)!.msisdn;
  }
}
