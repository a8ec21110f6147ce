import type { FastifyInstance } from 'fastify';
import { findOutboxMails } from '../../../shared/api/mail.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import type { Guard } from '../../plugins/guard';
import * as mailService from './mail.service';

export function registerMailRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  registerCall(app, findOutboxMails, {
    tags: ['mail'],
    summary: 'Every mail the platform sent or kept in the local outbox, newest first (super admins)',
    // Mails hold password-reset links of every account, super admins' too: mailOutbox.read (src/shared/roles.ts).
    onRequest: guard('mailOutbox.read'),
    handler: async (req) => ok('OK', await mailService.findOutboxMails(ctx, req.query)),
  });
}
