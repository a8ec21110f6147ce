import type { FastifyInstance } from 'fastify';
import { clearLogs, findActionResults, findSessionPath, findStreamLogs, findUserInputs, searchLogs } from '../../../shared/api/logs.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { Runtime } from '../runtime/runtime.service';
import { done, ok } from '../../http';
import * as logs from './logs.service';

/** Logs and debug data of an app's sessions (the emulator's panels and Application Logs, docs/product.md). */
export function registerLogsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, runtime: Runtime): void {
  const tags = ['logs'];

  registerCall(app, findStreamLogs, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.streamLogs(ctx, getSignedInUser(req), req.body));
    },
  });

  registerCall(app, searchLogs, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.searchLogs(ctx, getSignedInUser(req), req.body));
    },
  });

  registerCall(app, clearLogs, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      const count = await logs.clearLogs(ctx, getSignedInUser(req), req.body.appId);
      return done(`Logs cleared successfully (${count} lines)`);
    },
  });

  registerCall(app, findUserInputs, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findUserInputs(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });

  registerCall(app, findSessionPath, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findSessionPath(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });

  registerCall(app, findActionResults, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await runtime.flushEvents();
      return ok('OK', await logs.findActionResults(ctx, getSignedInUser(req), req.body.appId, req.body.sessionId));
    },
  });
}
