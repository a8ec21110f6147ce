import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import {
  dashboardQuerySchema,
  dashboardSchema,
  flatSearchSchema,
  liveItemSchema,
  searchBodySchema,
  searchRowSchema,
  sessionRowSchema,
} from '../../../shared/api/monitoring.schema';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { Runtime } from '../runtime/runtime.service';
import { ok } from '../../http';
import { findLiveSessions, getAppDashboard } from './dashboard.service';
import { exportSessions, findSessions, searchSessions } from '../sessions/sessions.service';
import { Readable } from 'node:stream';

const appIdParams = z.object({ appId: z.string().min(1).max(64) });

/** Live view, dashboard, finished sessions and search (the product's paths, some without /api: docs/product.md). */
export function registerDashboardRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];

  r.get('/dashboard/liveView/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(liveItemSchema)) } },
    onRequest: guard(),
    handler: async (req) => ok('OK', await findLiveSessions(ctx, getSignedInUser(req), runtime, req.params.appId)),
  });

  r.get('/api/dashboard/appDashboard/:appId', {
    schema: { tags, params: appIdParams, querystring: dashboardQuerySchema, response: { 200: envelopeSchema(dashboardSchema) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await getAppDashboard(ctx, getSignedInUser(req), runtime, req.params.appId, req.query.environment));
    },
  });

  r.get('/dashboard/completedSessions/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(sessionRowSchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await findSessions(ctx, getSignedInUser(req), req.params.appId, 'completed'));
    },
  });

  r.get('/dashboard/uncompletedSessions/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(sessionRowSchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      await runtime.sweepExpired();
      return ok('OK', await findSessions(ctx, getSignedInUser(req), req.params.appId, 'abandoned'));
    },
  });

  // Ours: the whole result of a search as a file, streamed page by page (the screen shows the first 5,000).
  r.post('/dashboard/search/export', {
    schema: { tags, body: searchBodySchema.and(z.object({ format: z.enum(['csv', 'xls']).default('csv') })) },
    onRequest: guard(),
    handler: async (req, reply) => {
      await runtime.flushEvents();
      const { format, ...search } = req.body;
      const chunks = exportSessions(ctx, getSignedInUser(req), search, format);
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

  r.post('/dashboard/search', {
    schema: { tags, body: searchBodySchema, response: { 200: envelopeSchema(z.union([z.array(searchRowSchema), flatSearchSchema])) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await searchSessions(ctx, getSignedInUser(req), req.body));
    },
  });
}
