import { z } from 'zod';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema } from './envelope';
import { saveWebhookBodySchema, webhookDeliveriesQuerySchema, webhookDeliverySchema, webhookSchema } from './webhooks.schema';

// An app's webhook and its deliveries (src/shared/api/contract.ts). Keys: ['webhooks', appId] holds the webhook
// and, below it, its deliveries.

const deliveryParamsSchema = appIdParamsSchema.extend({ deliveryId: z.uuid('Delivery not found') });

/** GET /api/apps/:appId/webhook: URL, events, on or off, signing secret. */
export const getWebhook = defineCall({
  method: 'GET',
  path: '/api/apps/:appId/webhook',
  params: appIdParamsSchema,
  reply: envelopeSchema(webhookSchema),
  key: ['webhooks', ':appId'],
});

/** POST /api/apps/:appId/webhook: saves the webhook; the URL must reach a public address. */
export const saveWebhook = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/webhook',
  params: appIdParamsSchema,
  body: saveWebhookBodySchema,
  reply: envelopeSchema(webhookSchema),
});

/** POST /api/apps/:appId/webhook/rotate-secret: a new signing secret, used from now on. */
export const rotateWebhookSecret = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/webhook/rotate-secret',
  params: appIdParamsSchema,
  reply: envelopeSchema(webhookSchema),
});

/** POST /api/apps/:appId/webhook/test: queues a webhook.test event, sent now. */
export const sendWebhookTestEvent = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/webhook/test',
  params: appIdParamsSchema,
  reply: envelopeSchema(webhookDeliverySchema),
});

/** GET /api/apps/:appId/webhook/deliveries: the newest deliveries first (50 unless ?limit=). */
export const findWebhookDeliveries = defineCall({
  method: 'GET',
  path: '/api/apps/:appId/webhook/deliveries',
  params: appIdParamsSchema,
  query: webhookDeliveriesQuerySchema,
  reply: envelopeSchema(z.array(webhookDeliverySchema)),
  key: ['webhooks', ':appId', 'deliveries'],
});

/** POST /api/apps/:appId/webhook/deliveries/:deliveryId/redeliver: sends a delivery again now. */
export const redeliverWebhookDelivery = defineCall({
  method: 'POST',
  path: '/api/apps/:appId/webhook/deliveries/:deliveryId/redeliver',
  params: deliveryParamsSchema,
  reply: envelopeSchema(webhookDeliverySchema),
});
