import { z } from 'zod';
import { whatsappTemplateSchema } from './whatsapp-templates.schema';

/**
 * A business writing first (docs/bots.md, "Writing first"): starting a bot's conversation with a contact.
 * - `GET  /api/bots/{botId}/conversations/window?msisdn=` -> `data`: ConversationWindow (is a template needed?)
 * - `POST /api/bots/{botId}/conversations` body {@link startConversationBodySchema} -> `data`: StartedConversation
 */

export const botIdParamsSchema = z.object({ botId: z.string().min(1).max(64) });

const msisdnSchema = z
  .string({ error: 'Give the phone number to write to' })
  .trim()
  .min(1, 'Give the phone number to write to')
  .max(40, 'A phone number is at most 40 characters');

export const conversationWindowQuerySchema = z.object({
  msisdn: msisdnSchema,
  /** The linked number to write from; the bot's first connected number when left out. */
  linkId: z.uuid('linkId is not a linked number').optional(),
});
export type ConversationWindowQuery = z.infer<typeof conversationWindowQuerySchema>;

/** One place's values (`{{1}}`, `{{first_name}}`): text, or a contact field as `{{contact.name}}`. */
const placeValuesSchema = z
  .record(
    z.string().regex(/^[a-z0-9_]{1,40}$/, 'A variable is named as in the template: {{1}}, {{2}} or {{first_name}}'),
    z.string().max(1024),
  )
  .refine((v) => Object.keys(v).length <= 20, 'At most 20 variables in one place');

/** The template's variables by place, as renderTemplate takes them: `{ body: { '1': '{{contact.name}}' } }`. */
const variablesSchema = z.strictObject(
  { header: placeValuesSchema.optional(), body: placeValuesSchema.optional() },
  { error: 'Variables go under header or body' },
);

/** An approved template of the linked number by name and language, with its variables' values. */
export const templateChoiceSchema = z.object({
  name: z.string().trim().min(1, 'Give the template name').max(512),
  language: z.string().trim().min(2, 'Give the template language (en, en_US...)').max(15),
  variables: variablesSchema.default({}),
});

export const startConversationBodySchema = z.object({
  msisdn: msisdnSchema,
  /** The menu (its uniqueId) the flow starts at; the bot's first menu when left out. */
  entryMenu: z.string().trim().min(1).max(64).optional(),
  linkId: z.uuid('linkId is not a linked number').optional(),
  /** Needed when the window is closed: an approved template of the linked number, with its variables. */
  template: templateChoiceSchema.optional(),
});
export type StartConversationBody = z.infer<typeof startConversationBodySchema>;

/** The 24-hour window (docs/bots.md): open until a time, or closed since a time (null: the person never wrote). */
export const windowStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('open'), openUntil: z.string() }),
  z.object({ state: z.literal('closed'), closedAt: z.string().nullable() }),
]);

export const conversationWindowSchema = z.object({
  /** The number in E.164 form. */
  msisdn: z.string(),
  linkId: z.string(),
  /** The linked number written from (+233...). */
  mobileNumber: z.string(),
  window: windowStateSchema,
  /** True when the window is closed: only an approved template may open the conversation. */
  needsTemplate: z.boolean(),
  /** In words, for the console and the API: "The window with +233... closed on ...: choose an approved template". */
  message: z.string(),
  /** The linked number's templates, as the Templates tab lists them (only APPROVED ones can be sent). */
  templates: z.array(whatsappTemplateSchema),
});
export type ConversationWindow = z.infer<typeof conversationWindowSchema>;

export const startedConversationSchema = z.object({
  id: z.string(),
  msisdn: z.string(),
  linkId: z.string(),
  entryMenu: z.string(),
  /** `menu`: the entry menu went as it is (inside the window); `template`: a template went (outside it). */
  kind: z.enum(['menu', 'template']),
  status: z.enum(['sent', 'failed']),
  window: windowStateSchema,
});
export type StartedConversation = z.infer<typeof startedConversationSchema>;

export const CONVERSATION_MESSAGES = {
  started: 'Conversation started: the entry menu was sent',
  templateSent: 'Template sent: the reply starts the flow at the entry menu',
} as const;
