import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { apps } from './apps';
import { whatsappLinks } from './whatsapp';

/**
 * A WhatsApp conversation handed to a person (docs/inbox.md): opened by a handoff (a rule's, or a handoff word),
 * closed by an agent, which hands the contact back to the bot. One open conversation per bot and contact.
 */
export const inboxConversations = pgTable(
  'inbox_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account (the bot's owner). */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /** The linked number the contact wrote to: replies go from it. Null once the link is removed. */
    linkId: uuid('link_id').references(() => whatsappLinks.id, { onDelete: 'set null' }),
    /** The contact's number, E.164. */
    msisdn: text('msisdn').notNull(),
    channel: text('channel').notNull().default('whatsapp'),
    /** open or closed (shared/inbox.ts INBOX_STATUSES). */
    status: text('status').notNull().default('open'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** Why the bot handed over: the rule's reason, or `keyword: <word>`. */
    reason: text('reason').notNull().default(''),
    /** The session's inputs when it was handed over. */
    inputs: jsonb('inputs').$type<Record<string, string>>().notNull().default({}),
    unreadCount: integer('unread_count').notNull().default(0),
    /** The customer's last message: WhatsApp's 24-hour window runs from it. */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('inbox_conversations_open_uq').on(t.appId, t.msisdn).where(sql`${t.status} = 'open'`),
    index('inbox_conversations_owner_idx').on(t.ownerId, t.status, t.lastMessageAt, t.id),
    index('inbox_conversations_contact_idx').on(t.ownerId, t.msisdn),
    // The dashboard's figures: an app's conversations opened, and closed, in a period.
    index('inbox_conversations_app_created_idx').on(t.appId, t.createdAt),
    index('inbox_conversations_app_closed_idx').on(t.appId, t.closedAt),
  ],
);

/** One message of an inbox conversation, in the order written (`seq`). */
export const inboxMessages = pgTable(
  'inbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order of the conversation's messages, as they were written. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => inboxConversations.id, { onDelete: 'cascade' }),
    /** in (from the customer) or out (to the customer; a note is out and never sent). */
    direction: text('direction').notNull(),
    /** customer, bot, agent, note or event (an assignment, a closing: shared/inbox.ts INBOX_AUTHORS). */
    author: text('author').notNull(),
    /** The agent who wrote it (agent, note and event). */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** That agent's name as it was: the line keeps it once the agent is removed. */
    authorName: text('author_name').notNull().default(''),
    text: text('text').notNull().default(''),
    mediaId: uuid('media_id'),
    /** The provider's id of a sent message, for its ticks (whatsapp_messages). */
    providerMessageId: text('provider_message_id'),
    /** The agent's client's id of a reply: the same reply sent twice (a retry) is sent once. */
    clientMessageId: text('client_message_id'),
    /** An agent's reply sent as a WhatsApp template: its name and language (`text` is what the customer saw). */
    templateName: text('template_name'),
    templateLanguage: text('template_language'),
    /** sent, failed (an agent's reply the provider refused) or '' (not sent: in, note). */
    sendStatus: text('send_status').notNull().default(''),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('inbox_messages_conversation_idx').on(t.conversationId, t.seq),
    uniqueIndex('inbox_messages_client_uq').on(t.conversationId, t.clientMessageId),
  ],
);

/**
 * An account's saved replies (docs/inbox.md, "Saved replies"): short answers its agents put into the reply box. The
 * owner writes them; the agents read them. At most INBOX_SAVED_REPLIES_PER_ACCOUNT per account.
 */
export const inboxSavedReplies = pgTable(
  'inbox_saved_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account. */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inbox_saved_replies_owner_idx').on(t.ownerId, t.title)],
);
