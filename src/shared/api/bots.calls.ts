import { z } from 'zod';
import {
  botSchema,
  botStatusBodySchema,
  chatReceiptBodySchema,
  chatReplySchema,
  chatSimulatorBodySchema,
  createBotBodySchema,
  embeddedSignupBodySchema,
  customerQuerySchema,
  linkedNumberSchema,
  linkNumberBodySchema,
  linkStatusSchema,
  messageIdsQuerySchema,
  messageStatusSchema,
  simulatedMessageBodySchema,
  simulatedPhoneSchema,
  simulatedReceiptBodySchema,
  simulatedScanBodySchema,
  transcriptEntrySchema,
  updateBotBodySchema,
  whatsAppConnectorsSchema,
  whatsappMessageSchema,
} from './bots.schema';
import {
  botIdParamsSchema,
  conversationWindowQuerySchema,
  conversationWindowSchema,
  startConversationBodySchema,
  startedConversationSchema,
} from './bot-conversations.schema';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema, messageSchema, statusSchema } from './envelope';

// The WhatsApp bots' calls (src/shared/api/contract.ts): the server registers them, the console calls them. Their
// keys sit below ['bots']: the list and, below it, each bot and its linked numbers; the simulated phone's below
// ['simulated-phone', linkId]: its link and, below it, each customer's chat.

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

/** GET /api/chatbot/whatsapp/connector: which kinds of number link here (the simulator, Baileys, the Cloud API), and Embedded Signup's ids. */
export const getWhatsAppConnector = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/connector',
  reply: envelopeSchema(whatsAppConnectorsSchema),
  key: ['whatsapp', 'connector'],
});

/** POST /api/chatbot/whatsapp/embedded-signup: links the number Embedded Signup gave, with the business token its code stands for. */
export const linkEmbeddedSignup = defineCall({
  method: 'POST',
  path: '/api/chatbot/whatsapp/embedded-signup',
  body: embeddedSignupBodySchema,
  reply: envelopeSchema(linkedNumberSchema).extend({ linkId: z.string() }),
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

/**
 * POST /whatsapp-emulator/{appId}: the console's chat simulator, one message to the bot's draft. It answers the
 * bot's reply itself, not the envelope (a refusal is the envelope with a 4xx).
 */
export const sendChatSimulatorMessage = defineCall({
  method: 'POST',
  path: '/whatsapp-emulator/:appId',
  params: appIdParamsSchema,
  body: chatSimulatorBodySchema,
  reply: chatReplySchema,
  bare: true,
});

/**
 * GET /whatsapp-emulator/{appId}/statuses?ids=: the delivery statuses of the chat simulator's messages (its ticks,
 * polled while any is not read or failed). Ids the caller's runs never sent are left out.
 */
export const findChatSimulatorStatuses = defineCall({
  method: 'GET',
  path: '/whatsapp-emulator/:appId/statuses',
  params: appIdParamsSchema,
  query: messageIdsQuerySchema,
  reply: envelopeSchema(z.object({ statuses: z.array(messageStatusSchema) })),
  key: ['bots', ':appId', 'chat-statuses', ':ids'],
});

/**
 * POST /whatsapp-emulator/{appId}/statuses: the chat simulator plays the customer's phone: its receipt for one of
 * the bot's messages (delivered, read, or a failure to try how one shows), recorded as a connector's status is.
 */
export const sendChatSimulatorReceipt = defineCall({
  method: 'POST',
  path: '/whatsapp-emulator/:appId/statuses',
  params: appIdParamsSchema,
  body: chatReceiptBodySchema,
  reply: envelopeSchema(z.object({ found: z.boolean() })),
});

// The simulated phone that the simulator connector's QR code opens: public, the link's secret is the key.

const linkParamsSchema = z.object({ linkId: z.string().uuid() });
const phoneSecretSchema = z.string().min(1).max(100);

/** GET /api/whatsapp-simulator/{linkId}?secret=: the link the page's secret opens. */
export const getSimulatedPhone = defineCall({
  method: 'GET',
  path: '/api/whatsapp-simulator/:linkId',
  params: linkParamsSchema,
  query: z.object({ secret: phoneSecretSchema }),
  reply: envelopeSchema(simulatedPhoneSchema),
  key: ['simulated-phone', ':linkId'],
  auth: false,
});

/** POST /api/whatsapp-simulator/{linkId}/scan: the phone "scans" the QR; the link is CONNECTED as `mobileNumber`. */
export const scanSimulatedPhone = defineCall({
  method: 'POST',
  path: '/api/whatsapp-simulator/:linkId/scan',
  params: linkParamsSchema,
  body: simulatedScanBodySchema,
  reply: envelopeSchema(simulatedPhoneSchema),
  auth: false,
});

/** POST /api/whatsapp-simulator/{linkId}/messages: a customer's message to the linked number; the bot's replies come back. */
export const sendSimulatedPhoneMessage = defineCall({
  method: 'POST',
  path: '/api/whatsapp-simulator/:linkId/messages',
  params: linkParamsSchema,
  body: simulatedMessageBodySchema,
  reply: envelopeSchema(z.object({ messages: z.array(whatsappMessageSchema) })),
  auth: false,
});

/** GET /api/whatsapp-simulator/{linkId}/messages?secret=&from=: one customer's chat with the linked number. */
export const findSimulatedPhoneTranscript = defineCall({
  method: 'GET',
  path: '/api/whatsapp-simulator/:linkId/messages',
  params: linkParamsSchema,
  query: customerQuerySchema,
  reply: envelopeSchema(z.object({ transcript: z.array(transcriptEntrySchema) })),
  key: ['simulated-phone', ':linkId', 'transcript', ':from'],
  auth: false,
});

/** POST /api/whatsapp-simulator/{linkId}/state: the testing buttons, the link fails before it connects or the phone logs out. */
export const setSimulatedPhoneState = defineCall({
  method: 'POST',
  path: '/api/whatsapp-simulator/:linkId/state',
  params: linkParamsSchema,
  body: z.object({ secret: phoneSecretSchema, status: z.enum(['FAILED', 'DISCONNECTED']) }),
  reply: envelopeSchema(simulatedPhoneSchema),
  auth: false,
});

/** POST /api/whatsapp-simulator/{linkId}/receipts: the phone's receipt for a message the bot sent it. */
export const sendSimulatedPhoneReceipt = defineCall({
  method: 'POST',
  path: '/api/whatsapp-simulator/:linkId/receipts',
  params: linkParamsSchema,
  body: simulatedReceiptBodySchema,
  reply: envelopeSchema(z.object({ status: z.enum(['delivered', 'read', 'failed']) })),
  auth: false,
});

/** GET /api/bots/{botId}/conversations/window?msisdn=: whether writing first to the number needs a template (docs/bots.md, "Writing first"). */
export const getConversationWindow = defineCall({
  method: 'GET',
  path: '/api/bots/:botId/conversations/window',
  params: botIdParamsSchema,
  query: conversationWindowQuerySchema,
  reply: envelopeSchema(conversationWindowSchema),
  key: ['bots', ':botId', 'conversation-window', ':msisdn'],
});

/** POST /api/bots/{botId}/conversations: the business writes first, the entry menu inside the window, else a template. */
export const startConversation = defineCall({
  method: 'POST',
  path: '/api/bots/:botId/conversations',
  params: botIdParamsSchema,
  body: startConversationBodySchema,
  reply: envelopeSchema(startedConversationSchema),
});
