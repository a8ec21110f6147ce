import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/campaigns.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { createLimit } from '../../core/rate-limits';
import { done, ok, sendCsv } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as audiences from './audiences.service';
import type { Campaign } from '../../../shared/api/campaigns.schema';
import type { AuthUser } from '../../core/auth-user';
import type { EventStreams } from '../../core/event-streams';
import type { CampaignParts } from './campaign-dispatcher';
import type { CampaignEvents } from './campaign-events';
import { exportCampaign } from './campaign-export';
import { previewCampaign, testCampaign } from './campaign-previews';
import * as campaigns from './campaigns.service';

/**
 * The signed-in account's audiences and campaigns (docs/campaigns.md), for the console and API keys, and their live
 * stream: a change made here is told to the account's other open screens, as the dispatcher tells its own.
 */
export function registerCampaignsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guard: Guard,
  parts: CampaignParts,
  live: { events: CampaignEvents; streams: EventStreams },
): void {
  const tags = ['campaigns'];
  const told = (user: AuthUser, campaign: Campaign) => {
    live.events.publish(user.id, { type: 'campaign_changed', campaignId: campaign.campaignId, status: campaign.status });
    return campaign;
  };
  const reader = { tags, onRequest: guard(), config: { apiKeyScope: 'read' as const } };
  const writer = { tags, onRequest: guard(), config: { apiKeyScope: 'write' as const } };
  // A test send messages the user's own number: counted per account before anything is read.
  const testLimit = createLimit(app, 'campaign-test-account', 10, (req) => getSignedInUser(req).id);

  registerCall(app, calls.findAudiences, {
    ...reader,
    summary: "The account's saved audiences, by name",
    handler: async (req) => ok('OK', await audiences.findAudiences(ctx, getSignedInUser(req))),
  });
  registerCall(app, calls.createAudience, {
    ...writer,
    summary: "Saves an audience: a name and a filter over the account's contacts",
    handler: async (req) => ok('Audience saved', await audiences.createAudience(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.getAudienceReach, {
    ...reader,
    summary: "How many of an audience's contacts WhatsApp and SMS would reach, and why the others would not be",
    handler: async (req) => ok('OK', await audiences.getReach(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.updateAudience, {
    ...writer,
    summary: "Changes a saved audience's name and filter",
    handler: async (req) =>
      ok('Audience saved', await audiences.updateAudience(ctx, getSignedInUser(req), req.params.audienceId, req.body)),
  });
  registerCall(app, calls.deleteAudience, {
    ...writer,
    summary: 'Deletes a saved audience; campaigns made from it keep their copy of its filter',
    handler: async (req) => {
      await audiences.deleteAudience(ctx, getSignedInUser(req), req.params.audienceId);
      return done('Audience deleted');
    },
  });

  registerCall(app, calls.findCampaigns, {
    ...reader,
    summary: "The account's campaigns, newest first, with their results",
    handler: async (req) => ok('OK', await campaigns.findCampaigns(ctx, getSignedInUser(req))),
  });
  registerCall(app, calls.createCampaign, {
    ...writer,
    summary: 'A new draft campaign: an audience, the channels and a message per channel',
    handler: async (req) => ok('Campaign saved', await campaigns.createCampaign(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.streamCampaignEvents, {
    ...reader,
    summary: "The account's campaigns' changes, live (server-sent events)",
    handler: async (req, reply) => {
      const user = getSignedInUser(req);
      live.streams.stream(user.id, user.id, req, reply);
      return reply;
    },
  });
  registerCall(app, calls.getCampaignSettings, {
    ...reader,
    summary: "The installation's campaign settings a form shows: the line every campaign SMS ends with",
    handler: async () => ok('OK', { smsOptOut: ctx.config.CAMPAIGN_SMS_OPT_OUT, priced: ctx.config.CAMPAIGN_PRICES !== null }),
  });
  registerCall(app, calls.getCampaign, {
    ...reader,
    summary: 'One campaign with its results per channel',
    handler: async (req) => ok('OK', await campaigns.getCampaign(ctx, getSignedInUser(req), req.params.campaignId)),
  });
  registerCall(app, calls.updateCampaign, {
    ...writer,
    summary: 'Changes a draft campaign',
    handler: async (req) =>
      ok('Campaign saved', await campaigns.updateCampaign(ctx, getSignedInUser(req), req.params.campaignId, req.body)),
  });
  registerCall(app, calls.scheduleCampaign, {
    ...writer,
    summary: 'Schedules a draft to start now or at a time to come, once everything it needs is checked',
    handler: async (req) => {
      const user = getSignedInUser(req);
      return ok('Campaign scheduled', told(user, await campaigns.scheduleCampaign(ctx, user, req.params.campaignId, req.body)));
    },
  });
  registerCall(app, calls.pauseCampaign, {
    ...writer,
    summary: 'Pauses a scheduled or sending campaign',
    handler: async (req) => {
      const user = getSignedInUser(req);
      return ok('Campaign paused', told(user, await campaigns.pauseCampaign(ctx, user, req.params.campaignId)));
    },
  });
  registerCall(app, calls.resumeCampaign, {
    ...writer,
    summary: 'Resumes a paused campaign',
    handler: async (req) => {
      const user = getSignedInUser(req);
      return ok('Campaign resumed', told(user, await campaigns.resumeCampaign(ctx, user, req.params.campaignId)));
    },
  });
  registerCall(app, calls.cancelCampaign, {
    ...writer,
    summary: 'Cancels a campaign: what was not yet sent is never sent',
    handler: async (req) => {
      const user = getSignedInUser(req);
      return ok('Campaign cancelled', told(user, await campaigns.cancelCampaign(ctx, user, req.params.campaignId)));
    },
  });
  registerCall(app, calls.deleteCampaign, {
    ...writer,
    summary: 'Deletes a draft campaign, or one that ended',
    handler: async (req) => {
      await campaigns.deleteCampaign(ctx, getSignedInUser(req), req.params.campaignId);
      return done('Campaign deleted');
    },
  });
  registerCall(app, calls.previewCampaign, {
    ...reader,
    summary: "What one of the account's contacts would get, and by which channel (or why nothing would go)",
    handler: async (req) => ok('OK', await previewCampaign(ctx, getSignedInUser(req), req.params.campaignId, req.query.msisdn)),
  });
  registerCall(app, calls.testCampaign, {
    ...writer,
    preHandler: testLimit,
    summary: "Sends the campaign's messages to the signed-in user's own number, on each channel it uses",
    handler: async (req) => ok('Test sent', await testCampaign(ctx, getSignedInUser(req), req.params.campaignId, parts)),
  });
  registerCall(app, calls.exportCampaign, {
    ...reader,
    summary: 'A CSV file with a row per contact: channel, status, why, delivery, reply, dial, opt out',
    handler: async (req, reply) => sendCsv(reply, exportCampaign(ctx, getSignedInUser(req), req.params.campaignId), 'campaign.csv'),
  });
}
