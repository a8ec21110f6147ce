import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

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
