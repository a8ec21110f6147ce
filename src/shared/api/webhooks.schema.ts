import { z } from 'zod';

/**
 * An app's webhook (docs/webhooks.md): the events Dialflow sends to the builder's URL, signed with the app's
 * secret. `webhook.test` is the console's "Send test event"; it is sent whatever events are ticked.
 */
export const WEBHOOK_EVENT_TYPES = ['session.completed', 'session.abandoned', 'payment.settled'] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'session.completed': 'Session completed',
  'session.abandoned': 'Session abandoned (timed out, dropped or cancelled)',
  'payment.settled': 'Payment settled (succeeded or failed)',
};

/** The header that carries a delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Dialflow-Signature';

export const WEBHOOK_MESSAGES = {
  badUrl: 'Enter the full URL of your endpoint, starting with https:// or http://',
  credentialsInUrl: 'Leave the user name and password out of the webhook URL',
  noEvents: 'Tick at least one event to send',
  turnedOff: 'Turn the webhook on (and save) to send a test event',
  notSet: 'Save a webhook URL first',
} as const;

export const webhookSchema = z.object({
  appId: z.string(),
  /** Empty until the builder saves one. */
  url: z.string(),
  events: z.array(webhookEventTypeSchema),
  isEnabled: z.boolean(),
  /** The signing secret (`whsec_...`); empty until a URL is saved. */
  secret: z.string(),
  updatedAt: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const saveWebhookBodySchema = z.object({
  url: z.string().trim().min(1, WEBHOOK_MESSAGES.badUrl).max(2000, 'The URL is too long (2,000 characters at most)'),
  events: z.array(webhookEventTypeSchema).min(1, WEBHOOK_MESSAGES.noEvents).max(WEBHOOK_EVENT_TYPES.length),
  isEnabled: z.boolean(),
});
export type SaveWebhookBody = z.infer<typeof saveWebhookBodySchema>;

export const webhookDeliveryStatusSchema = z.enum(['pending', 'sending', 'delivered', 'failed']);
export type WebhookDeliveryStatus = z.infer<typeof webhookDeliveryStatusSchema>;

export const webhookDeliverySchema = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: webhookDeliveryStatusSchema,
  attemptCount: z.number(),
  createdAt: z.string(),
  /** When a pending delivery is tried next (a sending one: when it is taken again should its sender stop); null once delivered or failed. */
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastResponseStatus: z.number().nullable(),
  /** The start of the last response's body (2 KB at most). */
  lastResponseExcerpt: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  lastError: z.string().nullable(),
  /** The request body, exactly as it is sent. */
  requestBody: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
