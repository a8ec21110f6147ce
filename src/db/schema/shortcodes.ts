import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { apps } from './apps';

/**
 * Shared shortcodes (docs/shortcodes.md). A provider is an aggregator or network that forwards a shortcode's
 * traffic to `/ussd/provider/{providerId}`; the catalogue offers extensions of its shortcodes; a purchase gives
 * one account a dial string for a time and may connect it to one of its apps.
 */
export const shortcodeProviders = pgTable('shortcode_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  providerName: text('provider_name').notNull(),
  /** `mtngh`: lower-cased, unique; the last part of the provider's URL. */
  providerKey: text('provider_key').notNull().unique(),
  /**
   * The provider's gateway key (docs/shortcodes.md, "Provider keys"): 256 random bits, base64url, presented by
   * the aggregator in its URL (`/ussd/provider/{providerId}/{key}`) or an `X-Dialflow-Key` header. Kept as it is
   * (like a webhook's secret): admins are shown it again to paste into the aggregator's console.
   */
  gatewayKey: text('gateway_key')
    .notNull()
    .$defaultFn(() => randomBytes(32).toString('base64url')),
  /**
   * Legacy: the bare URL (no key) is still served. On for the providers registered before keys existed, so no
   * live traffic broke at the upgrade; off for every new one.
   */
  acceptsUnauthenticated: boolean('accepts_unauthenticated').notNull().default(false),
  /** Source addresses (CIDRs) the provider's traffic may come from; empty: any address (the key decides). */
  allowedSources: text('allowed_sources').array().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** The catalogue: `*920*` + `34` is the fixed `*920*34#`; `*800*` + `` with ext_length 3 lets the buyer pick `*800*123#`. */
export const shortcodeExtensions = pgTable(
  'shortcode_extensions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    country: text('country').notNull(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => shortcodeProviders.id, { onDelete: 'restrict' }),
    /** The base, `*920*`. */
    shortCode: text('short_code').notNull(),
    extension: text('extension').notNull().default(''),
    /** How many digits the buyer adds (0: a fixed extension). */
    extLength: integer('ext_length').notNull().default(0),
    requestMethod: text('request_method').notNull(),
    /** Per month, in `currency`. */
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shortcode_extensions_uq').on(t.providerId, t.shortCode, t.extension, t.extLength),
    index('shortcode_extensions_country_idx').on(t.country),
  ],
);

/**
 * A dial string held by an account: `reserved` at checkout until `reserved_until`, `active` from the settled
 * payment (or an admin's provision) until `expiry_date`, then `expired`; `lapsed` when a reservation passed
 * unpaid, `refund_due` when a payment came after its dial string went to someone else. The partial unique index
 * is what makes a dial string have one holder at a time on a provider: a second reservation of it fails in the
 * database, whatever the processes racing for it.
 */
export const shortcodePurchases = pgTable(
  'shortcode_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    extensionId: uuid('extension_id').references(() => shortcodeExtensions.id, { onDelete: 'set null' }),
    /** The provider's key (`mtngh`), kept as text: routing and the holder index read it without a join. */
    providerKey: text('provider_key').notNull(),
    /** The whole dial string, `*920*34#`. */
    dialString: text('dial_string').notNull(),
    country: text('country').notNull(),
    requestMethod: text('request_method').notNull(),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    reservedUntil: timestamp('reserved_until', { withTimezone: true, precision: 3 }),
    startDate: timestamp('start_date', { withTimezone: true, precision: 3 }),
    expiryDate: timestamp('expiry_date', { withTimezone: true, precision: 3 }),
    appId: text('app_id').references(() => apps.id, { onDelete: 'set null' }),
    /** `test` or `production`, with app_id. */
    linkedAppEnv: text('linked_app_env'),
    provisioned: boolean('provisioned').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shortcode_purchases_holder_uq').on(t.providerKey, t.dialString).where(sql`${t.status} in ('reserved', 'active')`),
    index('shortcode_purchases_user_idx').on(t.userId, t.createdAt),
    index('shortcode_purchases_extension_idx').on(t.extensionId),
    // The reminder and expiry timer's scan: active purchases by expiry.
    index('shortcode_purchases_expiry_idx').on(t.expiryDate).where(sql`${t.status} = 'active'`),
  ],
);

/**
 * Expiry reminders sent: one row per purchase, expiry date and days-before, inserted before the mail goes out,
 * so each reminder is mailed once even with several processes running the timer. A renewal moves the expiry
 * date, so the next expiry gets its own reminders.
 */
export const shortcodeReminders = pgTable(
  'shortcode_reminders',
  {
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => shortcodePurchases.id, { onDelete: 'cascade' }),
    expiryDate: timestamp('expiry_date', { withTimezone: true, precision: 3 }).notNull(),
    daysBefore: integer('days_before').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.purchaseId, t.expiryDate, t.daysBefore] })],
);
