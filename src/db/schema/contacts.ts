import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ImportRowError } from '../../shared/api/contact-imports.schema';
import type { ContactConsentMap } from '../../shared/contact-consent';
import { users } from './accounts';

/**
 * The people an account's apps talk to (docs/contacts.md): one row per account and phone number, whichever
 * app or channel (USSD, WhatsApp, SMS) they came by. `msisdn` is the number in E.164 form (`+233241234567`).
 * The runtime creates a row on a caller's first session and keeps the times seen; a menu's input may fill the
 * name or an attribute; the console and the API edit and delete it.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account the contact belongs to (the apps' owner), not an app. */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    msisdn: text('msisdn').notNull(),
    name: text('name'),
    /** A language code of the account's apps (docs/languages.md), or null. */
    language: text('language'),
    /** The fields a builder chooses to keep: string values by key. */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    /**
     * Consent per channel (docs/contacts.md): the latest opt in or out on `ussd`, `whatsapp` or `sms`, when and how.
     * A channel missing is "never asked": nothing outbound goes to it.
     */
    consent: jsonb('consent').$type<ContactConsentMap>().notNull().default({}),
    firstSeenUssd: timestamp('first_seen_ussd', { withTimezone: true, precision: 3 }),
    lastSeenUssd: timestamp('last_seen_ussd', { withTimezone: true, precision: 3 }),
    firstSeenWhatsapp: timestamp('first_seen_whatsapp', { withTimezone: true, precision: 3 }),
    lastSeenWhatsapp: timestamp('last_seen_whatsapp', { withTimezone: true, precision: 3 }),
    firstSeenSms: timestamp('first_seen_sms', { withTimezone: true, precision: 3 }),
    lastSeenSms: timestamp('last_seen_sms', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_owner_msisdn_idx').on(t.ownerId, t.msisdn),
    // The list's search by number prefix (LIKE '+23324%') uses this whatever the database's collation.
    index('contacts_owner_msisdn_prefix_idx').on(t.ownerId, t.msisdn.op('text_pattern_ops')),
    // The list's search by a part of the name (ILIKE '%mens%'), from trigrams (pg_trgm, migration 0004; PGlite loads
    // it too). Only named contacts are in it, so the runtime's new contacts (no name yet) add nothing to it.
    index('contacts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')).where(sql`${t.name} is not null`),
    // The list's search by a name's start of one or two characters (lower(name) LIKE 'ko%'), too short for trigrams.
    index('contacts_owner_name_start_idx').on(t.ownerId, sql`lower(${t.name}) text_pattern_ops`).where(sql`${t.name} is not null`),
    // The list's filters on attributes and consent (`attributes @> '{"tier":"gold"}'`,
    // `consent @> '{"whatsapp":{"status":"in"}}'`): a value few or no contacts have would otherwise read them all.
    index('contacts_attributes_idx').using('gin', t.attributes.op('jsonb_path_ops')),
    index('contacts_consent_idx').using('gin', t.consent.op('jsonb_path_ops')),
    // The list's "seen on" filter, by the first time seen (set once, with the first last seen): the contacts seen on
    // WhatsApp or SMS in number order, however few they are. Sessions change only the last time seen, so their
    // updates stay in place (below); a new contact on those channels adds an entry. None for USSD: most contacts
    // come by it (the list in number order finds a page of them at once), and every new caller would pay for it.
    index('contacts_seen_whatsapp_idx').on(t.ownerId, t.msisdn).where(sql`${t.firstSeenWhatsapp} is not null`),
    index('contacts_seen_sms_idx').on(t.ownerId, t.msisdn).where(sql`${t.firstSeenSms} is not null`),
    // No other index on a column sessions change (the times seen, updated_at): their writes then update the row
    // in place (PostgreSQL's HOT updates), which keeps the runtime's writes cheap. The name's and attributes'
    // indexes above cost only the writes that change them (a menu's save to contact, the console, an import).
  ],
);

/**
 * A CSV import of contacts (docs/contacts.md, "Importing a CSV"): its progress and counts, polled by the console,
 * and the per-row errors kept for download. One import runs at a time per account (the partial unique index).
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `running`, `done` or `failed`. */
    status: text('status').notNull().default('running'),
    rowCount: integer('row_count').notNull(),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** The first per-row errors (CONTACT_IMPORT_LIMITS.keptErrors); `skipped` counts them all. */
    errors: jsonb('errors').$type<ImportRowError[]>().notNull().default([]),
    consentSource: text('consent_source'),
    failure: text('failure'),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [uniqueIndex('contact_imports_one_running_idx').on(t.ownerId).where(sql`status = 'running'`)],
);

/**
 * An erasure of one number's subscriber data (docs/security.md, "Subscriber data"): an account's own (`ownerId`), or
 * every account's (`ownerId` null: an admin's). Written a batch at a time, each batch with the counts it added, so
 * the console's progress is exact and a server that stopped mid-way leaves a job that carries on where it was.
 * `msisdn` is the number while it runs and only its masked form once done; the audit log keeps counts, never data.
 */
export const subscriberErasures = pgTable(
  'subscriber_erasures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Who asked for it (id and email as they were; kept when the user goes). */
    actorId: uuid('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    msisdn: text('msisdn').notNull(),
    /** What the number becomes where a row stays for the counts: one token per erasure, so a caller still counts once. */
    anonymous: text('anonymous').notNull(),
    reason: text('reason').notNull(),
    /** `running`, `done` or `failed`. */
    status: text('status').notNull().default('running'),
    batches: integer('batches').notNull().default(0),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    failure: text('failure'),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // One running erasure of a number per account (and one platform-wide).
    uniqueIndex('subscriber_erasures_running_idx').on(sql`coalesce(${t.ownerId}::text, '')`, t.msisdn).where(sql`status = 'running'`),
    index('subscriber_erasures_owner_idx').on(t.ownerId, t.startedAt),
  ],
);
