import { z } from 'zod';
import { contactRequestSchema } from './contact.schema';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';

// The contact requests' calls (src/shared/api/contract.ts): the server registers them, the console calls them.

/** GET /api/admin/contact-requests: what visitors sent from the public contact form; below ['admins'] in the cache. */
export const findContactRequests = defineCall({
  method: 'GET',
  path: '/api/admin/contact-requests',
  reply: envelopeSchema(z.array(contactRequestSchema)),
  key: ['admins', 'contact-requests'],
});
