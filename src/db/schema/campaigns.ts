import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { AudienceFilter, CampaignTemplate, SendWindow } from '../../shared/api/campaigns.schema';
import { users } from './accounts';

/**
 * An account's saved audiences (docs/campaigns.md): a named filter over its contacts, read afresh each time it is
 * counted or a campaign starts.
 */
export const audiences = pgTable(
  'audiences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filter: jsonb('filter').$type<AudienceFilter>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('audiences_owner_name_idx').on(t.ownerId, t.name)],
);

/**
 * A campaign (docs/campaigns.md): an audience, a message per channel, the channels' order, when and in which hours
 * it sends. `status`: draft, scheduled, running, paused, done or cancelled. The audience's filter is copied in when
 * it is scheduled, so a later change to the saved audience does not change a campaign under way.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').notNull().default('draft'),
    /** The saved audience chosen (null once it is deleted; the campaign keeps its copy in `filter`). */
    audienceId: uuid('audience_id').references(() => audiences.id, { onDelete: 'set null' }),
    filter: jsonb('filter').$type<AudienceFilter>().notNull(),
    /** `whatsapp_then_sms`, `whatsapp` or `sms`. */
    channels: text('channels').notNull(),
    /** The WhatsApp bot and number it writes from, the template, and the bot's menu a reply starts at. */
    botId: text('bot_id'),
    linkId: uuid('link_id'),
    template: jsonb('template').$type<CampaignTemplate>(),
    entryMenuId: text('entry_menu_id'),
    /** The USSD app whose dial string the SMS names and whose sessions count as dialled. */
    ussdAppId: text('ussd_app_id'),
    smsText: text('sms_text'),
    smsSender: text('sms_sender').notNull().default(''),
    startAt: timestamp('start_at', { withTimezone: true, precision: 3 }),
    /** The hours it sends in, in `timeZone` (`from` inclusive, `to` exclusive); null: at any hour. */
    sendWindow: jsonb('send_window').$type<SendWindow>(),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Why the campaign paused itself (a template no longer approved, a number no longer connected), else null. */
    pausedReason: text('paused_reason'),
    /** How many of the audience's contacts have become its messages so far (queued or skipped). */
    audienceSize: integer('audience_size'),
    /**
     * Loading the audience a batch at a time once started (docs/campaigns.md, "Sending"): the last number made a
     * message, and when the last batch was (null while loading).
     */
    loadedUntil: text('loaded_until'),
    loadedAt: timestamp('loaded_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('campaigns_owner_idx').on(t.ownerId, t.createdAt),
    // The dispatcher's scan: campaigns due to start or sending.
    index('campaigns_active_idx').on(t.status, t.startAt).where(sql`${t.status} in ('scheduled', 'running')`),
  ],
);

/**
 * One contact of a started campaign: the channel it goes by and how far it got. Written when the campaign starts
 * (one row per contact, skipped ones with their reason), claimed by the dispatcher with a lease, as SMS are.
 * `status`: queued, claimed (leased, not yet sent: a lease that ends puts it back), sending (handed to the provider:
 * a lease that ends marks it `unknown`, never sends it again), sent, failed, skipped or cancelled.
 */
export const campaignMessages = pgTable(
  'campaign_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull(),
    msisdn: text('msisdn').notNull(),
    /** `whatsapp` or `sms`; null when skipped. */
    channel: text('channel'),
    status: text('status').notNull(),
    /** Why it was skipped or failed, in words; a WhatsApp failure kept when it fell back to SMS. */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    /** When the dispatcher may take it (queued), or when its lease ends (claimed, sending). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    providerMessageId: text('provider_message_id'),
    smsMessageId: uuid('sms_message_id'),
    /** Set when its WhatsApp message failed and it went by SMS instead (the failure kept in `reason`). */
    fellBackAt: timestamp('fell_back_at', { withTimezone: true, precision: 3 }),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_messages_contact_idx').on(t.campaignId, t.msisdn),
    // The claim: a campaign's queued rows by due time.
    index('campaign_messages_due_idx').on(t.campaignId, t.nextAttemptAt).where(sql`${t.status} = 'queued'`),
    // Leases that ended: claimed or sending rows past their time.
    index('campaign_messages_leased_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('claimed', 'sending')`),
    // One message at a time to the same person: an account's rows in flight, by number.
    index('campaign_messages_in_flight_idx').on(t.ownerId, t.msisdn).where(sql`${t.status} in ('claimed', 'sending')`),
    // Erasure of one number's rows.
    index('campaign_messages_msisdn_idx').on(t.ownerId, t.msisdn),
    // The SMS dispatcher's sends told to the campaigns they belong to (their live screens).
    index('campaign_messages_sms_idx').on(t.smsMessageId).where(sql`${t.smsMessageId} is not null`),
  ],
);

/**
 * The pace of a sender shared by every process (docs/campaigns.md, "Limits"): a WhatsApp number's messages a second
 * and a day, an SMS provider's a second. `next_at` is when the next message may go (a leaky bucket): a claim takes
 * what fits before now and moves it on.
 */
export const campaignPacing = pgTable('campaign_pacing', {
  key: text('key').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }).notNull(),
  /** The rolling day's count for a daily limit: the day's start and how many went since. */
  dayStart: timestamp('day_start', { withTimezone: true, precision: 3 }),
  dayCount: integer('day_count').notNull().default(0),
});
