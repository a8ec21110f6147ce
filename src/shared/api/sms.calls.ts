import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';
import { smsMessageSchema, smsOutboxQuerySchema } from './sms.schema';

// The SMS outbox's calls (src/shared/api/contract.ts): the server registers them, the console calls them.

/** GET /api/sms/outbox: the account's SMS (an app's with ?appId=), newest first; admins see everyone's. */
export const findSmsMessages = defineCall({
  method: 'GET',
  path: '/api/sms/outbox',
  query: smsOutboxQuerySchema,
  reply: envelopeSchema(z.array(smsMessageSchema)),
  key: ['sms', 'outbox'],
});
