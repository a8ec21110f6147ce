import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BOT_MESSAGES,
  botSchema,
  botStatusBodySchema,
  createBotBodySchema,
  linkedNumberSchema,
  linkNumberBodySchema,
  linkStatusSchema,
  updateBotBodySchema,
} from '../../../shared/api/bots.schema';
import { envelopeSchema, messageSchema, statusSchema } from '../../../shared/api/envelope';
import { WHATSAPP_CONNECTORS } from '../../../shared/whatsapp';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './bots.service';
import type { WhatsApp } from './whatsapp-connectors';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** The WhatsApp bots calls at the product's paths (docs/product.md, WhatsApp bots), for chatbot users and admins who build bots (`bot.build`). */
export function registerBotsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, whatsapp: WhatsApp): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['bots'];
  const botBuilders = guard('bot.build', 'chatbot');
  const { connector } = whatsapp;

  r.post('/api/chatbot/app/create', {
    schema: { tags, body: createBotBodySchema, response: { 200: envelopeSchema(botSchema) } },
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.created, await service.createBot(ctx, getSignedInUser(req), req.body)),
  });

  r.get('/api/chatbot/apps', {
    schema: { tags, response: { 200: envelopeSchema(z.array(botSchema)) } },
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.findBots(ctx, getSignedInUser(req))),
  });

  r.get('/api/chatbot/app/:id', {
    schema: { tags, params: idParams, response: { 200: envelopeSchema(botSchema) } },
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.getBot(ctx, getSignedInUser(req), req.params.id)),
  });

  r.delete('/api/chatbot/app/:id', {
    schema: { tags, params: idParams, response: { 200: messageSchema } },
    onRequest: botBuilders,
    handler: async (req) => {
      await service.deleteBot(ctx, getSignedInUser(req), req.params.id, connector);
      return { status: '00' as const, message: BOT_MESSAGES.deleted };
    },
  });

  // The product's path has no /api prefix (docs/product.md).
  r.post('/chatbot/app/update', {
    schema: { tags, body: updateBotBodySchema, response: { 200: envelopeSchema(botSchema) } },
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.updated, await service.updateBot(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/api/chatbot/app/:id/status', {
    schema: { tags, params: idParams, body: botStatusBodySchema, response: { 200: envelopeSchema(botSchema) } },
    onRequest: botBuilders,
    handler: async (req) => ok(BOT_MESSAGES.updated, await service.setBotStatus(ctx, getSignedInUser(req), req.params.id, req.body.status)),
  });

  r.get('/api/chatbot/whatsapp/connector', {
    schema: {
      tags,
      summary: 'Which connector links numbers here: the Add Number dialog asks for a phone number ID with the Cloud API',
      response: { 200: envelopeSchema(z.object({ connector: z.enum(WHATSAPP_CONNECTORS) })) },
    },
    onRequest: botBuilders,
    handler: async () => ok('OK', { connector: connector.name }),
  });

  r.post('/api/chatbot/whatsapp/link', {
    schema: {
      tags,
      body: linkNumberBodySchema,
      response: { 200: z.object({ status: statusSchema, message: z.string(), linkId: z.string(), data: linkedNumberSchema }) },
    },
    onRequest: botBuilders,
    handler: async (req) => {
      const linked = await service.linkNumber(ctx, getSignedInUser(req), req.body, connector);
      return { status: '00' as const, message: BOT_MESSAGES.linkStarted, linkId: linked.linkId, data: linked };
    },
  });

  r.get('/api/chatbot/whatsapp/unlink/:id', {
    schema: { tags, params: idParams, response: { 200: messageSchema } },
    onRequest: botBuilders,
    handler: async (req) => {
      await service.unlinkNumber(ctx, getSignedInUser(req), req.params.id, connector);
      return { status: '00' as const, message: BOT_MESSAGES.unlinked };
    },
  });

  r.get('/api/chatbot/whatsapp/list-numbers/:id', {
    schema: { tags, params: idParams, response: { 200: envelopeSchema(z.array(linkedNumberSchema)) } },
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.findLinkedNumbers(ctx, getSignedInUser(req), req.params.id)),
  });

  r.get('/api/chatbot/whatsapp/link-status/:id', {
    schema: {
      tags,
      params: idParams,
      response: { 200: linkStatusSchema.extend({ status: statusSchema, message: z.string(), data: linkStatusSchema }) },
    },
    onRequest: botBuilders,
    handler: async (req) => {
      const linkStatus = await service.getLinkStatus(ctx, getSignedInUser(req), req.params.id);
      return { status: '00' as const, message: 'OK', ...linkStatus, data: linkStatus };
    },
  });

  r.post('/api/admin/chatbot-access', {
    schema: {
      tags,
      summary: 'Lets an account build WhatsApp bots (the CHATBOT role), or stops it; recorded in the audit log',
      body: z.object({ email: z.string().trim().email().max(200), enabled: z.boolean() }),
      response: { 200: envelopeSchema(z.object({ email: z.string(), chatbotAccess: z.boolean() })) },
    },
    onRequest: guard('chatbotAccess.manage'),
    handler: async (req) => {
      const access = await service.setChatbotAccess(ctx, getSignedInUser(req), req.body.email, req.body.enabled);
      return ok(access.chatbotAccess ? 'The account can now build WhatsApp bots' : 'The account can no longer build WhatsApp bots', access);
    },
  });
}
