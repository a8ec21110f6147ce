import { z } from 'zod';

// API shapes of the SMS outbox (GET /api/sms/outbox), shared by the server and the console's SMS Outbox screen.

export const SMS_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;

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
});
export type SmsMessage = z.infer<typeof smsMessageSchema>;

export const smsOutboxQuerySchema = z.object({
  appId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
