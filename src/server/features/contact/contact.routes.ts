import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findContactRequests } from '../../../shared/api/contact.calls';
import { contactBodySchema } from '../../../shared/api/contact.schema';
import { messageSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import type { Guard } from '../../plugins/guard';
import * as contactService from './contact.service';
import { done, ok } from '../../http';

export function registerContactRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/contactus', {
    schema: { tags: ['contact'], body: contactBodySchema, response: { 200: messageSchema } },
    config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    handler: async (req) => {
      await contactService.createContactRequest(ctx, req.body);
      return done('Thank you. We have received your message and will get back to you shortly.');
    },
  });

  registerCall(app, findContactRequests, {
    tags: ['contact'],
    // Admins whose roles read contact requests (src/shared/roles.ts): ADMIN, SUPPORT, super admins.
    onRequest: guard('contactRequest.read'),
    handler: async () => ok('OK', await contactService.findContactRequests(ctx)),
  });
}
