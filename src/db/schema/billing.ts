import { index, integer, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Billing (docs/billing.md). An account without a row is on TRIAL. A row holds its plan, the period paid for
 * and the USD balance credited and not yet spent; whether it is active, in grace or inactive is read from
 * `period_end` and the clock.
 */
export const subscriptions = pgTable('subscriptions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** A plan name of src/shared/billing/plans.ts. */
  plan: text('plan').notNull(),
  periodStart: timestamp('period_start', { withTimezone: true, precision: 3 }),
  periodEnd: timestamp('period_end', { withTimezone: true, precision: 3 }),
  /** USD. */
  accountBalance: numeric('account_balance', { precision: 12, scale: 2 }).notNull().default('0'),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** What an admin changed by hand (extend, activate) and why. */
export const subscriptionChanges = pgTable(
  'subscription_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    plan: text('plan').notNull(),
    days: integer('days').notNull(),
    reason: text('reason').notNull(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    adminEmail: text('admin_email').notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('subscription_changes_user_idx').on(t.userId, t.createdAt)],
);

/**
 * One counter per account, calendar month (UTC, `2026-11`) and kind (`sessions`, `sms`): a new live session
 * costs one upsert that adds 1 only while the count is under the plan's allowance. `warned_percent` is the
 * highest usage warning mailed (80, 100), raised once by a conditional update.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
    warnedPercent: integer('warned_percent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month, t.kind] })],
);

/** Reminder mails about a period's end, recorded before they are sent so each goes once (days 7, 1; 0 = lapsed). */
export const billingReminders = pgTable(
  'billing_reminders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    periodEnd: timestamp('period_end', { withTimezone: true, precision: 3 }).notNull(),
    days: integer('days').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.periodEnd, t.days] })],
);
