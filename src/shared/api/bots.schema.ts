import { z } from 'zod';
import { LINK_STATUSES, WHATSAPP_CONNECTORS, type WhatsAppMessage } from '../whatsapp';
import { DELIVERY_STATUSES } from '../whatsapp-status';

/**
 * The WhatsApp bots calls (docs/product.md, WhatsApp bots), at the product's paths:
 * - `POST   /api/chatbot/app/create`             body {@link createBotBodySchema} -> `data`: Bot
 * - `GET    /api/chatbot/apps`                    -> `data`: Bot[]
 * - `GET    /api/chatbot/app/{id}`                -> `data`: Bot
 * - `DELETE /api/chatbot/app/{id}`
 * - `POST   /chatbot/app/update`                  body {@link updateBotBodySchema} (the bot data object) -> `data`: Bot
 * - `POST   /api/chatbot/app/{id}/status`         body {@link botStatusBodySchema} -> `data`: Bot
 * - `POST   /api/chatbot/whatsapp/link`           body {@link linkNumberBodySchema} -> `linkId` (and `data`: LinkedNumber)
 * - `GET    /api/chatbot/whatsapp/unlink/{id}`    id: the linkId
 * - `GET    /api/chatbot/whatsapp/list-numbers/{id}` id: the bot's appId -> `data`: LinkedNumber[]
 * - `GET    /api/chatbot/whatsapp/link-status/{id}`  id: the linkId -> `linkStatus`, `qrCode` (and `data`)
 */
export const BOT_TYPES = ['whatsapp'] as const;
export const BOT_STATUSES = ['active', 'inactive'] as const;
export type BotStatus = (typeof BOT_STATUSES)[number];

export const BOT_MESSAGES = {
  incomplete: 'Please complete all fields',
  created: 'Bot created successfully',
  updated: 'Bot settings updated successfully',
  deleted: 'Bot deleted successfully',
  notFound: 'Bot not found',
  linkStarted: 'Scan the QR code to link the number',
  unlinked: 'Number unlinked successfully',
  linkNotFound: 'Linked number not found',
  connected: 'Number connected successfully',
  failed: 'Number failed to connect',
  fetchNumbersFailed: 'Failed to fetch numbers',
  fetchSettingsFailed: 'Failed to fetch bot settings',
  deleteConfirm: 'Are you sure you want to delete this bot?',
  unlinkConfirm: 'Are you sure you want to unlink this number?',
  noNumbers: 'No Phone Numbers connected',
  qrImageFailed: 'Error generating QR code image',
  phoneNumberIdRequired: 'Enter the phone number ID from your WhatsApp Business settings',
  numberTaken: 'This number is already linked to a bot; unlink it there first',
  numberOwned:
    'This phone number ID was linked by another account. To link it here, add an access token of your WhatsApp Business Account that can read it',
  tokenCannotRead: 'This access token cannot read that phone number ID (Meta refused it); check the token and the ID',
} as const;

const text = (max: number) => z.string().trim().min(1, BOT_MESSAGES.incomplete).max(max);

export const createBotBodySchema = z.object({
  appName: text(120),
  description: text(1000),
  botType: z.enum(BOT_TYPES).default('whatsapp'),
});
export type CreateBotBody = z.infer<typeof createBotBodySchema>;

/** The bot data object: only the editable fields are read. */
export const updateBotBodySchema = z
  .object({
    appId: z.string().min(1).max(64),
    appName: text(120),
    description: text(1000),
    status: z.enum(BOT_STATUSES).optional(),
  })
  .passthrough();
export type UpdateBotBody = z.infer<typeof updateBotBodySchema>;

export const botStatusBodySchema = z.object({ status: z.enum(BOT_STATUSES) });

export const linkNumberBodySchema = z.object({
  chatBotAppId: z.string().min(1).max(64),
  /** Cloud API only: the number's id on Meta's WhatsApp Business settings (the QR connectors take none). */
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, 'A phone number ID is digits only')
    .optional(),
  /**
   * Cloud API only, and only for a number another account linked before: an access token of the business's own
   * (not kept) that can read the number, which proves it is yours (docs/whatsapp-connectors.md).
   */
  accessToken: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.|-]{20,1000}$/, 'An access token is 20 to 1,000 letters and digits')
    .optional(),
});
export type LinkNumberBody = z.infer<typeof linkNumberBodySchema>;

export const botSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  description: z.string(),
  botType: z.enum(BOT_TYPES),
  status: z.enum(BOT_STATUSES),
  /** The highest deployed version, null before the first deploy (linked numbers answer with the deployed one). */
  liveVersion: z.number().nullable(),
  /** How many of its numbers are CONNECTED. */
  connectedNumbers: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bot = z.infer<typeof botSchema>;

export const linkedNumberSchema = z.object({
  linkId: z.string(),
  mobileNumber: z.string(),
  status: z.enum(LINK_STATUSES),
  connector: z.enum(WHATSAPP_CONNECTORS),
  /** Why it FAILED or was DISCONNECTED. */
  statusMessage: z.string(),
  createdAt: z.string(),
  connectedAt: z.string().nullable(),
});
export type LinkedNumber = z.infer<typeof linkedNumberSchema>;

/** GET link-status: the product's `linkStatus` and `qrCode` (the QR's content, to draw; null unless the status is QR). */
export const linkStatusSchema = z.object({ linkStatus: z.enum(LINK_STATUSES), qrCode: z.string().nullable() });

// ---- the chat simulator and the simulated phone (docs/bots.md) ----

/** A customer's number as typed (`+233 24 123 4567`): digits only, 5 to 20 of them. */
const customerNumberSchema = z
  .string()
  .transform((v) => v.replace(/[\s()+-]/g, ''))
  .pipe(z.string().regex(/^\d{5,20}$/, 'A phone number: digits, with an optional leading +'));

/** WhatsApp takes messages of up to 65,536 characters; the engine keeps the first 512 of an answer. */
const messageTextSchema = z.string().max(65_536);

const whatsappChoiceSchema = z.object({ id: z.string(), title: z.string(), description: z.string().optional() });

/** A message the bot sends, as the channel adapter builds it (WhatsAppMessage, src/shared/whatsapp.ts). */
export const whatsappMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('list'), body: z.string(), button: z.string(), rows: z.array(whatsappChoiceSchema) }),
  z.object({ type: z.literal('buttons'), body: z.string(), buttons: z.array(whatsappChoiceSchema) }),
]) satisfies z.ZodType<WhatsAppMessage>;

/** `POST /whatsapp-emulator/{appId}`: the console's chat simulator, one message to the bot's draft. */
export const chatSimulatorBodySchema = z.object({
  from: customerNumberSchema,
  text: messageTextSchema,
  /** `choice`: `text` is the id of a list row or button picked. */
  kind: z.enum(['text', 'choice']).default('text'),
  /** True: what a Cloud API number gets (lists and buttons); false: what a linked device gets (numbered text). */
  interactive: z.boolean().default(true),
});
export type ChatSimulatorBody = z.input<typeof chatSimulatorBodySchema>;

/** The bot's answer: its messages, the session they belong to, and whether the conversation ended. */
export const chatReplySchema = z.object({
  sessionId: z.string(),
  end: z.boolean(),
  messages: z.array(whatsappMessageSchema),
  /** Each message's id, in order: its delivery status is asked and reported under it. */
  messageIds: z.array(z.string()),
});

/** A sent message's delivery status, as the console shows its ticks (shared/whatsapp-status.ts). */
export const messageStatusSchema = z.object({
  id: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  /** A failure's code and words; '' otherwise. */
  failureReason: z.string(),
});
export type MessageStatus = z.infer<typeof messageStatusSchema>;

/** The chat simulator stands in for the customer's phone: its receipt for one of the bot's messages. */
export const chatReceiptBodySchema = z.object({
  messageId: z.string().min(1).max(100),
  status: z.enum(['delivered', 'read', 'failed']),
});

/** The ids whose statuses are asked, comma separated (the chat's last 100 messages at most). */
export const messageIdsQuerySchema = z.object({
  ids: z
    .string()
    .max(10_000)
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.string().max(100)).max(100, 'At most 100 message ids')),
});

/** The simulated phone's receipt for one of the bot's messages (delivered when shown, read when open, or failed). */
export const simulatedReceiptBodySchema = chatReceiptBodySchema.extend({ secret: z.string().min(1).max(100) });

/** The simulated phone's view of its link. */
export const simulatedPhoneSchema = z.object({
  linkId: z.string(),
  status: z.enum(LINK_STATUSES),
  /** The business number linked to the bot ('' until linked). */
  mobileNumber: z.string(),
  botName: z.string(),
});
export type SimulatedPhone = z.infer<typeof simulatedPhoneSchema>;

export const simulatedScanBodySchema = z.object({ secret: z.string().min(1).max(100), mobileNumber: customerNumberSchema });

/** A customer's message on the simulated phone; `label` is what a picked choice showed (its title), for the chat. */
export const simulatedMessageBodySchema = z.object({
  secret: z.string().min(1).max(100),
  from: customerNumberSchema,
  text: messageTextSchema,
  kind: z.enum(['text', 'choice', 'media']).default('text'),
  label: z.string().max(200).optional(),
});
export type SimulatedMessageBody = z.input<typeof simulatedMessageBodySchema>;

/** One line of a simulated chat: `in` from the customer, `out` the bot's. */
export const transcriptEntrySchema = z.object({
  direction: z.enum(['in', 'out']),
  /** The bot's messages' id, for the phone's receipts. */
  id: z.string().optional(),
  message: whatsappMessageSchema,
  at: z.string(),
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;

export const customerQuerySchema = z.object({ secret: z.string().min(1).max(100), from: customerNumberSchema });
