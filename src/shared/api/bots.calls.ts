import { z } from 'zod';
import { WHATSAPP_CONNECTORS } from '../whatsapp';
import {
  botSchema,
  botStatusBodySchema,
  createBotBodySchema,
  linkedNumberSchema,
  linkNumberBodySchema,
  linkStatusSchema,
  updateBotBodySchema,
} from './bots.schema';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema, statusSchema } from './envelope';

// The WhatsApp bots' console calls (src/shared/api/contract.ts): the server registers them, the console calls
// them. Their keys sit below ['bots']: the list and, below it, each bot and its linked numbers.

const idParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** GET /api/chatbot/apps: the signed-in account's bots, newest first. */
export const findBots = defineCall({
  method: 'GET',
  path: '/api/chatbot/apps',
  reply: envelopeSchema(z.array(botSchema)),
  key: ['bots'],
});

export const getBot = defineCall({
  method: 'GET',
  path: '/api/chatbot/app/:id',
  params: idParamsSchema,
  reply: envelopeSchema(botSchema),
  key: ['bots', ':id'],
});

export const createBot = defineCall({
  method: 'POST',
  path: '/api/chatbot/app/create',
  body: createBotBodySchema,
  reply: envelopeSchema(botSchema),
});

/** POST /chatbot/app/update: the bot data object, edits included (the product's path has no `/api` prefix). */
export const updateBot = defineCall({
  method: 'POST',
  path: '/chatbot/app/update',
  body: updateBotBodySchema,
  reply: envelopeSchema(botSchema),
});

export const setBotStatus = defineCall({
  method: 'POST',
  path: '/api/chatbot/app/:id/status',
  params: idParamsSchema,
  body: botStatusBodySchema,
  reply: envelopeSchema(botSchema),
});

export const deleteBot = defineCall({
  method: 'DELETE',
  path: '/api/chatbot/app/:id',
  params: idParamsSchema,
  reply: messageSchema,
});

/** GET /api/chatbot/whatsapp/connector: which connector links numbers here (the simulator, Baileys or the Cloud API). */
export const getWhatsAppConnector = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/connector',
  reply: envelopeSchema(z.object({ connector: z.enum(WHATSAPP_CONNECTORS) })),
  key: ['whatsapp', 'connector'],
});

/** POST /api/chatbot/whatsapp/link: starts linking; the top-level `linkId` is what the link status is asked with. */
export const linkNumber = defineCall({
  method: 'POST',
  path: '/api/chatbot/whatsapp/link',
  body: linkNumberBodySchema,
  reply: envelopeSchema(linkedNumberSchema).extend({ linkId: z.string() }),
});

/** GET /api/chatbot/whatsapp/unlink/{linkId}. */
export const unlinkNumber = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/unlink/:id',
  params: idParamsSchema,
  reply: messageSchema,
});

/** GET /api/chatbot/whatsapp/list-numbers/{appId}: the numbers linked (or being linked) to the bot. */
export const findLinkedNumbers = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/list-numbers/:id',
  params: idParamsSchema,
  reply: envelopeSchema(z.array(linkedNumberSchema)),
  key: ['bots', ':id', 'numbers'],
});

/** GET /api/chatbot/whatsapp/link-status/{linkId}: `linkStatus` and `qrCode` at the top level, and as `data`. */
export const getLinkStatus = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/link-status/:id',
  params: idParamsSchema,
  reply: linkStatusSchema.extend({ status: statusSchema, message: z.string(), data: linkStatusSchema }),
});

/** POST /api/admin/chatbot-access: lets an account build bots (the CHATBOT role), or stops it. */
export const setChatbotAccess = defineCall({
  method: 'POST',
  path: '/api/admin/chatbot-access',
  body: z.object({ email: z.string().trim().email().max(200), enabled: z.boolean() }),
  reply: envelopeSchema(z.object({ email: z.string(), chatbotAccess: z.boolean() })),
});
