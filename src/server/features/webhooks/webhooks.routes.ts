import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import {
  saveWebhookBodySchema,
  webhookDeliveriesQuerySchema,
  webhookDeliverySchema,
  webhookSchema,
} from '../../../shared/api/webhooks.schema';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { AddressRules } from '../../../actions/net/address-guard';
import type { WebhookDispatcher } from './webhook-dispatcher';
import * as webhooksService from './webhooks.service';

const appIdParams = z.object({ appId: z.string().min(1).max(64) });
const deliveryParams = appIdParams.extend({ deliveryId: z.uuid('Delivery not found') });

/**
 * An app's webhook settings and deliveries (console). buildApp runs the dispatcher that sends deliveries; "Send
 * test event" and "Redeliver" wake it. `rules` are the outbound address rules a webhook URL is checked against.
 */
export function registerWebhooksRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guard: Guard,
  dispatcher: WebhookDispatcher,
  rules: AddressRules,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  r.get('/api/apps/:appId/webhook', {
    schema: {
      tags,
      summary: "The app's webhook: URL, events, on or off, signing secret",
      params: appIdParams,
      response: { 200: envelopeSchema(webhookSchema) },
    },
    onRequest: guard(),
    handler: async (req) => ok('OK', await webhooksService.getWebhook(ctx, getSignedInUser(req), req.params.appId)),
  });
  r.post('/api/apps/:appId/webhook', {
    schema: {
      tags,
      summary: 'Saves the webhook; the URL must reach a public address',
      params: appIdParams,
      body: saveWebhookBodySchema,
      response: { 200: envelopeSchema(webhookSchema) },
    },
    onRequest: guard(),
    handler: async (req) =>
      ok('Webhook saved', await webhooksService.saveWebhook(ctx, rules, getSignedInUser(req), req.params.appId, req.body)),
  });
  r.post('/api/apps/:appId/webhook/rotate-secret', {
    schema: {
      tags,
      summary: 'A new signing secret, used from now on',
      params: appIdParams,
      response: { 200: envelopeSchema(webhookSchema) },
    },
    onRequest: guard(),
    handler: async (req) => ok('Secret rotated', await webhooksService.rotateWebhookSecret(ctx, getSignedInUser(req), req.params.appId)),
  });
  r.post('/api/apps/:appId/webhook/test', {
    schema: {
      tags,
      summary: 'Queues a webhook.test event, sent now',
      params: appIdParams,
      response: { 200: envelopeSchema(webhookDeliverySchema) },
    },
    onRequest: guard(),
    // Each press sends a request to a URL the builder chose: per account (all its apps), counted after the guard.
    config: {
      rateLimit: {
        max: ctx.config.WEBHOOK_TEST_RATE_LIMIT,
        timeWindow: '1 minute',
        hook: 'preHandler' as const,
        keyGenerator: (req: FastifyRequest) => `webhook-test:${getSignedInUser(req).id}`,
      },
    },
    handler: async (req) => {
      const delivery = await webhooksService.queueTestEvent(ctx, getSignedInUser(req), req.params.appId);
      dispatcher.wake();
      return ok('Test event queued', delivery);
    },
  });
  r.get('/api/apps/:appId/webhook/deliveries', {
    schema: {
      tags,
      summary: "The app's webhook deliveries, newest first",
      params: appIdParams,
      querystring: webhookDeliveriesQuerySchema,
      response: { 200: envelopeSchema(z.array(webhookDeliverySchema)) },
    },
    onRequest: guard(),
    handler: async (req) =>
      ok('OK', await webhooksService.findWebhookDeliveries(ctx, getSignedInUser(req), req.params.appId, req.query.limit)),
  });
  r.post('/api/apps/:appId/webhook/deliveries/:deliveryId/redeliver', {
    schema: {
      tags,
      summary: 'Sends a delivery again now',
      params: deliveryParams,
      response: { 200: envelopeSchema(webhookDeliverySchema) },
    },
    onRequest: guard(),
    handler: async (req) => {
      const delivery = await webhooksService.redeliverWebhookDelivery(ctx, getSignedInUser(req), req.params.appId, req.params.deliveryId);
      dispatcher.wake();
      return ok('Redelivery queued', delivery);
    },
  });
}
