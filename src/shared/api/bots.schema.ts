import { z } from 'zod';
import { LINK_STATUSES, WHATSAPP_CONNECTORS } from '../whatsapp';

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
