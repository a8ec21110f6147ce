import { z } from 'zod';
import { defineCall } from './contract';
import {
  createCustomActionBodySchema,
  customActionListItemSchema,
  customActionSchema,
  customActionTemplateSchema,
  testCustomActionBodySchema,
  testReplySchema,
  updateCodeBodySchema,
  updateNameBodySchema,
} from './custom-actions.schema';
import { envelopeSchema, messageSchema } from './envelope';

// The custom functions' calls (src/shared/api/contract.ts): the server registers them, the console calls them.
// The list's key ['custom-actions'] is also the prefix of each function's and of the templates'.

const customActionParamsSchema = z.object({ uuid: z.string().min(1).max(64) });

/** GET /api/docs/javascript: the default javascript code, the SDK by example, for empty editors. */
export const getDefaultJavascriptCode = defineCall({
  method: 'GET',
  path: '/api/docs/javascript',
  reply: envelopeSchema(z.string()),
  key: ['docs', 'javascript'],
});

/** GET /api/custom-actions: the account's functions. */
export const findCustomActions = defineCall({
  method: 'GET',
  path: '/api/custom-actions',
  reply: envelopeSchema(z.array(customActionListItemSchema)),
  key: ['custom-actions'],
});

/** GET /api/template/custom-actions: the examples the editor's 'Select a template' list offers. */
export const findCustomActionTemplates = defineCall({
  method: 'GET',
  path: '/api/template/custom-actions',
  reply: envelopeSchema(z.array(customActionTemplateSchema)),
  key: ['custom-actions', 'templates'],
});

export const getCustomAction = defineCall({
  method: 'GET',
  path: '/api/custom-action/:uuid',
  params: customActionParamsSchema,
  reply: envelopeSchema(customActionSchema),
  key: ['custom-actions', ':uuid'],
});

/** POST /api/custom-action/create: the new function's `uuid` beside the message. */
export const createCustomAction = defineCall({
  method: 'POST',
  path: '/api/custom-action/create',
  body: createCustomActionBodySchema,
  reply: messageSchema.extend({ uuid: z.string() }),
});

export const updateCustomActionCode = defineCall({
  method: 'POST',
  path: '/api/custom-action/update-code',
  body: updateCodeBodySchema,
  reply: messageSchema,
});

export const updateCustomActionName = defineCall({
  method: 'POST',
  path: '/api/custom-action/update-name',
  body: updateNameBodySchema,
  reply: messageSchema,
});

/** GET /api/custom-action/delete/{uuid}: a GET, as docs/product.md names it. */
export const deleteCustomAction = defineCall({
  method: 'GET',
  path: '/api/custom-action/delete/:uuid',
  params: customActionParamsSchema,
  reply: messageSchema,
});

/** POST /api/custom-action/test: runs the code in the sandbox; '00' either way, the message says whether it threw. */
export const testCustomAction = defineCall({
  method: 'POST',
  path: '/api/custom-action/test',
  body: testCustomActionBodySchema,
  reply: envelopeSchema(testReplySchema),
});
