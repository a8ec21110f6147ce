import { z } from 'zod';

// API shapes of the SMS outbox (GET /api/sms/outbox), shared by the server and the console's SMS Outbox screen.

export const SMS_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;
/** What the network said after the provider took a message (its delivery report); null without one. */
export const SMS_DELIVERY_STATUSES = ['submitted', 'delivered', 'failed'] as const;

export const smsMessageSchema = z.object({
  id: z.string(),
  appId: z.string().nullable(),
  /** The app's name; null for a message of no app (or one whose app is gone). */
  appName: z.string().nullable(),
  sessionId: z.string(),
  sender: z.string(),
  recipient: z.string(),
  message: z.string(),
  status: z.enum(SMS_STATUSES),
  provider: z.string(),
  providerMessageId: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  deliveryStatus: z.enum(SMS_DELIVERY_STATUSES).nullable(),
  deliveryError: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** Replies the recipient sent after it (SMS replies belong to the account's last SMS to the number). */
  replies: z.number().int(),
});
export type SmsMessage = z.infer<typeof smsMessageSchema>;

export const smsOutboxQuerySchema = z.object({
  appId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const SMS_REPLY_MAX_LENGTH = 918;

/** An SMS a person sent back; `consent` is the change a keyword in it made to their SMS consent. */
export const smsReplySchema = z.object({
  id: z.string(),
  smsMessageId: z.string().nullable(),
  msisdn: z.string(),
  text: z.string(),
  provider: z.string(),
  receivedAt: z.string(),
  consent: z.enum(['in', 'out']).nullable(),
});
export type SmsReply = z.infer<typeof smsReplySchema>;

export const smsParamsSchema = z.object({ smsId: z.uuid('Unknown SMS') });

/** The outbox's "reply as the recipient": what the person writes back. */
export const smsReplyBodySchema = z.object({
  text: z.string().trim().min(1, 'Write the reply').max(SMS_REPLY_MAX_LENGTH, `A reply is at most ${SMS_REPLY_MAX_LENGTH} characters`),
});

export const smsRepliesQuerySchema = z.object({
  msisdn: z.string().min(1).max(32).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
