import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  findWebhookDeliveries,
  getWebhook,
  redeliverWebhookDelivery,
  rotateWebhookSecret,
  saveWebhook,
  sendWebhookTestEvent,
} from '../../../shared/api/webhooks.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import type { AddressRules } from '../../../actions/net/address-guard';
import type { WebhookDispatcher } from './webhook-dispatcher';
import * as webhooksService from './webhooks.service';

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
  const tags = ['webhooks'];
  registerCall(app, getWebhook, {
    tags,
    summary: "The app's webhook: URL, events, on or off, signing secret",
    onRequest: guard(),
    handler: async (req) => ok('OK', await webhooksService.getWebhook(ctx, getSignedInUser(req), req.params.appId)),
  });
  registerCall(app, saveWebhook, {
    tags,
    summary: 'Saves the webhook; the URL must reach a public address',
    onRequest: guard(),
    handler: async (req) =>
      ok('Webhook saved', await webhooksService.saveWebhook(ctx, rules, getSignedInUser(req), req.params.appId, req.body)),
  });
  registerCall(app, rotateWebhookSecret, {
    tags,
    summary: 'A new signing secret, used from now on',
    onRequest: guard(),
    handler: async (req) => ok('Secret rotated', await webhooksService.rotateWebhookSecret(ctx, getSignedInUser(req), req.params.appId)),
  });
  registerCall(app, sendWebhookTestEvent, {
    tags,
    summary: 'Queues a webhook.test event, sent now',
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
  registerCall(app, findWebhookDeliveries, {
    tags,
    summary: "The app's webhook deliveries, newest first",
    onRequest: guard(),
    handler: async (req) =>
      ok('OK', await webhooksService.findWebhookDeliveries(ctx, getSignedInUser(req), req.params.appId, req.query.limit)),
  });
  registerCall(app, redeliverWebhookDelivery, {
    tags,
    summary: 'Sends a delivery again now',
    onRequest: guard(),
    handler: async (req) => {
      const delivery = await webhooksService.redeliverWebhookDelivery(ctx, getSignedInUser(req), req.params.appId, req.params.deliveryId);
      dispatcher.wake();
      return ok('Redelivery queued', delivery);
    },
  });
}
