/**
 * Campaigns' live events (docs/campaigns.md, "Live"): a campaign of the account changed, told to its open screens
 * through the account events bus (src/server/core/account-events.ts) and streamed to them as server-sent events.
 */
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CAMPAIGN_MESSAGES, type CampaignEvent, type CampaignStatus } from '../../../shared/api/campaigns.schema';
import { type AccountEvents, createAccountEvents } from '../../core/account-events';
import { createEventStreams, type EventStreams } from '../../core/event-streams';
import type { AppContext } from '../../context';

export type CampaignEvents = AccountEvents<CampaignEvent>;

export const createCampaignEvents = (redis: Redis | undefined, log: FastifyBaseLogger): CampaignEvents =>
  createAccountEvents<CampaignEvent>(redis, log, 'campaigns');

/** A stream per open campaign screen, under the same bounds as the inbox's (INBOX_STREAMS_PER_ACCOUNT, ..._MAX). */
export const createCampaignStreams = (
  events: CampaignEvents,
  limits: { perAccount: number; total: number; heartbeatMs: number },
): EventStreams => createEventStreams(events, { ...limits, tooManyMessage: CAMPAIGN_MESSAGES.tooManyStreams });

/**
 * The SMS dispatcher's sends (and failures) of campaign messages, told to their campaigns' screens: a campaign's SMS
 * counts as sent once the outbox sent it, which the campaign dispatcher does not see.
 */
export function createSmsNotice(ctx: AppContext, events: CampaignEvents): (smsIds: string[]) => Promise<void> {
  return async (smsIds) => {
    const ids = sql.join(
      smsIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const changed = (await ctx.db.execute(sql`
      select distinct c.id, c.owner_id, c.status from campaign_messages m join campaigns c on c.id = m.campaign_id
      where m.sms_message_id in (${ids})`)) as unknown as { rows: Array<{ id: string; owner_id: string; status: CampaignStatus }> };
    for (const row of changed.rows) events.publish(row.owner_id, { type: 'campaign_changed', campaignId: row.id, status: row.status });
  };
}
