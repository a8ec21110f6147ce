import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  actionResultEntrySchema,
  debugBodySchema,
  logEntrySchema,
  searchLogsBodySchema,
  sessionPathSchema,
  streamLogEntrySchema,
  streamLogsBodySchema,
  userInputEntrySchema,
} from '../../../shared/api/monitoring.schema';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { Runtime } from '../runtime/runtime.service';
import { done, ok } from '../../http';
import * as logs from './logs.service';

/** Logs and debug data of an app's sessions (the emulator's panels and Application Logs, docs/product.md). */
export function registerLogsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['logs'];

  r.post('/streamLogs', {
    schema: { tags, body: streamLogsBodySchema, response: { 200: envelopeSchema(z.array(streamLogEntrySchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.streamLogs(ctx, getSignedInUser(req), req.body));
    },
  });

  r.post('/actionlogs/searchLogs', {
    schema: { tags, body: searchLogsBodySchema, response: { 200: envelopeSchema(z.array(logEntrySchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.searchLogs(ctx, getSignedInUser(req), req.body));
    },
  });

  r.post('/actionlogs/clearLogs', {
    schema: { tags, body: z.object({ appId: z.string().min(1).max(64) }), response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      const count = await logs.clearLogs(ctx, getSignedInUser(req), req.body.appId);
      return done(`Logs cleared successfully (${count} lines)`);
    },
  });

  r.post('/debug/userInputs', {
    schema: { tags, body: debugBodySchema, response: { 200: envelopeSchema(z.array(userInputEntrySchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findUserInputs(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });

  r.post('/debug/sessionPath', {
    schema: { tags, body: debugBodySchema, response: { 200: envelopeSchema(sessionPathSchema) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findSessionPath(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });

  r.post('/debug/actionResults', {
    schema: { tags, body: debugBodySchema, response: { 200: envelopeSchema(z.array(actionResultEntrySchema)) } },
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findActionResults(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });
}
