import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import { subflowBodySchema, subflowParamsSchema, subflowSchema } from './subflows.schema';

// The account's sub-flows (docs/sub-flows.md). Keys below ['subflows'].

/** GET /api/subflows: the account's sub-flows, by name, each with the apps that use it. */
export const findSubflows = defineCall({
  method: 'GET',
  path: '/api/subflows',
  reply: envelopeSchema(z.array(subflowSchema)),
  key: ['subflows'],
});

/** GET /api/subflows/{subflowId}: one sub-flow, with the apps that use it and the version each runs. */
export const getSubflow = defineCall({
  method: 'GET',
  path: '/api/subflows/:subflowId',
  params: subflowParamsSchema,
  reply: envelopeSchema(subflowSchema),
  key: ['subflows'],
});

/** POST /api/subflows: creates a sub-flow (no menus yet: they are added in the designer). */
export const createSubflow = defineCall({
  method: 'POST',
  path: '/api/subflows',
  body: subflowBodySchema,
  reply: envelopeSchema(subflowSchema),
});

/** PUT /api/subflows/{subflowId}: renames it, or changes what it takes and gives back. */
export const updateSubflow = defineCall({
  method: 'PUT',
  path: '/api/subflows/:subflowId',
  params: subflowParamsSchema,
  body: subflowBodySchema,
  reply: envelopeSchema(subflowSchema),
});

/** DELETE /api/subflows/{subflowId}: refused (409) while an app's draft or live version uses it. */
export const deleteSubflow = defineCall({
  method: 'DELETE',
  path: '/api/subflows/:subflowId',
  params: subflowParamsSchema,
  reply: messageSchema,
});
