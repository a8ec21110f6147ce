import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import { templateDraftSchema, templateListSchema, templateStatusBodySchema, whatsappTemplateSchema } from './whatsapp-templates.schema';

// A linked number's message templates (docs/whatsapp-templates.md). Their keys sit below the bots' numbers:
// ['bots', 'numbers', ':id', 'templates'].

const linkParamsSchema = z.object({ id: z.string().uuid() });

/** GET /api/chatbot/whatsapp/templates/{linkId}: the number's templates, newest first, with when they were synced. */
export const findTemplates = defineCall({
  method: 'GET',
  path: '/api/chatbot/whatsapp/templates/:id',
  params: linkParamsSchema,
  reply: envelopeSchema(templateListSchema),
  key: ['bots', 'numbers', ':id', 'templates'],
});

/** POST /api/chatbot/whatsapp/templates/{linkId}: a new template (submitted to Meta for a Cloud API number). */
export const createTemplate = defineCall({
  method: 'POST',
  path: '/api/chatbot/whatsapp/templates/:id',
  params: linkParamsSchema,
  body: templateDraftSchema,
  reply: envelopeSchema(whatsappTemplateSchema),
});

/** POST /api/chatbot/whatsapp/templates/{linkId}/sync: reads Meta's templates (every page); gone ones go here too. */
export const syncTemplates = defineCall({
  method: 'POST',
  path: '/api/chatbot/whatsapp/templates/:id/sync',
  params: linkParamsSchema,
  reply: envelopeSchema(templateListSchema),
});

/** DELETE /api/chatbot/whatsapp/template/{templateId}: on Meta too for a Cloud API number. */
export const deleteTemplate = defineCall({
  method: 'DELETE',
  path: '/api/chatbot/whatsapp/template/:id',
  params: linkParamsSchema,
  reply: messageSchema,
});

/** POST /api/chatbot/whatsapp/template/{templateId}/status: a simulator number's template marked REJECTED, PAUSED... */
export const setTemplateStatus = defineCall({
  method: 'POST',
  path: '/api/chatbot/whatsapp/template/:id/status',
  params: linkParamsSchema,
  body: templateStatusBodySchema,
  reply: envelopeSchema(whatsappTemplateSchema),
});
