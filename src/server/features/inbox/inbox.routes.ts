import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/inbox.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './inbox.service';
import type { Inbox } from './inbox.service';
import type { InboxStreams } from './inbox-stream';

/**
 * The inbox's calls (docs/inbox.md): the account's agents (its owner, for now: inbox.service.ts). Every account has
 * an inbox: bots hand conversations to it, and USSD apps their callers' callback requests.
 * Every call reads the signed-in account's own conversations only; another account's id answers 404.
 */
export function registerInboxRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, inbox: Inbox, streams: InboxStreams): void {
  const agents = { tags: ['inbox'], onRequest: guard() };

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
  registerCall(app, calls.readInboxConversation, {
    ...agents,
    summary: 'Marks a conversation read',
    handler: async (req) => ok('OK', await service.markConversationRead(ctx, getSignedInUser(req), req.params.conversationId)),
  });
  registerCall(app, calls.replyInboxConversation, {
    ...agents,
    summary: "An agent's reply to the customer, inside WhatsApp's 24-hour window",
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
      streams.stream(getSignedInUser(req).id, req, reply);
      return reply;
    },
  });
}
