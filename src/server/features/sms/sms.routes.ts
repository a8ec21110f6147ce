import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { smsMessageSchema, smsOutboxQuerySchema } from '../../../shared/api/sms.schema';
import { createSmsDispatcher, findSmsMessages, getSmsProvider, type SmsDispatcher } from './sms.service';

/**
 * The SMS outbox API (console) and the dispatcher that delivers queued SMS (every mode: gateway processes queue
 * them, any process may send them). SMS_DISPATCH_INTERVAL_MS=0 leaves the dispatcher off.
 */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): SmsDispatcher {
  const dispatcher = createSmsDispatcher(ctx, getSmsProvider(ctx.config), { intervalMs: ctx.config.SMS_DISPATCH_INTERVAL_MS });
  app.addHook('onReady', async () => dispatcher.start());
  // preClose runs before onClose hooks, so the database is still open while the last run finishes.
  app.addHook('preClose', async () => dispatcher.stop());

  if (ctx.config.MODE !== 'runtime') {
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
  return dispatcher;
}
