import { index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** Money movements: payment prompts from apps, plan and shortcode payments. */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reference: text('reference').notNull().unique(),
    transactionType: text('transaction_type').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    currency: text('currency').notNull().default('GHS'),
    /** PENDING, SUCCESS or FAILED. */
    status: text('status').notNull().default('PENDING'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    appId: text('app_id'),
    shortcode: text('shortcode').notNull().default(''),
    metadata: jsonb('metadata').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('transactions_app_idx').on(t.appId, t.createdAt), index('transactions_user_idx').on(t.userId, t.createdAt)],
);
