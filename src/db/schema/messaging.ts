import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * SMS queued by apps (the sendsms action). A hop only inserts a row; the dispatcher delivers it through the
 * configured provider outside the hop, retrying with backoff. With the default outbox provider nothing leaves
 * the machine and the console lists the rows.
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id'),
    /** The app's owner: whose outbox this message is in. */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').notNull().default(''),
    /** Sender id or shortcode; empty means the provider account's default. */
    sender: text('sender').notNull().default(''),
    recipient: text('recipient').notNull(),
    message: text('message').notNull(),
    /** QUEUED, SENT or FAILED. */
    status: text('status').notNull().default('QUEUED'),
    /** The provider that sent (or last tried to send) it: outbox, africastalking. */
    provider: text('provider').notNull().default(''),
    providerMessageId: text('provider_message_id'),
    /** Delivery attempts so far (a claimed row counts as an attempt). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the dispatcher may pick the row up next; a claim pushes it forward as a lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    /**
     * What the network said after the provider took it (a delivery report): `submitted` (on its way), `delivered` or
     * `failed`; null without a report (the outbox, a provider that sends none).
     */
    deliveryStatus: text('delivery_status'),
    /** The delivery report's reason for a failure, in the provider's words. */
    deliveryError: text('delivery_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // A delivery report finds its message by the provider's id; a reply the last message to its number.
    index('sms_messages_provider_id_idx').on(t.providerMessageId),
    index('sms_messages_recipient_idx').on(t.recipient, t.sentAt),
    // The dispatcher's scan: only queued rows, by due time.
    index('sms_messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'QUEUED'`),
    index('sms_messages_owner_idx').on(t.ownerId, t.createdAt),
    index('sms_messages_app_idx').on(t.appId, t.createdAt),
  ],
);

/**
 * SMS a person sent back (the provider's incoming message, or the outbox's simulated reply). A reply belongs to the
 * account whose SMS to that number went last (docs/runtime.md, "SMS replies"); a consent keyword in it changes the
 * contact's SMS consent. The unique (provider, provider message id) makes a redelivered notification a no-op.
 */
export const smsReplies = pgTable(
  'sms_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The SMS it answers: the account's last one to the number. */
    smsMessageId: uuid('sms_message_id').references(() => smsMessages.id, { onDelete: 'set null' }),
    msisdn: text('msisdn').notNull(),
    text: text('text').notNull(),
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_replies_provider_idx').on(t.provider, t.providerMessageId),
    index('sms_replies_owner_msisdn_idx').on(t.ownerId, t.msisdn, t.receivedAt),
    index('sms_replies_message_idx').on(t.smsMessageId),
    // Expiry by the account's retention (features/retention/expiry.ts); replies come from providers, not hops.
    index('sms_replies_owner_time_idx').on(t.ownerId, t.receivedAt),
  ],
);

/**
 * Every verified payment callback, stored once: the unique (provider, event id) is what makes a redelivered
 * callback a no-op. The transaction it settles is found by `reference`.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    reference: text('reference').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payment_events_event_idx').on(t.provider, t.eventId), index('payment_events_reference_idx').on(t.reference)],
);
