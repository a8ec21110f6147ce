/**
 * Campaigns' live events (docs/campaigns.md, "Live"): a campaign of the account changed, told to its open screens
 * through the account events bus (src/server/core/account-events.ts) and streamed to them as server-sent events.
 */
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { CAMPAIGN_MESSAGES, type CampaignEvent } from '../../../shared/api/campaigns.schema';
import { type AccountEvents, createAccountEvents } from '../../core/account-events';
import { createEventStreams, type EventStreams } from '../../core/event-streams';

export type CampaignEvents = AccountEvents<CampaignEvent>;

export const createCampaignEvents = (redis: Redis | undefined, log: FastifyBaseLogger): CampaignEvents =>
  createAccountEvents<CampaignEvent>(redis, log, 'campaigns');

/** A stream per open campaign screen, under the same bounds as the inbox's (INBOX_STREAMS_PER_ACCOUNT, ..._MAX). */
export const createCampaignStreams = (
  events: CampaignEvents,
  limits: { perAccount: number; total: number; heartbeatMs: number },
): EventStreams => createEventStreams(events, { ...limits, tooManyMessage: CAMPAIGN_MESSAGES.tooManyStreams });
