import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';
import {
  smsMessageSchema,
  smsOutboxQuerySchema,
  smsParamsSchema,
  smsRepliesQuerySchema,
  smsReplyBodySchema,
  smsReplySchema,
} from './sms.schema';

// The SMS outbox's calls (src/shared/api/contract.ts): the server registers them, the console calls them.

/** GET /api/sms/outbox: the account's SMS (an app's with ?appId=), newest first; admins see everyone's. */
export const findSmsMessages = defineCall({
  method: 'GET',
  path: '/api/sms/outbox',
  query: smsOutboxQuerySchema,
  reply: envelopeSchema(z.array(smsMessageSchema)),
  key: ['sms', 'outbox'],
});

/**
 * POST /api/sms/outbox/:smsId/reply: the recipient of an SMS the local outbox kept writes back (the outbox stands for
 * the network, as the simulated phone does for WhatsApp); handled as a provider's incoming message is.
 */
export const replyToSms = defineCall({
  method: 'POST',
  path: '/api/sms/outbox/:smsId/reply',
  params: smsParamsSchema,
  body: smsReplyBodySchema,
  reply: envelopeSchema(smsReplySchema),
});

/** GET /api/sms/replies: the SMS people sent back to the account, newest first (one number's with ?msisdn=). */
export const findSmsReplies = defineCall({
  method: 'GET',
  path: '/api/sms/replies',
  query: smsRepliesQuerySchema,
  reply: envelopeSchema(z.array(smsReplySchema)),
  key: ['sms', 'replies'],
});
