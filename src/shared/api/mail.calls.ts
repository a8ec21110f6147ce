import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';
import { mailOutboxQuerySchema, outboxMailSchema } from './mail.schema';

// The mail outbox's calls (src/shared/api/contract.ts): the server registers them, the console calls them.

/** GET /api/admin/mail-outbox: every mail the platform sent or kept, newest first (super admins). */
export const findOutboxMails = defineCall({
  method: 'GET',
  path: '/api/admin/mail-outbox',
  query: mailOutboxQuerySchema,
  reply: envelopeSchema(z.array(outboxMailSchema)),
  key: ['mail', 'outbox'],
});
