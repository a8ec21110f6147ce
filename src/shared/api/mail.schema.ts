import { z } from 'zod';

// API shapes of the mail outbox (GET /api/admin/mail-outbox), shared by the server and the console's Mail Outbox screen.

/** `outbox`: kept here only (no SMTP_URL); `sent` and `failed`: what SMTP answered. */
export const MAIL_STATUSES = ['outbox', 'sent', 'failed'] as const;

export const outboxMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(MAIL_STATUSES),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const mailOutboxQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
