import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { apps } from './apps';

/**
 * A WhatsApp number linked to a bot (the spec's "linked number"; its `id` is the linkId). The connector that
 * linked it moves it through PENDING, QR, CONNECTED, FAILED and DISCONNECTED (docs/bots.md).
 */
export const whatsappLinks = pgTable(
  'whatsapp_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /** simulator, baileys or cloud: the connector that owns the link. */
    connector: text('connector').notNull(),
    /** The linked number, digits with a leading + (known once CONNECTED). */
    mobileNumber: text('mobile_number').notNull().default(''),
    /** PENDING, QR, CONNECTED, FAILED or DISCONNECTED. */
    status: text('status').notNull().default('PENDING'),
    /** The latest QR content while the status is QR (what the phone scans); null otherwise. */
    qrCode: text('qr_code'),
    /** Why a link FAILED or was DISCONNECTED, in words for the console. */
    statusMessage: text('status_message').notNull().default(''),
    /** The connector's own address of the number: the Cloud API's phone number id; the simulator's scan secret. */
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('whatsapp_links_app_idx').on(t.appId), uniqueIndex('whatsapp_links_external_uq').on(t.connector, t.externalId)],
);

/**
 * A linked device's keys (Baileys' AuthenticationState): `type` `creds` with id '' holds the credentials, the
 * others are its signal key store. Values are BufferJSON text encrypted with WHATSAPP_CREDENTIALS_KEY.
 */
export const whatsappAuthKeys = pgTable(
  'whatsapp_auth_keys',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => whatsappLinks.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    keyId: text('key_id').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.type, t.keyId] })],
);

/**
 * Which account a Cloud API phone number id belongs to: the first whose link Meta confirmed (`installation`: the
 * installation's token read it), or the last to prove it with an access token of its own (`access_token`). It
 * outlives the links, so a number one account unlinks is not there for the next account to take
 * (docs/whatsapp-connectors.md, "Who a number belongs to").
 */
export const whatsappNumberOwners = pgTable('whatsapp_number_owners', {
  phoneNumberId: text('phone_number_id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** installation or access_token: how the account showed the number is its own. */
  provenBy: text('proven_by').notNull(),
  boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The 24-hour window of a linked number with one WhatsApp user (docs/bots.md, "Writing first"): WhatsApp lets the
 * business send free-form messages only within 24 hours of the user's last message. `lastInboundAt` is that message's
 * time, written by the runtime with the session's records (the event sink; never a round trip on the hop's path).
 * `entryMenuId`: a template went out while the window was closed, so the user's next message starts the flow at this
 * menu; `entrySetAt` says when, and a message after it clears it.
 */
export const whatsappWindows = pgTable(
  'whatsapp_windows',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => whatsappLinks.id, { onDelete: 'cascade' }),
    /** The user's number in E.164 form (`+233241234567`). */
    msisdn: text('msisdn').notNull(),
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true, precision: 3 }),
    entryMenuId: text('entry_menu_id'),
    entrySetAt: timestamp('entry_set_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.msisdn] })],
);

/**
 * A conversation a business started (docs/bots.md, "Writing first"): written before anything is sent (`sending`),
 * so a database that cannot take it sends nothing, then `sent` or `failed` with the provider's words (131047...).
 * `kind` is `menu` (inside the window: the entry menu as it is) or `template` (outside it).
 */
export const whatsappFirstMessages = pgTable(
  'whatsapp_first_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => whatsappLinks.id, { onDelete: 'cascade' }),
    msisdn: text('msisdn').notNull(),
    entryMenuId: text('entry_menu_id').notNull(),
    kind: text('kind').notNull(),
    templateName: text('template_name'),
    templateLanguage: text('template_language'),
    /** sending, sent or failed. */
    status: text('status').notNull().default('sending'),
    /** Why it failed, in the provider's words. */
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('whatsapp_first_messages_app_idx').on(t.appId, t.createdAt)],
);
