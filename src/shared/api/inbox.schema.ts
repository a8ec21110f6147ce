import { z } from 'zod';
import { INBOX_AUTHORS, INBOX_CHANNELS, INBOX_STATUSES } from '../inbox';
import { registerBodySchema } from './auth.schema';
import { templateChoiceSchema, windowStateSchema } from './bot-conversations.schema';
import { whatsappTemplateSchema } from './whatsapp-templates.schema';

/**
 * The inbox (docs/inbox.md): WhatsApp conversations a bot handed to a person, for the account's agents.
 * - `GET  /api/inbox/conversations?filter=&limit=&cursor=` -> `data`: InboxConversationPage
 * - `GET  /api/inbox/conversations/{conversationId}` -> `data`: InboxConversationDetail
 * - `POST /api/inbox/conversations/{conversationId}/read` -> `data`: InboxConversation (unread count 0)
 * - `POST /api/inbox/conversations/{conversationId}/replies` body {@link inboxReplyBodySchema} -> `data`: InboxMessage
 * - `POST /api/inbox/conversations/{conversationId}/notes` body {@link inboxNoteBodySchema} -> `data`: InboxMessage
 * - `POST /api/inbox/conversations/{conversationId}/assign` body {@link inboxAssignBodySchema} -> `data`: InboxConversation
 * - `POST /api/inbox/conversations/{conversationId}/close` -> `data`: InboxConversation
 * - `GET  /api/inbox/events`: server-sent events, each `data:` an {@link InboxEvent}
 * - `GET  /api/inbox/agents` -> `data`: InboxAgent[] (whom a conversation may be assigned to)
 * - `POST /api/inbox/agents` body {@link createInboxAgentBodySchema} -> `data`: InboxAgent (the account's owner only)
 * - `DELETE /api/inbox/agents/{agentId}` (the account's owner only): the agent's sign-ins end at once
 * - `GET  /api/inbox/saved-replies` -> `data`: InboxSavedReply[] (the account's, by title)
 * - `POST /api/inbox/saved-replies` body {@link inboxSavedReplyBodySchema} -> `data`: InboxSavedReply (the owner only)
 * - `POST /api/inbox/saved-replies/{savedReplyId}` body {@link inboxSavedReplyBodySchema} -> `data`: InboxSavedReply (the owner only)
 * - `DELETE /api/inbox/saved-replies/{savedReplyId}` (the owner only)
 */

/** Which conversations a list shows: open ones, the open ones assigned to me, the open ones nobody has, or closed ones. */
export const INBOX_FILTERS = ['open', 'mine', 'unassigned', 'closed'] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const inboxConversationParamsSchema = z.object({ conversationId: z.uuid('Conversation not found') });

export const inboxListQuerySchema = z.object({
  filter: z.enum(INBOX_FILTERS).default('open'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** The page after the one that gave this `nextCursor` (most recent message first). */
  cursor: z.string().max(200).optional(),
});
export type InboxListQuery = z.infer<typeof inboxListQuerySchema>;

export const inboxConversationSchema = z.object({
  conversationId: z.string(),
  appId: z.string(),
  appName: z.string(),
  /** The linked number the customer wrote to (null once it was unlinked: no reply can go). */
  linkId: z.string().nullable(),
  /** The customer's number, E.164. */
  msisdn: z.string(),
  /** whatsapp: a chat handed over; ussd: a caller's callback request (no reply: the agent calls, then closes). */
  channel: z.enum(INBOX_CHANNELS),
  status: z.enum(INBOX_STATUSES),
  assigneeId: z.string().nullable(),
  /** Why the bot handed over: the rule's reason, or `keyword: <word>`. */
  reason: z.string(),
  /** The bot session's inputs at the handoff. */
  inputs: z.record(z.string(), z.string()),
  unreadCount: z.number(),
  lastMessageAt: z.string(),
  lastInboundAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  /** The list's (GET /api/inbox/conversations) only: the contact's saved name, null when none. */
  contactName: z.string().nullable().optional(),
  /** The list's only: the latest message or note, its text cut to 140 characters; null before any. */
  lastMessage: z
    .object({ author: z.enum(INBOX_AUTHORS), text: z.string(), hasMedia: z.boolean() })
    .nullable()
    .optional(),
});
export type InboxConversation = z.infer<typeof inboxConversationSchema>;

export const inboxConversationPageSchema = z.object({
  conversations: z.array(inboxConversationSchema),
  /** Give it as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type InboxConversationPage = z.infer<typeof inboxConversationPageSchema>;

export const inboxMessageSchema = z.object({
  messageId: z.string(),
  conversationId: z.string(),
  direction: z.enum(['in', 'out']),
  author: z.enum(INBOX_AUTHORS),
  /** The agent who wrote a reply, a note or an event line (null once that agent was removed). */
  authorId: z.string().nullable(),
  /** That agent's name as it was when written ('' for the customer's and the bot's). */
  authorName: z.string(),
  text: z.string(),
  mediaId: z.string().nullable(),
  /** An agent's reply sent as a WhatsApp template (its `text` is the filled template the customer saw); null otherwise. */
  template: z.object({ name: z.string(), language: z.string() }).nullable(),
  /** An agent's reply: sent (the provider took it) or failed (with `error`); '' for the others. */
  sendStatus: z.enum(['sent', 'failed', '']),
  error: z.string(),
  /** A sent message's ticks (docs/whatsapp-connectors.md, "Delivery statuses"), null when unknown or not sent. */
  deliveryStatus: z.enum(['sent', 'delivered', 'read', 'failed']).nullable(),
  createdAt: z.string(),
});
export type InboxMessage = z.infer<typeof inboxMessageSchema>;

/** The customer as the account's contacts know them (by number): what the conversation shows of the contact. */
export const inboxContactSchema = z.object({
  contactId: z.string(),
  name: z.string().nullable(),
  language: z.string().nullable(),
  attributes: z.record(z.string(), z.string()),
});
export type InboxContact = z.infer<typeof inboxContactSchema>;

export const inboxConversationDetailSchema = z.object({
  conversation: inboxConversationSchema,
  /** The account's contact with the customer's number, null when it has none (agents read it here, not on Contacts). */
  contact: inboxContactSchema.nullable(),
  /** The conversation's messages in order: the latest 200 (older ones are not shown yet). */
  messages: z.array(inboxMessageSchema),
  /** WhatsApp's 24-hour window with the customer: a written reply needs it open; a template goes at any time. */
  window: windowStateSchema,
  /** The APPROVED templates of the conversation's linked number, which an agent may send (none without a number). */
  templates: z.array(whatsappTemplateSchema),
});
export type InboxConversationDetail = z.infer<typeof inboxConversationDetailSchema>;

const messageText = z
  .string({ error: 'Write a message' })
  .trim()
  .min(1, 'Write a message')
  .max(4096, 'A WhatsApp message is at most 4,096 characters');

/** WhatsApp's longest caption on a file. */
export const INBOX_CAPTION_MAX = 1024;

/**
 * A reply: a text (inside WhatsApp's 24-hour window), a file the agent uploaded first (POST /api/media, the
 * account's) with an optional caption (`text`, at most 1,024 characters), or an approved template (at any time),
 * never a template with a text or a file.
 */
export const inboxReplyBodySchema = z
  .object({
    text: z.string({ error: 'Write a message' }).trim().max(4096, 'A WhatsApp message is at most 4,096 characters').default(''),
    /** A file of the account's (docs/media.md), sent with `text` as its caption. */
    mediaId: z.uuid('File not found').optional(),
    /** An approved template of the conversation's linked number, with its variables (`{{contact.name}}` works too). */
    template: templateChoiceSchema.optional(),
    /** The console's own id for this reply: sent again (a retry), it is sent once and answered with the same message. */
    clientMessageId: z.string().trim().min(1).max(64).optional(),
  })
  .superRefine((body, check) => {
    if (body.template) {
      if (body.text || body.mediaId)
        check.addIssue({ code: 'custom', path: ['text'], message: 'Write a message or choose a template, not both' });
      return;
    }
    if (!body.mediaId && !body.text) check.addIssue({ code: 'custom', path: ['text'], message: 'Write a message' });
    if (body.mediaId && body.text.length > INBOX_CAPTION_MAX)
      check.addIssue({ code: 'custom', path: ['text'], message: 'A caption on a file is at most 1,024 characters' });
  });
export type InboxReplyBody = z.infer<typeof inboxReplyBodySchema>;

export const inboxNoteBodySchema = z.object({ text: messageText });
export type InboxNoteBody = z.infer<typeof inboxNoteBodySchema>;

export const inboxAssignBodySchema = z.object({
  /** The agent (a user of the account) to assign to; null leaves it unassigned. */
  assigneeId: z.uuid('Choose an agent of this account').nullable(),
});
export type InboxAssignBody = z.infer<typeof inboxAssignBodySchema>;

/** One of the account's agents: its owner, or an agent the owner added (docs/inbox.md, "Agents"). */
export const inboxAgentSchema = z.object({
  userId: z.string(),
  fullName: z.string(),
  email: z.string(),
  /** The account's owner (listed first). */
  isOwner: z.boolean(),
});
export type InboxAgent = z.infer<typeof inboxAgentSchema>;

/** A new agent: a name, an email no account has, and a first password the owner gives them (they change it). */
export const createInboxAgentBodySchema = registerBodySchema.pick({ fullName: true, email: true, password: true });
export type CreateInboxAgentBody = z.infer<typeof createInboxAgentBodySchema>;

export const inboxAgentParamsSchema = z.object({ agentId: z.uuid('Agent not found') });

export const SAVED_REPLY_LIMITS = { title: 60, text: 1000 } as const;

/** One of the account's saved replies: a short answer agents put into the reply box and may edit before sending. */
export const inboxSavedReplySchema = z.object({
  savedReplyId: z.string(),
  title: z.string(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InboxSavedReply = z.infer<typeof inboxSavedReplySchema>;

export const inboxSavedReplyBodySchema = z.object({
  title: z
    .string({ error: 'Give the saved reply a title' })
    .trim()
    .min(1, 'Give the saved reply a title')
    .max(SAVED_REPLY_LIMITS.title, `A title is at most ${SAVED_REPLY_LIMITS.title} characters`),
  text: z
    .string({ error: 'Write the saved reply' })
    .trim()
    .min(1, 'Write the saved reply')
    .max(SAVED_REPLY_LIMITS.text, `A saved reply is at most ${SAVED_REPLY_LIMITS.text.toLocaleString('en')} characters`),
});
export type InboxSavedReplyBody = z.infer<typeof inboxSavedReplyBodySchema>;

export const inboxSavedReplyParamsSchema = z.object({ savedReplyId: z.uuid('Saved reply not found') });

/** What the events stream tells the account's agents, one event a `data:` line (snake_case, past tense). */
export const inboxEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('conversation_opened'), conversation: inboxConversationSchema }),
  z.object({ type: z.literal('message_added'), conversationId: z.string(), message: inboxMessageSchema }),
  z.object({ type: z.literal('conversation_assigned'), conversationId: z.string(), assigneeId: z.string().nullable() }),
  z.object({ type: z.literal('conversation_closed'), conversationId: z.string() }),
  // Between the server's processes only: a removed agent's streams end in every process (never sent to a screen).
  z.object({ type: z.literal('agent_removed'), userId: z.string() }),
]);
export type InboxEvent = z.infer<typeof inboxEventSchema>;

export const INBOX_MESSAGES = {
  notFound: 'Conversation not found',
  closed: 'This conversation is closed: the customer is talking to the bot again.',
  noLink: 'The number this customer wrote to is no longer linked: no reply can go.',
  callbackNoReply: 'This is a callback request from a USSD caller: call the number, then mark it done.',
  linkNotConnected: 'The number this customer wrote to is not CONNECTED: link it again before replying.',
  notAnAgent: 'Choose an agent of this account.',
  agentNotFound: 'Agent not found',
  tooManyAgents: 'This account has as many agents as it may have: remove one before adding another.',
  tooManyStreams: 'Too many inbox screens are open for this account: close one and try again.',
  busy: 'The inbox is busy: please try again in a moment.',
  savedReplyNotFound: 'Saved reply not found',
  tooManySavedReplies: 'This account has as many saved replies as it may have: delete one before adding another.',
} as const;
