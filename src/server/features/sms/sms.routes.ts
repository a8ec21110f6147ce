import type { FastifyInstance } from 'fastify';
import { findSmsMessages } from '../../../shared/api/sms.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as smsService from './sms.service';

/** The SMS outbox API (console); buildApp runs the dispatcher that delivers queued SMS. */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  registerCall(app, findSmsMessages, {
    tags: ['sms'],
    summary: "The app owner's SMS (an app's with ?appId=), newest first; admins see everyone's",
    onRequest: guard(),
    handler: async (req) => ok('OK', await smsService.findSmsMessages(ctx, getSignedInUser(req), req.query)),
  });
}
