import { date, integer, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';

/**
 * Finished sessions counted per app and UTC day (docs/operations.md, "Daily counts"): written for each whole day
 * before any of its records may expire, so the dashboard's counts for days past an app's retention stay as they
 * were. One row per app, day and combination the dashboard groups by.
 */
export const sessionDayCounts = pgTable(
  'session_day_counts',
  {
    appId: text('app_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    environment: text('environment').notNull(),
    network: text('network').notNull(),
    /** The menu where the sessions stopped; '' before the first menu. */
    lastMenu: text('last_menu').notNull(),
    status: text('status').notNull(),
    /** Why they ended; '' for records without a cause. */
    endCause: text('end_cause').notNull(),
    sessions: integer('sessions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day, t.environment, t.network, t.lastMenu, t.status, t.endCause] })],
);

/** How far each daily roll-up has gone: every day up to `through` (inclusive) is counted. */
export const dailyRollups = pgTable('daily_rollups', {
  name: text('name').primaryKey(),
  through: date('through', { mode: 'string' }).notNull(),
});

/**
 * A bot's outbound WhatsApp messages counted per app and UTC day of sending, by where each stood when it expired
 * (docs/operations.md, "Daily counts"): written in the statement that deletes the rows, so a message is counted
 * either here or in `whatsapp_messages`, never both, and the dashboard's delivery figures add the two.
 */
export const messageDayCounts = pgTable(
  'message_day_counts',
  {
    appId: text('app_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    environment: text('environment').notNull(),
    status: text('status').notNull(),
    failureCode: integer('failure_code'),
    failureReason: text('failure_reason').notNull(),
    messages: integer('messages').notNull(),
  },
  (t) => [unique('message_day_counts_uq').on(t.appId, t.day, t.environment, t.status, t.failureCode, t.failureReason).nullsNotDistinct()],
);

/**
 * An app's closed inbox conversations counted per UTC day when they expire (docs/operations.md, "Daily counts"):
 * opened and answered on the day each was opened, closed on the day it was closed. Written in the statement that
 * deletes them, so the dashboard's inbox figures add these to the conversations still kept.
 */
export const inboxDayCounts = pgTable(
  'inbox_day_counts',
  {
    appId: text('app_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    opened: integer('opened').notNull().default(0),
    answered: integer('answered').notNull().default(0),
    closed: integer('closed').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.day] })],
);
