import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import { mailOutboxQuerySchema, outboxMailSchema } from '../../../shared/api/mail.schema';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import type { Guard } from '../../plugins/guard';
import { findOutboxMails } from './mail.service';

export function registerMailRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/admin/mail-outbox', {
    schema: {
      tags: ['mail'],
      summary: 'Every mail the platform sent or kept in the local outbox, newest first (super admins)',
      querystring: mailOutboxQuerySchema,
      response: { 200: envelopeSchema(z.array(outboxMailSchema)) },
    },
    // Mails hold password-reset links of every account, super admins' too: mailOutbox.read (src/shared/roles.ts).
    onRequest: guard('mailOutbox.read'),
    handler: async (req) => ok('OK', await findOutboxMails(ctx, req.query)),
  });
}
