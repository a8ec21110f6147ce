import { z } from 'zod';
import { contactBodySchema, contactRequestSchema } from './contact.schema';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';

// The contact form and its requests (src/shared/api/contract.ts).

/** POST /api/contactus (public, no token): a visitor's message to the team. */
export const sendContactRequest = defineCall({
  method: 'POST',
  path: '/api/contactus',
  body: contactBodySchema,
  reply: messageSchema,
  auth: false,
});

/** GET /api/admin/contact-requests: the messages visitors sent, for the admins whose roles read them. */
export const findContactRequests = defineCall({
  method: 'GET',
  path: '/api/admin/contact-requests',
  reply: envelopeSchema(z.array(contactRequestSchema)),
  key: ['admins', 'contact-requests'],
});
