import { bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /**
     * Meta's messaging limit for the number's business (`TIER_250`, `TIER_2K`, ..., `TIER_UNLIMITED`), as its last
     * `phone_number_quality_update` said; null before one came (campaigns then use CAMPAIGN_WHATSAPP_DAILY_LIMIT).
     */
    messagingLimit: text('messaging_limit'),
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
 * A Cloud API number's own credentials (docs/whatsapp-connectors.md, "A number's own credentials"): linked by
 * Embedded Signup or with a token pasted by hand. The access token (and the two-step verification pin set when the
 * number was registered) are sealed with WHATSAPP_CREDENTIALS_KEY, the link id as additional data. A link without a
 * row sends with the installation's token (WHATSAPP_CLOUD_ACCESS_TOKEN). Goes with its link.
 */
export const whatsappCloudCredentials = pgTable('whatsapp_cloud_credentials', {
  linkId: uuid('link_id')
    .primaryKey()
    .references(() => whatsappLinks.id, { onDelete: 'cascade' }),
  phoneNumberId: text('phone_number_id').notNull(),
  /** The WhatsApp Business Account that owns the number (templates are managed per account); null when not given. */
  wabaId: text('waba_id'),
  accessToken: text('access_token').notNull(),
  /** Embedded Signup: the 6-digit pin the number was registered with, sealed; null when pasted by hand. */
  registrationPin: text('registration_pin'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every message a bot sent on WhatsApp and what became of it (docs/whatsapp-connectors.md, "Delivery statuses").
 * Written by the event sink after the connector's send (never on the hop's path), then moved forward by the
 * statuses the connector reports: `sent` -> `delivered` -> `read`, or `failed` with its code and words. No
 * foreign keys, as the event tables: the console's chat simulator records under `console:<appId>`.
 */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The bot's account. */
    userId: text('user_id').notNull(),
    appId: text('app_id').notNull(),
    /** The link it went from (`whatsapp_links.id`), or `console:<appId>` for the console's chat simulator. */
    linkId: text('link_id').notNull(),
    environment: text('environment').notNull(),
    /** Whose chat simulator run it was (`user:<id>`); null for a linked number's traffic. */
    caller: text('caller'),
    /** The user it went to, digits. */
    toNumber: text('to_number').notNull(),
    /** The session it belongs to; '' when no session ran (an inactive bot, a picture). */
    sessionId: text('session_id').notNull().default(''),
    /** The provider's id: Cloud API `wamid...`, Baileys key id, the simulator's own. */
    providerMessageId: text('provider_message_id').notNull(),
    /** text, list or buttons. */
    kind: text('kind').notNull(),
    /** sent, delivered, read or failed (shared/whatsapp-status.ts). */
    status: text('status').notNull().default('sent'),
    failureCode: integer('failure_code'),
    failureReason: text('failure_reason').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
    failedAt: timestamp('failed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('whatsapp_messages_provider_uq').on(t.linkId, t.providerMessageId),
    index('whatsapp_messages_app_time_idx').on(t.appId, t.sentAt),
    index('whatsapp_messages_session_idx').on(t.appId, t.sessionId),
  ],
);

/**
 * A message template of a linked number (docs/whatsapp-templates.md): what the number may send first, outside the
 * 24-hour window. A Cloud API number's templates are Meta's (synced, submitted, their status moved by Meta's
 * webhook); a simulator or linked-device number's are ours alone, APPROVED when made. `userId` is the bot's
 * account, the one that may see and change it.
 */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => whatsappLinks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Meta's id of the template (Cloud API numbers); null for the simulator's and linked devices'. */
    providerId: text('provider_id'),
    name: text('name').notNull(),
    /** Meta's language code: en, en_US, fr... */
    language: text('language').notNull(),
    /** MARKETING, UTILITY or AUTHENTICATION. */
    category: text('category').notNull(),
    /** PENDING, APPROVED, REJECTED, PAUSED or DISABLED. */
    status: text('status').notNull(),
    /** Why Meta rejected, paused or disabled it, in its words ('' otherwise). */
    reason: text('reason').notNull().default(''),
    /** The components as Meta holds them (HEADER, BODY, FOOTER, BUTTONS). */
    components: jsonb('components').notNull(),
    /** The variables a send must fill: `[{ place: 'body', name: '1' }]`. */
    variables: jsonb('variables').notNull(),
    /** When it was last read from Meta (null: never synced, ours alone). */
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('whatsapp_templates_link_name_uq').on(t.linkId, t.name, t.language),
    index('whatsapp_templates_provider_idx').on(t.providerId),
  ],
);

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
    /**
     * A template's id at the provider once sent: its delivery status is the `whatsapp_messages` row of the same link
     * and id (null for an entry menu, a failed send, and sends made before it was kept).
     */
    providerMessageId: text('provider_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('whatsapp_first_messages_app_idx').on(t.appId, t.createdAt),
    index('whatsapp_first_messages_contact_idx').on(t.ownerId, t.msisdn, t.createdAt),
  ],
);
