import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ConsentKeywords } from '../../shared/contact-consent';
import type { SubflowInterface } from '../../shared/app/subflow.schema';
import type { GatewayConnection } from '../../shared/gateway-profiles';
import type { HandoffKeywords } from '../../shared/inbox';
import type { OfficeHours } from '../../shared/office-hours';
import { users } from './accounts';

export const apps = pgTable(
  'apps',
  {
    /** Random 128-bit value, hex: it is part of the unguessable gateway URLs. */
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appName: text('app_name').notNull(),
    description: text('description').notNull().default(''),
    country: text('country').notNull(),
    useTemplateTag: boolean('use_template_tag').notNull().default(false),
    shortCode: text('short_code').notNull(),
    connectionMode: text('connection_mode').notNull(),
    baseShortCode: text('base_short_code').notNull().default(''),
    customShortCode: text('custom_short_code').notNull().default(''),
    screenLimit: integer('screen_limit').notNull().default(160),
    /** Resume on redial (docs/runtime.md): a dialler whose session dropped may continue it within the window. */
    resumeOnRedial: boolean('resume_on_redial').notNull().default(false),
    resumeWindowMinutes: integer('resume_window_minutes').notNull().default(5),
    /**
     * The gateways the app is connected to, each with the narrower screen limit or response budget its contract sets
     * (shared/gateway-profiles.ts GatewayConnection); the designer and the lint hold the app to the strictest.
     */
    gatewayConnections: jsonb('gateway_connections').$type<GatewayConnection[]>().notNull().default([]),
    /** The app's languages (shared/app/languages.ts AppLanguages), null for an app in one language (docs/languages.md). */
    languages: jsonb('languages'),
    /**
     * A bot's own consent words and answers per language (shared/contact-consent.ts ConsentKeywords), null for
     * STOP and START only with the default answers (docs/contacts.md, "Consent").
     */
    consentKeywords: jsonb('consent_keywords').$type<ConsentKeywords>(),
    /** A bot's handoff words and answers per language (shared/inbox.ts HandoffKeywords), null for none (docs/inbox.md). */
    handoffKeywords: jsonb('handoff_keywords').$type<HandoffKeywords>(),
    /** When the app's agents answer handoffs (shared/office-hours.ts OfficeHours), null for always (docs/inbox.md). */
    officeHours: jsonb('office_hours').$type<OfficeHours>(),
    /** Featured templates are apps too: runnable in the emulator and cloneable by anyone. */
    isTemplate: boolean('is_template').notNull().default(false),
    flagIcon: text('flag_icon').notNull().default(''),
    /**
     * The app's gateway key (docs/runtime.md, "Gateway keys"), null while off: when set, the test and
     * production URLs are served only to a request that presents it (in the URL or an `X-Dialflow-Key` header).
     */
    gatewayKey: text('gateway_key'),
    /**
     * `ussd`, or `whatsapp` for a bot: same menus, engine and versions, another channel (docs/bots.md). `subflow` for a
     * sub-flow (docs/sub-flows.md): menus and versions too, never served by a gateway, entered by the apps' rules.
     */
    channel: text('channel').notNull().default('ussd'),
    /** A sub-flow's declared inputs and outputs (shared/app/subflow.schema.ts SubflowInterface), null for an app or bot. */
    subflowInterface: jsonb('subflow_interface').$type<SubflowInterface>(),
    /** A bot's `active` or `inactive` (an inactive bot answers with a polite sentence and runs nothing). */
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('apps_user_idx').on(t.userId, t.channel),
    /**
     * One app per dial string in an account (docs/shortcodes.md, "An app's dial string"): two creations, clones or
     * imports racing for one dial string cannot both win. Templates, bots and an app without one are left out.
     */
    uniqueIndex('apps_owner_short_code_uq')
      .on(t.userId, t.shortCode)
      .where(sql`${t.channel} = 'ussd' and ${t.isTemplate} = false and ${t.shortCode} <> ''`),
  ],
);

/** The draft: menus as the designer edits them, in order. */
export const menus = pgTable(
  'menus',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    isFirst: boolean('is_first').notNull().default(false),
    userDefinedName: text('user_defined_name').notNull(),
    displayText: text('display_text').notNull(),
    headerText: text('header_text').notNull().default(''),
    footerText: text('footer_text').notNull().default(''),
    inputHolder: text('input_holder').notNull().default(''),
    /** The contact field the menu's input is saved to (`name`, `language` or an attribute key), null: none. */
    saveToContact: text('save_to_contact'),
    allowGoBack: boolean('allow_go_back').notNull().default(false),
    goBackInputIndicator: text('go_back_input_indicator').notNull().default(''),
    terminate: boolean('terminate').notNull().default(false),
    parentMenuId: text('parent_menu_id'),
    switchOperations: jsonb('switch_operations').notNull().default([]),
    actions: jsonb('actions').notNull().default([]),
    inputValidations: jsonb('input_validations').notNull().default([]),
    /** The flow map's saved box position `{ x, y, direction }`, or null where the map lays the menu out itself. */
    mapPosition: jsonb('map_position'),
    /** The menu's texts per other language of the app (MenuTranslation by language code), null when none. */
    translations: jsonb('translations'),
    /**
     * A bot's media (docs/bots.md, "Media"): `{ inputKind, mediaInput, attachments, linkButton, requestLocation }`,
     * each only when set (MenuMedia); null for a text menu that sends its text alone.
     */
    media: jsonb('media'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('menus_app_identifier_uq').on(t.appId, t.userDefinedName), index('menus_app_position_idx').on(t.appId, t.position)],
);

/** Immutable numbered deploys; the live URL serves the highest number. A rollback deploys an old one anew. */
export const appVersions = pgTable(
  'app_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The AppVersion the engine runs (shared/app/app-version.schema.ts). */
    definition: jsonb('definition').notNull(),
    warnings: jsonb('warnings').notNull().default([]),
    rolledBackFrom: integer('rolled_back_from'),
    /** Who deployed (or rolled back to) it; null for a deleted user. The deployer: no second column names them. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The builder's name for the version ("Easter promo", at most 80 characters), null when none was given. */
    name: text('name'),
    /** The builder's note on what the version changes or why (at most 1000 characters), null when none was given. */
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('app_versions_app_number_uq').on(t.appId, t.number)],
);
