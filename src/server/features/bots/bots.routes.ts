import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/bots.calls';
import { BOT_MESSAGES } from '../../../shared/api/bots.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './bots.service';
import * as conversations from './bot-conversations.service';
import { createLimit } from '../../core/rate-limits';
import type { WhatsApp } from './whatsapp-connectors';

/** The WhatsApp bots calls at the product's paths (docs/product.md, WhatsApp bots), for chatbot users and admins who build bots (`bot.build`). */
export function registerBotsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, whatsapp: WhatsApp): void {
  const tags = ['bots'];
  const botBuilders = guard('bot.build', 'chatbot');
  // Writing first (docs/bots.md): the bot's builders, and API keys (reading the window, or starting with a write key).
  const conversationReaders = { tags, onRequest: botBuilders, config: { apiKeyScope: 'read' as const } };
  const conversationStarters = { tags, onRequest: botBuilders, config: { apiKeyScope: 'write' as const } };
  // Each start sends a WhatsApp message: counted per account before anything is read, successful or not.
  const startLimit = createLimit(
    app,
    'conversation-start-account',
    ctx.config.CONVERSATION_START_RATE_LIMIT,
    (req) => getSignedInUser(req).id,
  );

  registerCall(app, calls.createBot, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.created, await service.createBot(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.findBots, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.findBots(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.getBot, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.getBot(ctx, getSignedInUser(req), req.params.id)),
  });

  registerCall(app, calls.deleteBot, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => {
      await service.deleteBot(ctx, getSignedInUser(req), req.params.id, whatsapp);
      return { status: '00' as const, message: BOT_MESSAGES.deleted };
    },
  });

  registerCall(app, calls.updateBot, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.updated, await service.updateBot(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.setBotStatus, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.updated, await service.setBotStatus(ctx, getSignedInUser(req), req.params.id, req.body.status)),
  });

  registerCall(app, calls.getWhatsAppConnector, {
    tags,
    summary: 'Which kinds of number link here (the Add Number dialog asks which when there are several), and Embedded Signup ids',
    onRequest: botBuilders,
    handler: async () => {
      const { WHATSAPP_CLOUD_APP_ID: appId, WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: configId } = ctx.config;
      const embeddedSignup = whatsapp.cloud && appId && configId ? { appId, configId } : null;
      return ok('OK', { connector: whatsapp.offered[0]!, connectors: whatsapp.offered, embeddedSignup });
    },
  });

  registerCall(app, calls.linkNumber, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => {
      // The wire's `chatBotAppId` is the bot's `appId` inside.
      const { chatBotAppId: appId, ...number } = req.body;
      const linked = await service.linkNumber(ctx, getSignedInUser(req), { appId, ...number }, whatsapp);
      return { status: '00' as const, message: BOT_MESSAGES.linkStarted, linkId: linked.linkId, data: linked };
    },
  });

  registerCall(app, calls.linkEmbeddedSignup, {
    tags,
    summary: "Embedded Signup's code, WhatsApp Business Account and number: exchanged, subscribed, registered and linked",
    onRequest: botBuilders,
    handler: async (req) => {
      const linked = await service.linkEmbeddedSignup(ctx, getSignedInUser(req), req.body, whatsapp);
      return { status: '00' as const, message: BOT_MESSAGES.linkStarted, linkId: linked.linkId, data: linked };
    },
  });

  registerCall(app, calls.unlinkNumber, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => {
      await service.unlinkNumber(ctx, getSignedInUser(req), req.params.id, whatsapp);
      return { status: '00' as const, message: BOT_MESSAGES.unlinked };
    },
  });

  registerCall(app, calls.findLinkedNumbers, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.findLinkedNumbers(ctx, getSignedInUser(req), req.params.id)),
  });

  registerCall(app, calls.getLinkStatus, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => {
      const linkStatus = await service.getLinkStatus(ctx, getSignedInUser(req), req.params.id);
      return { status: '00' as const, message: 'OK', ...linkStatus, data: linkStatus };
    },
  });

  registerCall(app, calls.getConversationWindow, {
    ...conversationReaders,
    summary: 'Whether writing first to a number needs a template: its 24-hour window with the linked number',
    handler: async (req) => ok('OK', await conversations.getConversationWindow(ctx, getSignedInUser(req), req.params.botId, req.query)),
  });

  registerCall(app, calls.startConversation, {
    ...conversationStarters,
    summary: 'The business writes first: the entry menu inside the 24-hour window, else an approved template',
    preHandler: startLimit,
    handler: async (req) => {
      const { message, started } = await conversations.startConversation(ctx, getSignedInUser(req), req.params.botId, req.body, whatsapp);
      return ok(message, started);
    },
  });

  registerCall(app, calls.setChatbotAccess, {
    tags,
    summary: 'Lets an account build WhatsApp bots (the CHATBOT role), or stops it; recorded in the audit log',
    onRequest: guard('chatbotAccess.manage'),
    handler: async (req) => {
      const access = await service.setChatbotAccess(ctx, getSignedInUser(req), req.body.email, req.body.enabled);
      return ok(access.chatbotAccess ? 'The account can now build WhatsApp bots' : 'The account can no longer build WhatsApp bots', access);
    },
  });
}
