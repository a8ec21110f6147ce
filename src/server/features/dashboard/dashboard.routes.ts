import type { FastifyInstance } from 'fastify';
import { findLiveItems, getDashboard, getDeliveryCounts, getInboxFigures, getSessionHealth } from '../../../shared/api/dashboard.calls';
import {
  exportSessions,
  findCompletedSessions,
  findSessionMessages,
  findUncompletedSessions,
  searchSessions,
} from '../../../shared/api/sessions.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { Runtime } from '../runtime/runtime.service';
import { ok } from '../../http';
import { findLiveSessions, getAppDashboard } from './dashboard.service';
import * as inboxFigures from './inbox-figures';
import * as deliveryCounts from './delivery-counts';
import * as sessionHealth from './session-health';
import * as sessionsService from '../sessions/sessions.service';
import { Readable } from 'node:stream';

/** Live view, dashboard, finished sessions and search (the product's paths, some without /api: docs/product.md). */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime): void {
  const tags = ['dashboard'];

  registerCall(app, findLiveItems, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await findLiveSessions(ctx, getSignedInUser(req), runtime, req.params.appId)),
  });

  registerCall(app, getDashboard, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await getAppDashboard(ctx, getSignedInUser(req), runtime, req.params.appId, req.query.environment));
    },
  });

  registerCall(app, getDeliveryCounts, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      const { environment, period } = req.query;
      return ok('OK', await deliveryCounts.getDeliveryCounts(ctx, getSignedInUser(req), req.params.appId, environment, period));
    },
  });

  registerCall(app, getInboxFigures, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await inboxFigures.getInboxFigures(ctx, getSignedInUser(req), req.params.appId, req.query.period)),
  });

  registerCall(app, getSessionHealth, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      const { environment, period } = req.query;
      return ok('OK', await sessionHealth.getSessionHealth(ctx, getSignedInUser(req), req.params.appId, environment, period));
    },
  });

  registerCall(app, findSessionMessages, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await deliveryCounts.findSessionMessages(ctx, getSignedInUser(req), req.params.appId, req.query.sessionId));
    },
  });

  registerCall(app, findCompletedSessions, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await sessionsService.findSessions(ctx, getSignedInUser(req), req.params.appId, 'completed', req.query.cause));
    },
  });

  registerCall(app, findUncompletedSessions, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      await runtime.sweepExpired();
      return ok('OK', await sessionsService.findSessions(ctx, getSignedInUser(req), req.params.appId, 'abandoned', req.query.cause));
    },
  });

  // Ours: the whole result of a search as a file, streamed page by page (the screen shows the first 5,000).
  registerCall(app, exportSessions, {
    tags,
    onRequest: guard(),
    handler: async (req, reply) => {
      await runtime.flushEvents();
      const { format, ...search } = req.body;
      const chunks = sessionsService.exportSessions(ctx, getSignedInUser(req), search, format);
      // The first chunk runs the access and input checks, so a refusal is still an ordinary error reply.
      const first = await chunks.next();
      const stream = Readable.from(
        (async function* () {
          if (!first.done) yield first.value;
          yield* chunks;
        })(),
      );
      const isCsv = format === 'csv';
      return reply
        .type(isCsv ? 'text/csv; charset=utf-8' : 'application/vnd.ms-excel')
        .header('content-disposition', `attachment; filename="sessions.${isCsv ? 'csv' : 'xls'}"`)
        .send(stream);
    },
  });

  registerCall(app, searchSessions, {
    tags,
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await sessionsService.searchSessions(ctx, getSignedInUser(req), req.body));
    },
  });
}
