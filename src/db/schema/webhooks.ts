import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apps } from './apps';

/**
 * An app's webhook (docs/webhooks.md): one URL per app, the event types it receives and the secret its
 * deliveries are signed with. The secret is kept as it is: every delivery is signed with it.
 */
export const webhooks = pgTable('webhooks', {
  appId: text('app_id')
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  /** Event types (`session.completed`, `session.abandoned`, `payment.settled`) as a JSON array. */
  events: jsonb('events').$type<string[]>().notNull(),
  isEnabled: boolean('is_enabled').notNull().default(true),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One event on its way to an app's webhook, and how its last attempt went. Session events are inserted by the
 * trigger on session_records (same statement as the session's record, see the migration), payment events in
 * the settlement's transaction. `event_id` is the event's stable id: every attempt and redelivery sends it.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull().unique(),
    eventType: text('event_type').notNull(),
    data: jsonb('data').notNull(),
    /** When the event happened: the payload's createdAt. */
    occurredAt: timestamp('occurred_at', { withTimezone: true, precision: 3 }).notNull(),
    /** pending, sending (claimed by a dispatcher until next_attempt_at, its lease), delivered or failed. */
    status: text('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** When a pending delivery is due; for a sending one, when its lease ends (a dispatcher that died mid-send). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, precision: 3 }),
    lastResponseStatus: integer('last_response_status'),
    /** The first 2 KB of the last response's body. */
    lastResponseExcerpt: text('last_response_excerpt'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt), index('webhook_deliveries_app_idx').on(t.appId, t.createdAt)],
);
