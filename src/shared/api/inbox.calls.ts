import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import { mediaRefSchema } from './media.schema';
import { z } from 'zod';
import {
  createInboxAgentBodySchema,
  inboxAgentParamsSchema,
  inboxAgentSchema,
  inboxAssignBodySchema,
  inboxConversationDetailSchema,
  inboxConversationPageSchema,
  inboxConversationParamsSchema,
  inboxConversationSchema,
  inboxListQuerySchema,
  inboxMessageSchema,
  inboxNoteBodySchema,
  inboxReplyBodySchema,
  inboxSavedReplyBodySchema,
  inboxSavedReplyParamsSchema,
  inboxSavedReplySchema,
} from './inbox.schema';

// The inbox's calls (docs/inbox.md). Keys below ['inbox']: the lists, and each conversation.

/** GET /api/inbox/conversations: the account's conversations, most recent message first, by filter, a page at a time. */
export const findInboxConversations = defineCall({
  method: 'GET',
  path: '/api/inbox/conversations',
  query: inboxListQuerySchema,
  reply: envelopeSchema(inboxConversationPageSchema),
  key: ['inbox', 'conversations'],
});

/** GET /api/inbox/conversations/{conversationId}: one conversation, its messages and the WhatsApp window. */
export const getInboxConversation = defineCall({
  method: 'GET',
  path: '/api/inbox/conversations/:conversationId',
  params: inboxConversationParamsSchema,
  reply: envelopeSchema(inboxConversationDetailSchema),
  key: ['inbox', 'conversations', ':conversationId'],
});

/** POST /api/inbox/conversations/{conversationId}/read: the agent has read it (its unread count goes to 0). */
export const readInboxConversation = defineCall({
  method: 'POST',
  path: '/api/inbox/conversations/:conversationId/read',
  params: inboxConversationParamsSchema,
  reply: envelopeSchema(inboxConversationSchema),
});

/** POST /api/inbox/conversations/{conversationId}/replies: a text inside WhatsApp's 24-hour window, or an approved template. */
export const replyInboxConversation = defineCall({
  method: 'POST',
  path: '/api/inbox/conversations/:conversationId/replies',
  params: inboxConversationParamsSchema,
  body: inboxReplyBodySchema,
  reply: envelopeSchema(inboxMessageSchema),
});

/** POST /api/inbox/conversations/{conversationId}/notes: a private note the agents see and the customer never does. */
export const addInboxNote = defineCall({
  method: 'POST',
  path: '/api/inbox/conversations/:conversationId/notes',
  params: inboxConversationParamsSchema,
  body: inboxNoteBodySchema,
  reply: envelopeSchema(inboxMessageSchema),
});

/** POST /api/inbox/conversations/{conversationId}/assign: to an agent of the account, or to nobody. */
export const assignInboxConversation = defineCall({
  method: 'POST',
  path: '/api/inbox/conversations/:conversationId/assign',
  params: inboxConversationParamsSchema,
  body: inboxAssignBodySchema,
  reply: envelopeSchema(inboxConversationSchema),
});

/** POST /api/inbox/conversations/{conversationId}/close: hands the customer back to the bot. */
export const closeInboxConversation = defineCall({
  method: 'POST',
  path: '/api/inbox/conversations/:conversationId/close',
  params: inboxConversationParamsSchema,
  reply: envelopeSchema(inboxConversationSchema),
});

/** GET /api/inbox/events: the account's inbox events as server-sent events (`data:` lines of InboxEvent JSON). */
export const streamInboxEvents = defineCall({
  method: 'GET',
  path: '/api/inbox/events',
  reply: z.string().meta({ description: 'text/event-stream: one `data:` line of InboxEvent JSON per event, `: ping` comments' }),
  file: true,
});

/**
 * GET /api/inbox/conversations/{conversationId}/media/{mediaId}: a file of one of the conversation's messages, with a
 * signed link to its bytes (agents read the customer's files here: the account's other files are not theirs).
 */
export const getInboxMedia = defineCall({
  method: 'GET',
  path: '/api/inbox/conversations/:conversationId/media/:mediaId',
  params: inboxConversationParamsSchema.extend({ mediaId: z.uuid('File not found') }),
  reply: envelopeSchema(mediaRefSchema),
  key: ['inbox', 'conversations', ':conversationId', 'media', ':mediaId'],
});

/** GET /api/inbox/agents: the account's agents, its owner first (whom a conversation may be assigned to). */
export const findInboxAgents = defineCall({
  method: 'GET',
  path: '/api/inbox/agents',
  reply: envelopeSchema(z.array(inboxAgentSchema)),
  key: ['inbox', 'agents'],
});

/** POST /api/inbox/agents: the account's owner adds an agent, who signs in with the password given here. */
export const createInboxAgent = defineCall({
  method: 'POST',
  path: '/api/inbox/agents',
  body: createInboxAgentBodySchema,
  reply: envelopeSchema(inboxAgentSchema),
});

/** DELETE /api/inbox/agents/{agentId}: the owner removes an agent; their sign-ins and open screens end at once. */
export const deleteInboxAgent = defineCall({
  method: 'DELETE',
  path: '/api/inbox/agents/:agentId',
  params: inboxAgentParamsSchema,
  reply: messageSchema,
});

/** GET /api/inbox/saved-replies: the account's saved replies, by title (its owner and agents read them). */
export const findInboxSavedReplies = defineCall({
  method: 'GET',
  path: '/api/inbox/saved-replies',
  reply: envelopeSchema(z.array(inboxSavedReplySchema)),
  key: ['inbox', 'saved-replies'],
});

/** POST /api/inbox/saved-replies: the account's owner adds a saved reply. */
export const createInboxSavedReply = defineCall({
  method: 'POST',
  path: '/api/inbox/saved-replies',
  body: inboxSavedReplyBodySchema,
  reply: envelopeSchema(inboxSavedReplySchema),
});

/** POST /api/inbox/saved-replies/{savedReplyId}: the account's owner changes a saved reply's title and text. */
export const updateInboxSavedReply = defineCall({
  method: 'POST',
  path: '/api/inbox/saved-replies/:savedReplyId',
  params: inboxSavedReplyParamsSchema,
  body: inboxSavedReplyBodySchema,
  reply: envelopeSchema(inboxSavedReplySchema),
});

/** DELETE /api/inbox/saved-replies/{savedReplyId}: the account's owner deletes a saved reply. */
export const deleteInboxSavedReply = defineCall({
  method: 'DELETE',
  path: '/api/inbox/saved-replies/:savedReplyId',
  params: inboxSavedReplyParamsSchema,
  reply: messageSchema,
});
