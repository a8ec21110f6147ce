import type { FastifyInstance } from 'fastify';
import { getAccountRetention, saveAccountRetention } from '../../../shared/api/retention.calls';
import { RETENTION_MESSAGES } from '../../../shared/api/retention.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as retentionService from './retention.service';

/** The account's data retention (docs/operations.md, "Data lifetime"): read and lowered by its owner. */
export function registerRetentionRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['account'];

  registerCall(app, getAccountRetention, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok('OK', await retentionService.getAccountRetention(ctx, getSignedInUser(req))),
  });

  registerCall(app, saveAccountRetention, {
    tags,
    onRequest: guard(),
    handler: async (req) => ok(RETENTION_MESSAGES.saved, await retentionService.saveAccountRetention(ctx, getSignedInUser(req), req.body)),
  });
}
