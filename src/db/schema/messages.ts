import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Requests sent from the public contact form and the pricing page's Talk to us modal. */
export const contactRequests = pgTable('contact_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  subject: text('subject').notNull(),
  email: text('email').notNull(),
  mobile: text('mobile').notNull().default(''),
  message: text('message').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every mail the platform sends, whether or not SMTP is configured: the local outbox. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  /** 'outbox' when kept locally, 'sent' or 'failed' when SMTP was used. */
  status: text('status').notNull().default('outbox'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
