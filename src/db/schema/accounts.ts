import { type AnyPgColumn, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RetentionKind } from '../../shared/billing/plans';

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  fullName: text('full_name').notNull(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  mobileNumber: text('mobile_number').notNull(),
  companyName: text('company_name').notNull(),
  businessCategory: text('business_category').notNull(),
  isDeveloper: boolean('is_developer').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fullName: text('full_name').notNull(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull().unique(),
    mobileNumber: text('mobile_number').notNull().default(''),
    companyName: text('company_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    /** 'user' | 'internal_admin' | 'merchant' | 'agent' (shared/roles.ts). */
    userType: text('user_type').notNull().default('user'),
    /** Role names: ADMIN, MERCHANT, DEVELOPER, SUPPORT, CHATBOT, super_admin. */
    roles: text('roles').array().notNull().default([]),
    merchantId: uuid('merchant_id').references(() => merchants.id, { onDelete: 'set null' }),
    isDeveloper: boolean('is_developer').notNull().default(false),
    /**
     * An inbox agent's account: the owner who added them (docs/inbox.md, "Agents"). Set exactly when `user_type` is
     * `agent`; deleting the owner deletes their agents.
     */
    agentOf: uuid('agent_of').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    /** Days the account asked to keep its data, by kind, below its plan's (docs/operations.md, "Data lifetime"); null: none asked. */
    retention: jsonb('retention').$type<Partial<Record<RetentionKind, number>>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_merchant_idx').on(t.merchantId), index('users_agent_of_idx').on(t.agentOf)],
);

/** Opaque bearer tokens, stored as SHA-256 hashes so a database leak gives no usable token. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_tokens_user_idx').on(t.userId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * API keys (docs/api-keys.md): `dfk_` + 256 random bits, shown once and stored as a SHA-256 hash (enough for a
 * random key; a slow password hash would only slow every call). `prefix` is what the list shows of it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `read` or `write` (shared/api/api-keys.schema.ts). */
    scope: text('scope').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per key, so a busy CI job is not a write per call. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);
