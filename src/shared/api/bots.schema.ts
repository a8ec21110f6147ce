import { officeHoursSchema } from '../office-hours';
import { z } from 'zod';
import { languageRecord } from '../app/languages';
import type { ConsentKeywords } from '../contact-consent';
import type { HandoffKeywords } from '../inbox';
import { LINK_STATUSES, WHATSAPP_CONNECTORS, type WhatsAppMessage } from '../whatsapp';
import { DELIVERY_STATUSES } from '../whatsapp-status';
import { MEDIA_KINDS, type LocationRef, type MediaRef } from '../media';

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
  connectorNotOffered: 'This installation does not offer that kind of WhatsApp number',
  noCredentialsKey:
    'This installation cannot keep access tokens: its operator must set WHATSAPP_CREDENTIALS_KEY (docs/whatsapp-connectors.md) first',
  credentialsUnreadable:
    "This number's access token cannot be decrypted: WHATSAPP_CREDENTIALS_KEY is not the key it was saved with; set that key, or reconnect the number",
  noAccessToken: 'This number has no access token: reconnect it with a token of its own (or set WHATSAPP_CLOUD_ACCESS_TOKEN)',
  wabaIdNeedsToken: 'A WhatsApp Business Account ID goes with an access token of that account',
  wabaNotOwner: 'That WhatsApp Business Account does not own this phone number ID (Meta lists it among no numbers of the account)',
  embeddedSignupOff: 'Embedded Signup is not set up on this installation (WHATSAPP_CLOUD_APP_ID, WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID)',
  signupCodeRefused: 'Meta refused the signup code (it lives about a minute and works once): run the signup again',
  subscribeRefused:
    "Meta refused to subscribe this installation's app to the WhatsApp Business Account, so its messages could not reach the bot",
  registerRefused: 'Meta refused to register the number for the Cloud API',
  metaUnreachable: 'Could not reach Meta; try again',
} as const;

const text = (max: number) => z.string().trim().min(1, BOT_MESSAGES.incomplete).max(max);

export const createBotBodySchema = z.object({
  appName: text(120),
  description: text(1000),
  botType: z.enum(BOT_TYPES).default('whatsapp'),
});
export type CreateBotBody = z.infer<typeof createBotBodySchema>;

const consentWord = z.string().trim().min(1, 'A consent word cannot be empty').max(40, 'A consent word is at most 40 characters');
const consentReply = z.string().trim().max(500, 'A consent answer is at most 500 characters');

/**
 * A bot's own consent words and answers per language (docs/contacts.md, "Consent"), beside STOP and START which
 * every bot honours: `{ optOutWords: { fr: ['arrêt'] }, optOutReply: { fr: 'Vous ne recevrez plus de messages de {app}.' } }`.
 */
export const consentKeywordsSchema = z.object({
  optOutWords: languageRecord(z.array(consentWord).max(20)).default({}),
  optInWords: languageRecord(z.array(consentWord).max(20)).default({}),
  optOutReply: languageRecord(consentReply).default({}),
  optInReply: languageRecord(consentReply).default({}),
}) satisfies z.ZodType<ConsentKeywords, z.input<z.ZodType>>;

const handoffWord = z.string().trim().min(1, 'A handoff word cannot be empty').max(40, 'A handoff word is at most 40 characters');

/**
 * A bot's handoff words and answers per language (docs/inbox.md, "Keywords"): a message that is one of the words hands
 * the conversation to a person from any screen: `{ words: { en: ['agent', 'human'] }, reply: { en: 'A person will reply shortly.' } }`.
 */
export const handoffKeywordsSchema = z.object({
  words: languageRecord(z.array(handoffWord).max(20)).default({}),
  reply: languageRecord(z.string().trim().max(1000, 'A handoff answer is at most 1,000 characters')).default({}),
}) satisfies z.ZodType<HandoffKeywords, z.input<z.ZodType>>;

/** The bot data object: only the editable fields are read. */
export const updateBotBodySchema = z
  .object({
    appId: z.string().min(1).max(64),
    appName: text(120),
    description: text(1000),
    status: z.enum(BOT_STATUSES).optional(),
    /** The bot's own consent words and answers; null clears them, absent keeps them. */
    consentKeywords: consentKeywordsSchema.nullable().optional(),
    /** The bot's handoff words and answers; null clears them, absent keeps them. */
    handoffKeywords: handoffKeywordsSchema.nullable().optional(),
    /** When its agents answer a handoff; null: always, absent keeps them. */
    officeHours: officeHoursSchema.nullable().optional(),
  })
  .passthrough();
export type UpdateBotBody = z.infer<typeof updateBotBodySchema>;

export const botStatusBodySchema = z.object({ status: z.enum(BOT_STATUSES) });

const phoneNumberIdSchema = z
  .string()
  .trim()
  .regex(/^\d{5,30}$/, 'A phone number ID is digits only');
const wabaIdSchema = z
  .string()
  .trim()
  .regex(/^\d{5,30}$/, 'A WhatsApp Business Account ID is digits only');

export const linkNumberBodySchema = z.object({
  chatBotAppId: z.string().min(1).max(64),
  /** Which kind of number, among those the installation offers; unset: the first it offers. */
  connector: z.enum(WHATSAPP_CONNECTORS).optional(),
  /** Cloud API only: the number's id on Meta's WhatsApp Business settings (the QR connectors take none). */
  phoneNumberId: phoneNumberIdSchema.optional(),
  /** Cloud API only, with `accessToken`: the WhatsApp Business Account the number belongs to (Meta checks it). */
  wabaId: wabaIdSchema.optional(),
  /**
   * Cloud API only: an access token of the number's business that can read it. It proves the number is yours
   * (also one another account linked before), and is kept, sealed, to send with (docs/whatsapp-connectors.md).
   */
  accessToken: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.|-]{20,1000}$/, 'An access token is 20 to 1,000 letters and digits')
    .optional(),
});
export type LinkNumberBody = z.infer<typeof linkNumberBodySchema>;

/** Embedded Signup's outcome, as the console got it from Meta's popup (the code) and its session-info message. */
export const embeddedSignupBodySchema = z.object({
  chatBotAppId: z.string().min(1).max(64),
  code: z.string().trim().min(1, 'The signup gave no code').max(2000),
  wabaId: wabaIdSchema,
  phoneNumberId: phoneNumberIdSchema,
});
export type EmbeddedSignupBody = z.infer<typeof embeddedSignupBodySchema>;

/** How this installation links numbers: the kinds it offers and, when set up, Embedded Signup's ids for FB.login. */
export const whatsAppConnectorsSchema = z.object({
  /** The first kind offered (what a link request without `connector` uses). */
  connector: z.enum(WHATSAPP_CONNECTORS),
  connectors: z.array(z.enum(WHATSAPP_CONNECTORS)),
  embeddedSignup: z.object({ appId: z.string(), configId: z.string() }).nullable(),
});
export type WhatsAppConnectors = z.infer<typeof whatsAppConnectorsSchema>;

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
  /** Its own consent words and answers (docs/contacts.md, "Consent"); null: STOP and START only, default answers. */
  consentKeywords: consentKeywordsSchema.nullable(),
  /** Its handoff words and answers (docs/inbox.md); null: none. */
  handoffKeywords: handoffKeywordsSchema.nullable(),
  /** When its agents answer a handoff (docs/inbox.md, "Office hours"); null: always. */
  officeHours: officeHoursSchema.nullable(),
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

/** A stored file as a message or an input refers to it (MediaRef, src/shared/media.ts). */
export const mediaRefSchema = z.object({
  mediaId: z.string(),
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  size: z.number().int().nonnegative(),
  fileName: z.string().optional(),
  caption: z.string().optional(),
  url: z.string().optional(),
}) satisfies z.ZodType<MediaRef>;

/** What a location off the globe is told, here and in the console's location form. */
export const LOCATION_MESSAGES = {
  latitude: 'The latitude is between -90 and 90',
  longitude: 'The longitude is between -180 and 180',
} as const;

/** A place on the map (LocationRef, src/shared/media.ts): coordinates on the globe, an optional name and address. */
export const locationSchema = z.object({
  latitude: z.number().min(-90, LOCATION_MESSAGES.latitude).max(90, LOCATION_MESSAGES.latitude),
  longitude: z.number().min(-180, LOCATION_MESSAGES.longitude).max(180, LOCATION_MESSAGES.longitude),
  name: z.string().max(1000).optional(),
  address: z.string().max(1000).optional(),
}) satisfies z.ZodType<LocationRef>;

const whatsappChoiceSchema = z.object({ id: z.string(), title: z.string(), description: z.string().optional() });

/** A message the bot sends, as the channel adapter builds it (WhatsAppMessage, src/shared/whatsapp.ts). */
export const whatsappMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('list'), body: z.string(), button: z.string(), rows: z.array(whatsappChoiceSchema) }),
  z.object({ type: z.literal('buttons'), body: z.string(), buttons: z.array(whatsappChoiceSchema) }),
  z.object({ type: z.literal('media'), media: mediaRefSchema }),
  z.object({ type: z.literal('location'), location: locationSchema }),
  z.object({ type: z.literal('contact'), contact: z.object({ name: z.string(), phones: z.array(z.string()) }) }),
  z.object({ type: z.literal('link'), body: z.string(), button: z.string(), url: z.string() }),
  z.object({ type: z.literal('locationRequest'), body: z.string() }),
]) satisfies z.ZodType<WhatsAppMessage>;

/**
 * `POST /whatsapp-emulator/{appId}`: the console's chat simulator, one message to the bot's draft: typed text, a
 * picked choice, a file uploaded first through `POST /api/media` (`mediaId`; `text` its caption), or a location.
 */
export const chatSimulatorBodySchema = z
  .object({
    from: customerNumberSchema,
    text: messageTextSchema.default(''),
    /** `choice`: `text` is the id of a list row or button picked. */
    kind: z.enum(['text', 'choice', 'media', 'location']).default('text'),
    /** The file, when `kind` is media: an id `POST /api/media` answered for this bot (or its owner's account). */
    mediaId: z.string().max(100).optional(),
    /** The place, when `kind` is location. */
    location: locationSchema.optional(),
    /** True: what a Cloud API number gets (lists and buttons); false: what a linked device gets (numbered text). */
    interactive: z.boolean().default(true),
  })
  .refine((body) => body.kind !== 'media' || body.mediaId, { message: 'A file message carries its mediaId', path: ['mediaId'] })
  .refine((body) => body.kind !== 'location' || body.location, { message: 'A location message carries its location', path: ['location'] });
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

/** The largest file the simulated phone sends: WhatsApp's bound for audio and video (a larger document cannot be tried there). */
export const SIMULATED_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** A simulated phone's file, base64: four characters for every three bytes. */
export const SIMULATED_FILE_MAX_CHARS = Math.ceil(SIMULATED_FILE_MAX_BYTES / 3) * 4;

/** A file sent from the simulated phone: its bytes (base64), its type as the page says, its name, how the phone sends it. */
const simulatedFileSchema = z.object({
  data: z
    .string()
    .max(SIMULATED_FILE_MAX_CHARS, `A file of at most ${SIMULATED_FILE_MAX_BYTES / 1024 / 1024} MB`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file, base64-encoded'),
  mimeType: z.string().min(1).max(255),
  fileName: z.string().max(255).optional(),
  /** Image, audio and video types go as such, anything else as a document, unless the page says. */
  kind: z.enum(MEDIA_KINDS).optional(),
  /** A voice note (audio recorded in the chat). */
  voice: z.boolean().optional(),
});

/**
 * A customer's message on the simulated phone: typed text, a picked choice (`text` its id, `label` its title, for the
 * chat), a file (`file`; `text` its caption), a location (`location`, on the globe), or `unsupported` (a sticker).
 */
export const simulatedMessageBodySchema = z
  .object({
    secret: z.string().min(1).max(100),
    from: customerNumberSchema,
    text: messageTextSchema.default(''),
    kind: z.enum(['text', 'choice', 'media', 'location', 'unsupported']).default('text'),
    label: z.string().max(200).optional(),
    file: simulatedFileSchema.optional(),
    location: locationSchema.optional(),
  })
  .refine((body) => body.kind !== 'media' || body.file, { message: 'A file message carries its file', path: ['file'] })
  .refine((body) => body.kind !== 'location' || body.location, { message: 'A location message carries its location', path: ['location'] });
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
