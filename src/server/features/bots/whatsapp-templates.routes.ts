import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/whatsapp-templates.calls';
import { TEMPLATE_API_MESSAGES } from '../../../shared/api/whatsapp-templates.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as service from './whatsapp-templates.service';

/** A linked number's message templates (docs/whatsapp-templates.md), for those who build bots. */
export function registerWhatsAppTemplateRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['bots'];
  const botBuilders = guard('bot.build', 'chatbot');

  registerCall(app, calls.findTemplates, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => ok('OK', await service.findTemplates(ctx, getSignedInUser(req), req.params.id)),
  });

  registerCall(app, calls.createTemplate, {
    tags,
    summary: 'A new template: submitted to Meta for a Cloud API number (its refusal in its words), APPROVED at once elsewhere',
    onRequest: botBuilders,
    handler: async (req) => {
      const template = await service.createTemplate(ctx, getSignedInUser(req), req.params.id, req.body);
      return ok(template.providerId ? TEMPLATE_API_MESSAGES.submitted : TEMPLATE_API_MESSAGES.created, template);
    },
  });

  registerCall(app, calls.syncTemplates, {
    tags,
    summary: "Reads the business account's templates from Meta, every page; ones Meta no longer has are removed",
    onRequest: botBuilders,
    handler: async (req) => ok(TEMPLATE_API_MESSAGES.synced, await service.syncTemplates(ctx, getSignedInUser(req), req.params.id)),
  });

  registerCall(app, calls.deleteTemplate, {
    tags,
    onRequest: botBuilders,
    handler: async (req) => {
      await service.deleteTemplate(ctx, getSignedInUser(req), req.params.id);
      return { status: '00' as const, message: TEMPLATE_API_MESSAGES.deleted };
    },
  });

  registerCall(app, calls.setTemplateStatus, {
    tags,
    summary: "A simulator number's template marked REJECTED, PAUSED or DISABLED (or APPROVED again), to try those states",
    onRequest: botBuilders,
    handler: async (req) =>
      ok(
        TEMPLATE_API_MESSAGES.statusChanged,
        await service.setTemplateStatus(ctx, getSignedInUser(req), req.params.id, req.body.status, req.body.reason),
      ),
  });
}
