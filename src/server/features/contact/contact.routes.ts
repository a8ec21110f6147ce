import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactBodySchema, contactRequestSchema } from '../../../shared/api/contact.schema';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import type { Guard } from '../../plugins/guard';
import { createContactRequest, findContactRequests } from './contact.service';
import { done, ok } from '../../http';

export function registerContactRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/contactus', {
    schema: { tags: ['contact'], body: contactBodySchema, response: { 200: messageSchema } },
    config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    handler: async (req) => {
      await createContactRequest(ctx, req.body);
      return done('Thank you. We have received your message and will get back to you shortly.');
    },
  });

  r.get('/api/admin/contact-requests', {
    schema: { tags: ['contact'], response: { 200: envelopeSchema(z.array(contactRequestSchema)) } },
    // Admins whose roles read contact requests (src/shared/roles.ts): ADMIN, SUPPORT, super admins.
    onRequest: guard('contactRequest.read'),
    handler: async () => ok('OK', await findContactRequests(ctx)),
  });
}
