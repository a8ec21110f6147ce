import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  audienceBodySchema,
  audienceParamsSchema,
  audienceReachSchema,
  audienceSchema,
  campaignBodySchema,
  campaignParamsSchema,
  campaignPreviewQuerySchema,
  campaignPreviewSchema,
  campaignSchema,
  campaignSettingsSchema,
  campaignTestSchema,
  reachBodySchema,
  scheduleBodySchema,
} from './campaigns.schema';

// Campaigns and their audiences (docs/campaigns.md). Keys below ['campaigns'] and ['audiences'].

/** GET /api/audiences: the account's saved audiences, by name. */
export const findAudiences = defineCall({
  method: 'GET',
  path: '/api/audiences',
  reply: envelopeSchema(z.array(audienceSchema)),
  key: ['audiences'],
});

/** POST /api/audiences: saves an audience (a name and a filter over the account's contacts). */
export const createAudience = defineCall({
  method: 'POST',
  path: '/api/audiences',
  body: audienceBodySchema,
  reply: envelopeSchema(audienceSchema),
});

/** POST /api/audiences/reach: how many of an audience's contacts each channel would reach, and why not the rest. */
export const getAudienceReach = defineCall({
  method: 'POST',
  path: '/api/audiences/reach',
  body: reachBodySchema,
  reply: envelopeSchema(audienceReachSchema),
});

/** POST /api/audiences/{audienceId}: changes a saved audience's name and filter. */
export const updateAudience = defineCall({
  method: 'POST',
  path: '/api/audiences/:audienceId',
  params: audienceParamsSchema,
  body: audienceBodySchema,
  reply: envelopeSchema(audienceSchema),
});

/** DELETE /api/audiences/{audienceId}: deletes a saved audience; campaigns made from it keep their copy. */
export const deleteAudience = defineCall({
  method: 'DELETE',
  path: '/api/audiences/:audienceId',
  params: audienceParamsSchema,
  reply: messageSchema,
});

/** GET /api/campaigns: the account's campaigns, newest first, with their results. */
export const findCampaigns = defineCall({
  method: 'GET',
  path: '/api/campaigns',
  reply: envelopeSchema(z.array(campaignSchema)),
  key: ['campaigns'],
});

/** GET /api/campaigns/events: the account's campaigns' changes, live (server-sent events, one CampaignEvent per `data:`). */
export const streamCampaignEvents = defineCall({
  method: 'GET',
  path: '/api/campaigns/events',
  reply: z.string().meta({ description: 'text/event-stream: one `data:` line of CampaignEvent JSON per event, `: ping` comments' }),
  file: true,
});

/** GET /api/campaigns/settings: the installation's settings a campaign form shows (the SMS opt-out line). */
export const getCampaignSettings = defineCall({
  method: 'GET',
  path: '/api/campaigns/settings',
  reply: envelopeSchema(campaignSettingsSchema),
  key: ['campaign-settings'],
});

/** POST /api/campaigns: a new draft campaign. */
export const createCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns',
  body: campaignBodySchema,
  reply: envelopeSchema(campaignSchema),
});

/** GET /api/campaigns/{campaignId}: one campaign with its results per channel. */
export const getCampaign = defineCall({
  method: 'GET',
  path: '/api/campaigns/:campaignId',
  params: campaignParamsSchema,
  reply: envelopeSchema(campaignSchema),
  key: ['campaigns', ':campaignId'],
});

/** POST /api/campaigns/{campaignId}: changes a draft. */
export const updateCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId',
  params: campaignParamsSchema,
  body: campaignBodySchema,
  reply: envelopeSchema(campaignSchema),
});

/** POST /api/campaigns/{campaignId}/schedule: a draft starts now or at `startAt`. */
export const scheduleCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId/schedule',
  params: campaignParamsSchema,
  body: scheduleBodySchema,
  reply: envelopeSchema(campaignSchema),
});

/** POST /api/campaigns/{campaignId}/pause: stops sending until resumed. */
export const pauseCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId/pause',
  params: campaignParamsSchema,
  reply: envelopeSchema(campaignSchema),
});

/** POST /api/campaigns/{campaignId}/resume: a paused campaign sends again. */
export const resumeCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId/resume',
  params: campaignParamsSchema,
  reply: envelopeSchema(campaignSchema),
});

/** POST /api/campaigns/{campaignId}/cancel: what was not yet sent is never sent. */
export const cancelCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId/cancel',
  params: campaignParamsSchema,
  reply: envelopeSchema(campaignSchema),
});

/** DELETE /api/campaigns/{campaignId}: a draft, or a campaign that ended. */
export const deleteCampaign = defineCall({
  method: 'DELETE',
  path: '/api/campaigns/:campaignId',
  params: campaignParamsSchema,
  reply: messageSchema,
});

/** GET /api/campaigns/{campaignId}/preview?msisdn=: what one of the account's contacts would get, and by which channel. */
export const previewCampaign = defineCall({
  method: 'GET',
  path: '/api/campaigns/:campaignId/preview',
  params: campaignParamsSchema,
  query: campaignPreviewQuerySchema,
  reply: envelopeSchema(campaignPreviewSchema),
  key: ['campaigns', ':campaignId', 'preview'],
});

/** POST /api/campaigns/{campaignId}/test: sends the campaign's messages to the signed-in user's own number. */
export const testCampaign = defineCall({
  method: 'POST',
  path: '/api/campaigns/:campaignId/test',
  params: campaignParamsSchema,
  reply: envelopeSchema(campaignTestSchema),
});

/** GET /api/campaigns/{campaignId}/export: a CSV file, a row per contact: channel, status, why, delivery, reply, dial. */
export const exportCampaign = defineCall({
  method: 'GET',
  path: '/api/campaigns/:campaignId/export',
  params: campaignParamsSchema,
  reply: z.string().meta({ description: 'The CSV file' }),
  file: true,
});
