import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/inbox.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getAccountId } from '../../core/auth-user';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './inbox.service';
import type { Inbox } from './inbox.service';
import * as team from './inbox-agents.service';
import * as savedReplies from './inbox-saved-replies.service';
import type { InboxEvents } from './inbox-events';
import type { InboxStreams } from './inbox-stream';

/**
 * The inbox's calls (docs/inbox.md): the account's agents, that is its owner and the agents the owner added (the `agent` audience: the only routes an agent may call besides their own profile). Every call reads
 * the account's own conversations only; another account's id answers 404. Every account has an inbox: bots hand
 * conversations to it, and USSD apps their callers' callback requests. Adding and removing agents, and writing the
 * saved replies, is the owner's alone.
 */
export function registerInboxRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  guard: Guard,
  inbox: Inbox,
  live: { events: InboxEvents; streams: InboxStreams },
): void {
  const agents = { tags: ['inbox'], onRequest: guard('everyone', 'agent') };
  const owners = { tags: ['inbox'], onRequest: guard() };

  registerCall(app, calls.findInboxConversations, {
    ...agents,
    summary: "The account's inbox conversations, most recent message first",
    handler: async (req) => ok('OK', await service.findConversations(ctx, getSignedInUser(req), req.query)),
  });
  registerCall(app, calls.getInboxConversation, {
    ...agents,
    summary: 'One conversation, its messages and the WhatsApp window',
    handler: async (req) => ok('OK', await service.getConversationDetail(ctx, getSignedInUser(req), req.params.conversationId)),
  });
  registerCall(app, calls.getInboxMedia, {
    ...agents,
    summary: "A file of one of the conversation's messages, with a signed link",
    handler: async (req) =>
      ok('OK', await service.getConversationMedia(ctx, getSignedInUser(req), req.params.conversationId, req.params.mediaId)),
  });
  registerCall(app, calls.readInboxConversation, {
    ...agents,
    summary: 'Marks a conversation read',
    handler: async (req) => ok('OK', await service.markConversationRead(ctx, getSignedInUser(req), req.params.conversationId)),
  });
  registerCall(app, calls.replyInboxConversation, {
    ...agents,
    summary: "An agent's reply to the customer: a text inside WhatsApp's 24-hour window, or an approved template",
    handler: async (req) => ok('Sent', await inbox.reply(getSignedInUser(req), req.params.conversationId, req.body)),
  });
  registerCall(app, calls.addInboxNote, {
    ...agents,
    summary: 'A private note on a conversation',
    handler: async (req) => ok('Noted', await inbox.addNote(getSignedInUser(req), req.params.conversationId, req.body)),
  });
  registerCall(app, calls.assignInboxConversation, {
    ...agents,
    summary: 'Assigns a conversation to an agent of the account, or to nobody',
    handler: async (req) => ok('Assigned', await inbox.assign(getSignedInUser(req), req.params.conversationId, req.body)),
  });
  registerCall(app, calls.closeInboxConversation, {
    ...agents,
    summary: 'Closes a conversation: the customer is handed back to the bot',
    handler: async (req) => ok('Closed', await inbox.close(getSignedInUser(req), req.params.conversationId)),
  });
  registerCall(app, calls.streamInboxEvents, {
    ...agents,
    summary: "The account's inbox events, live (server-sent events)",
    handler: async (req, reply) => {
      const user = getSignedInUser(req);
      live.streams.stream(getAccountId(user), user.id, req, reply);
      return reply;
    },
  });
  registerCall(app, calls.findInboxAgents, {
    ...agents,
    summary: "The account's agents, its owner first",
    handler: async (req) => ok('OK', await team.findAgents(ctx, getSignedInUser(req))),
  });
  registerCall(app, calls.findInboxSavedReplies, {
    ...agents,
    summary: "The account's saved replies, by title",
    handler: async (req) => ok('OK', await savedReplies.findSavedReplies(ctx, getSignedInUser(req))),
  });
  registerCall(app, calls.createInboxSavedReply, {
    ...owners,
    summary: 'Adds a saved reply the agents may put into the reply box',
    handler: async (req) => ok('Saved reply added', await savedReplies.createSavedReply(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.updateInboxSavedReply, {
    ...owners,
    summary: "Changes a saved reply's title and text",
    handler: async (req) =>
      ok('Saved reply changed', await savedReplies.updateSavedReply(ctx, getSignedInUser(req), req.params.savedReplyId, req.body)),
  });
  registerCall(app, calls.deleteInboxSavedReply, {
    ...owners,
    summary: 'Deletes a saved reply',
    handler: async (req) => {
      await savedReplies.deleteSavedReply(ctx, getSignedInUser(req), req.params.savedReplyId);
      return done('Saved reply deleted');
    },
  });
  registerCall(app, calls.createInboxAgent, {
    ...owners,
    summary: 'Adds an agent to the account: a user who signs in and sees its inbox only',
    handler: async (req) => ok('Agent added', await team.createAgent(ctx, getSignedInUser(req), req.body)),
  });
  registerCall(app, calls.deleteInboxAgent, {
    ...owners,
    summary: 'Removes an agent: their open conversations go back to nobody, their sign-ins end',
    handler: async (req) => {
      await team.deleteAgent(ctx, getSignedInUser(req), req.params.agentId, live);
      return done('Agent removed');
    },
  });
}
