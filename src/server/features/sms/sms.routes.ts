import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { smsMessageSchema, smsOutboxQuerySchema } from '../../../shared/api/sms.schema';
import { findSmsMessages } from './sms.service';

/** The SMS outbox API (console); buildApp runs the dispatcher that delivers queued SMS. */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/sms/outbox', {
    schema: {
      tags: ['sms'],
      summary: "The app owner's SMS (an app's with ?appId=), newest first; admins see everyone's",
      querystring: smsOutboxQuerySchema,
      response: { 200: envelopeSchema(z.array(smsMessageSchema)) },
    },
    onRequest: guard(),
    handler: async (req) => ok('OK', await findSmsMessages(ctx, getSignedInUser(req), req.query)),
  });
}
