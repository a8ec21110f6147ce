import type { FastifyInstance } from 'fastify';
import {
  exportPlatformSubscriberData,
  exportSubscriberData,
  getPlatformSubscriberDataSummary,
  getPlatformSubscriberErasure,
  getSubscriberDataSummary,
  getSubscriberErasure,
  startPlatformSubscriberErasure,
  startSubscriberErasure,
} from '../../../shared/api/subscriber-data.calls';
import type { AppContext } from '../../context';
import { createLimit } from '../../core/rate-limits';
import { registerCall } from '../../core/register-call';
import { ok, sendJsonFile } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './subscriber-data.service';

/** Exports, and erasures, one account (or admin) may start a minute: each reads (or writes) every row of a number. */
export const SUBSCRIBER_DATA_RATE_LIMIT = 10;
/** Summaries a minute: each counts a number's rows in every table. */
export const SUBSCRIBER_SUMMARY_RATE_LIMIT = 60;

/**
 * A number's subscriber data (docs/security.md, "Subscriber data"): the signed-in account's own (every account
 * but its inbox agents; no API key), and every account's for admins holding `subscriberData.manage`.
 */
export function registerSubscriberDataRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: service.LiveSessions): void {
  const tags = ['subscriber-data'];
  const account = { tags, onRequest: guard() };
  const platform = { tags, onRequest: guard('subscriberData.manage') };
  const byUser = (name: string, max: number) => createLimit(app, name, max, (req) => getSignedInUser(req).id);
  const summaryLimit = { preHandler: byUser('subscriber-summaries', SUBSCRIBER_SUMMARY_RATE_LIMIT) };
  const exportLimit = { preHandler: byUser('subscriber-exports', SUBSCRIBER_DATA_RATE_LIMIT) };
  const erasureLimit = { preHandler: byUser('subscriber-erasures', SUBSCRIBER_DATA_RATE_LIMIT) };
  const own = (req: Parameters<typeof getSignedInUser>[0]) => ({ ownerId: getSignedInUser(req).id });
  const everyAccount = { ownerId: null };

  registerCall(app, getSubscriberDataSummary, {
    ...account,
    ...summaryLimit,
    summary: "What the account keeps about a phone number, counted per kind, and the number's sessions running now",
    handler: async (req) => ok('OK', await service.getSubscriberDataSummary(ctx, runtime, own(req), req.body)),
  });
  registerCall(app, exportSubscriberData, {
    ...account,
    ...exportLimit,
    summary: 'Everything the account keeps about a phone number, as one JSON file (audit-logged)',
    handler: async (req, reply) =>
      sendJsonFile(reply, service.exportSubscriberData(ctx, getSignedInUser(req), own(req), req.body), 'subscriber-data.json'),
  });
  registerCall(app, startSubscriberErasure, {
    ...account,
    ...erasureLimit,
    summary: "Starts erasing what the account keeps about a phone number (a reason required; refused while the number's session runs)",
    handler: async (req) =>
      ok('Erasure started', await service.startSubscriberErasure(ctx, runtime, getSignedInUser(req), own(req), req.body)),
  });
  registerCall(app, getSubscriberErasure, {
    ...account,
    summary: "An erasure's progress: batches written and rows erased per kind",
    handler: async (req) => ok('OK', await service.getSubscriberErasure(ctx, own(req), req.params.erasureId)),
  });

  registerCall(app, getPlatformSubscriberDataSummary, {
    ...platform,
    ...summaryLimit,
    summary: 'What every account keeps about a phone number, counted per kind',
    handler: async (req) => ok('OK', await service.getSubscriberDataSummary(ctx, runtime, everyAccount, req.body)),
  });
  registerCall(app, exportPlatformSubscriberData, {
    ...platform,
    ...exportLimit,
    summary: 'Everything every account keeps about a phone number, as one JSON file (audit-logged)',
    handler: async (req, reply) =>
      sendJsonFile(reply, service.exportSubscriberData(ctx, getSignedInUser(req), everyAccount, req.body), 'subscriber-data.json'),
  });
  registerCall(app, startPlatformSubscriberErasure, {
    ...platform,
    ...erasureLimit,
    summary: 'Starts erasing what every account keeps about a phone number (a reason required)',
    handler: async (req) =>
      ok('Erasure started', await service.startSubscriberErasure(ctx, runtime, getSignedInUser(req), everyAccount, req.body)),
  });
  registerCall(app, getPlatformSubscriberErasure, {
    ...platform,
    summary: "A platform erasure's progress",
    handler: async (req) => ok('OK', await service.getSubscriberErasure(ctx, everyAccount, req.params.erasureId)),
  });
}
