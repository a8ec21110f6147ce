import { accountRetentionSchema, saveRetentionBodySchema } from './retention.schema';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';

// The account's data retention (docs/operations.md, "Data lifetime"). Key: ['auth', 'retention'].

/** GET /api/account/retention: per kind of data, the days kept and the bounds they come from. */
export const getAccountRetention = defineCall({
  method: 'GET',
  path: '/api/account/retention',
  reply: envelopeSchema(accountRetentionSchema),
  key: ['auth', 'retention'],
});

/** POST /api/account/retention: the account asks to keep some kinds for fewer days (null: back to the bound). */
export const saveAccountRetention = defineCall({
  method: 'POST',
  path: '/api/account/retention',
  body: saveRetentionBodySchema,
  reply: envelopeSchema(accountRetentionSchema),
});
