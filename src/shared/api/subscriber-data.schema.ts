import { z } from 'zod';
import { APP_COUNTRIES } from './apps.schema';

/**
 * Subscriber data (docs/security.md, "Subscriber data"): everything an account's apps and bots keep about one phone
 * number, exported as one file or erased on request. An account reaches its own; an admin holding
 * `subscriberData.manage` reaches every account's at once.
 */

/** The kinds of row subscriber data is counted in, exported and erased by, in the order the console lists them. */
export const SUBSCRIBER_DATA_KINDS = [
  'contacts',
  'sessions',
  'inputs',
  'actionResults',
  'logs',
  'sms',
  'smsReplies',
  'whatsappMessages',
  'firstMessages',
  'windows',
  'inboxConversations',
  'campaignMessages',
  'media',
  'payments',
  'webhookEvents',
] as const;
export type SubscriberDataKind = (typeof SUBSCRIBER_DATA_KINDS)[number];
export type SubscriberDataCounts = Record<SubscriberDataKind, number>;

/** Each kind as the console names it, and what an erasure does to its rows (docs/security.md, "Subscriber data"). */
export const SUBSCRIBER_DATA_KIND_INFO: Record<SubscriberDataKind, { label: string; erasure: 'deleted' | 'anonymised' }> = {
  contacts: { label: 'Contact', erasure: 'deleted' },
  sessions: { label: 'Sessions', erasure: 'anonymised' },
  inputs: { label: 'Inputs given', erasure: 'deleted' },
  actionResults: { label: 'Action results', erasure: 'deleted' },
  logs: { label: 'Log lines', erasure: 'anonymised' },
  sms: { label: 'SMS sent', erasure: 'anonymised' },
  smsReplies: { label: 'SMS replies', erasure: 'anonymised' },
  whatsappMessages: { label: 'WhatsApp messages sent', erasure: 'anonymised' },
  firstMessages: { label: 'Conversations the business started', erasure: 'deleted' },
  windows: { label: 'WhatsApp 24-hour windows', erasure: 'deleted' },
  inboxConversations: { label: 'Inbox conversations', erasure: 'deleted' },
  campaignMessages: { label: 'Campaign messages', erasure: 'anonymised' },
  media: { label: 'Files received', erasure: 'anonymised' },
  payments: { label: 'Payments', erasure: 'anonymised' },
  webhookEvents: { label: 'Webhook events', erasure: 'anonymised' },
};

/** Rows each batch of an erasure writes at most, in one transaction. */
export const SUBSCRIBER_ERASURE_BATCH = 500;

export const SUBSCRIBER_DATA_MESSAGES = {
  badNumber: 'Enter a phone number with its country code (+233241234567), or choose the country of a number written without it',
  reasonRequired: 'Say why the data is erased (the request, a ticket): it is kept in the audit log',
  liveSession:
    'A session of this number is running now; nothing was erased. Erase again once it has ended (a USSD session ends within minutes, a WhatsApp conversation after its inactivity timeout)',
  running: 'An erasure of this number is already running: follow its progress',
  notFound: 'Erasure not found',
  /** What an erased number's texts become where the row stays. */
  erased: '(erased)',
} as const;

/** The number as typed, and the country of a number typed without its country code. */
export const subscriberDataBodySchema = z.object({
  msisdn: z.string().trim().min(1, SUBSCRIBER_DATA_MESSAGES.badNumber).max(64, SUBSCRIBER_DATA_MESSAGES.badNumber),
  country: z.enum(APP_COUNTRIES).optional(),
});
export type SubscriberDataBody = z.infer<typeof subscriberDataBodySchema>;

/** An erasure: the number, and why (required; kept in the audit log, never the data). */
export const subscriberErasureBodySchema = subscriberDataBodySchema.extend({
  reason: z.string().trim().min(3, SUBSCRIBER_DATA_MESSAGES.reasonRequired).max(500, 'A reason is at most 500 characters'),
});
export type SubscriberErasureBody = z.infer<typeof subscriberErasureBodySchema>;

/** Rows per kind, every kind named. */
const countsSchema = z.record(z.enum(SUBSCRIBER_DATA_KINDS), z.number().int());

/** What is kept about the number: rows per kind, and its sessions running now. */
export const subscriberDataSummarySchema = z.object({
  msisdn: z.string(),
  counts: countsSchema,
  liveSessions: z.number().int(),
});
export type SubscriberDataSummary = z.infer<typeof subscriberDataSummarySchema>;

/** An erasure's progress: rows erased so far per kind; `msisdn` is masked once it is done. */
export const subscriberErasureSchema = z.object({
  erasureId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  msisdn: z.string(),
  reason: z.string(),
  /** The batches written so far. */
  batches: z.number().int(),
  counts: countsSchema,
  failure: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SubscriberErasure = z.infer<typeof subscriberErasureSchema>;

export const subscriberErasureParamsSchema = z.object({ erasureId: z.string().min(1).max(64) });

export const emptySubscriberDataCounts = (): SubscriberDataCounts =>
  Object.fromEntries(SUBSCRIBER_DATA_KINDS.map((kind) => [kind, 0])) as SubscriberDataCounts;
