import { z } from 'zod';
import { WHATSAPP_CONNECTORS } from '../whatsapp';
import {
  checkTemplateDraft,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_STATUSES,
  type TemplateDraft,
} from '../whatsapp-templates';

/**
 * A linked number's message templates (docs/whatsapp-templates.md):
 * - `GET    /api/chatbot/whatsapp/templates/{linkId}`        -> `data`: TemplateList
 * - `POST   /api/chatbot/whatsapp/templates/{linkId}`        body {@link templateDraftSchema} -> `data`: WhatsAppTemplate
 * - `POST   /api/chatbot/whatsapp/templates/{linkId}/sync`   Cloud API numbers: read Meta's -> `data`: TemplateList
 * - `DELETE /api/chatbot/whatsapp/template/{templateId}`
 * - `POST   /api/chatbot/whatsapp/template/{templateId}/status` simulator numbers: REJECTED, PAUSED... for testing
 */
export const TEMPLATE_API_MESSAGES = {
  created: 'Template saved',
  submitted: 'Template submitted to Meta for review',
  deleted: 'Template deleted',
  synced: 'Templates synced from Meta',
  statusChanged: 'Template status changed',
  deleteConfirm: 'Delete this template? A message cannot use it afterwards.',
  exists: 'This number already has a template with that name and language',
  syncCloudOnly: 'Only Cloud API numbers have templates on Meta to sync',
  statusSimulatorOnly: "Only a simulator number's templates can have their status set here; Meta sets a Cloud API template's",
} as const;

const valuesSchema = z.record(z.string().regex(/^[a-z0-9_]+$/), z.string().max(TEMPLATE_LIMITS.value));

const optionalText = z
  .string()
  .trim()
  .max(TEMPLATE_LIMITS.body)
  .optional()
  .transform((v) => v || undefined);

/** A new template as the console's form writes it; Meta's rules are checked here, every problem named. */
export const templateDraftSchema = z
  .object({
    name: z.string().trim(),
    language: z
      .string()
      .trim()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'A language code such as en, en_US or pt_BR'),
    category: z.enum(TEMPLATE_CATEGORIES),
    header: optionalText,
    body: z.string().trim().min(1, TEMPLATE_MESSAGES.bodyRequired).max(TEMPLATE_LIMITS.body, TEMPLATE_MESSAGES.bodyTooLong),
    footer: optionalText,
    buttons: z
      .array(z.string().trim().max(TEMPLATE_LIMITS.buttonText, TEMPLATE_MESSAGES.buttonTooLong))
      .max(TEMPLATE_LIMITS.buttons, TEMPLATE_MESSAGES.tooManyButtons)
      .default([]),
    examples: z.object({ header: valuesSchema.optional(), body: valuesSchema.optional() }).default({}),
  })
  .superRefine((draft, check) => {
    // Every problem at once, so the form can be put right in one go.
    const problems = checkTemplateDraft(draft as TemplateDraft);
    if (problems.length) check.addIssue({ code: 'custom', message: problems.join('. ') });
  });
export type TemplateDraftBody = z.input<typeof templateDraftSchema>;

export const templateVariableSchema = z.object({ place: z.enum(['header', 'body']), name: z.string() });

export const whatsappTemplateSchema = z.object({
  templateId: z.string(),
  linkId: z.string(),
  /** Meta's id (Cloud API numbers), null for a simulator or linked-device number's. */
  providerId: z.string().nullable(),
  name: z.string(),
  language: z.string(),
  category: z.enum(TEMPLATE_CATEGORIES),
  status: z.enum(TEMPLATE_STATUSES),
  /** Why it was rejected, paused or disabled ('' otherwise). */
  reason: z.string(),
  header: z.string().nullable(),
  body: z.string(),
  footer: z.string().nullable(),
  buttons: z.array(z.string()),
  variables: z.array(templateVariableSchema),
  syncedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WhatsAppTemplate = z.infer<typeof whatsappTemplateSchema>;

export const templateListSchema = z.object({
  connector: z.enum(WHATSAPP_CONNECTORS),
  /** When Meta's list was last read for this number (Cloud API), null before the first sync or elsewhere. */
  syncedAt: z.string().nullable(),
  templates: z.array(whatsappTemplateSchema),
});
export type TemplateList = z.infer<typeof templateListSchema>;

export const templateStatusBodySchema = z.object({
  status: z.enum(TEMPLATE_STATUSES),
  reason: z.string().trim().max(500).default(''),
});
