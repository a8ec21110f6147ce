import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TestCaseBody } from '../../shared/api/test-cases.schema';
import { apps } from './apps';

/** An app's saved test cases (docs/testing-apps.md): run against the draft before a deploy, and by a team's CI. */
export const appTestCases = pgTable(
  'app_test_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    dialString: text('dial_string').notNull().default(''),
    msisdn: text('msisdn').notNull(),
    steps: jsonb('steps').$type<TestCaseBody['steps']>().notNull(),
    /** Recorded replies by action name; secrets blanked when recorded. */
    stubs: jsonb('stubs').$type<TestCaseBody['stubs']>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('app_test_cases_app_idx').on(t.appId, t.createdAt)],
);
