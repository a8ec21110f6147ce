import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findSmsMessages, findSmsReplies, replyToSms } from '../../../shared/api/sms.calls';
import { messageSchema } from '../../../shared/api/envelope';
import { notFound } from '../../../shared/errors';
import { readAtDeliveryReport, readAtIncomingMessage, readAtOptOut } from '../../../integrations/sms/africastalking-sms';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { createLimit } from '../../core/rate-limits';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as smsService from './sms.service';
import * as smsReplies from './sms-replies';

const tags = ['sms'];

/** The SMS outbox API (console), its simulated replies, and the provider's notifications; buildApp runs the dispatcher. */
export function registerSmsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  registerCall(app, findSmsMessages, {
    tags,
    summary: "The app owner's SMS (an app's with ?appId=), newest first; admins see everyone's",
    onRequest: guard(),
    handler: async (req) => ok('OK', await smsService.findSmsMessages(ctx, getSignedInUser(req), req.query)),
  });
  registerCall(app, findSmsReplies, {
    tags,
    summary: 'The SMS people sent back to the account, newest first',
    onRequest: guard(),
    handler: async (req) => ok('OK', await smsReplies.findSmsReplies(ctx, getSignedInUser(req), req.query)),
  });
  // Each simulated reply is a stored row and may change a contact's consent: counted per account.
  const replyLimit = createLimit(
    app,
    'sms-outbox-reply-account',
    ctx.config.SMS_OUTBOX_REPLIES_PER_MINUTE,
    (req) => getSignedInUser(req).id,
  );
  registerCall(app, replyToSms, {
    tags,
    summary: 'The recipient of an SMS in the local outbox writes back (the outbox stands for the network); STOP opts them out',
    onRequest: guard(),
    preHandler: replyLimit,
    handler: async (req) => {
      const reply = await smsReplies.replyFromOutbox(ctx, getSignedInUser(req), req.params.smsId, req.body.text);
      return ok('Reply received', reply);
    },
  });
  registerProviderNotifications(app, ctx);
}

const NOTIFICATIONS = ['delivery', 'incoming', 'opt-out'] as const;

/**
 * The SMS provider's notifications: `POST /api/sms/callbacks/{provider}/{token}/{delivery|incoming|opt-out}`. The
 * provider signs nothing, so the address carries the operator's secret (SMS_CALLBACK_TOKEN); without it, or with
 * another token or provider, every address answers 404.
 */
function registerProviderNotifications(app: FastifyInstance, ctx: AppContext): void {
  const expected = Buffer.from(ctx.config.SMS_CALLBACK_TOKEN ?? '');
  const knows = (provider: string, token: string) => {
    const given = Buffer.from(token);
    return (
      provider === ctx.config.SMS_PROVIDER &&
      provider === 'africastalking' &&
      expected.length > 0 &&
      given.length === expected.length &&
      timingSafeEqual(expected, given)
    );
  };
  app.withTypeProvider<ZodTypeProvider>().post('/api/sms/callbacks/:provider/:token/:notification', {
    bodyLimit: 16 * 1024,
    schema: {
      tags,
      summary: "The SMS provider's delivery reports, incoming messages and bulk opt-outs (its callback URLs)",
      params: z.object({ provider: z.string().max(40), token: z.string().max(200), notification: z.enum(NOTIFICATIONS) }),
      body: z.record(z.string(), z.unknown()).optional(),
      response: { 200: messageSchema },
    },
    handler: async (req) => {
      const { provider, token, notification } = req.params;
      if (!knows(provider, token)) throw notFound('Not found');
      const body = req.body ?? {};
      if (notification === 'delivery') {
        const report = readAtDeliveryReport(body);
        const changed = report ? await smsReplies.recordDeliveryReport(ctx, { provider, ...report }) : false;
        return done(changed ? 'Delivery report recorded' : 'Delivery report changed nothing');
      }
      if (notification === 'incoming') {
        const sms = readAtIncomingMessage(body);
        const reply = sms ? await smsReplies.receiveSms(ctx, { provider, ...sms }) : null;
        if (sms && !reply) ctx.log.info({ provider }, 'an SMS from a number no account wrote to was dropped');
        return done(reply ? 'Reply received' : 'No account wrote to this number');
      }
      const optOut = readAtOptOut(body);
      const changed = optOut ? await smsReplies.optOutOfSender(ctx, provider, optOut.phoneNumber, optOut.senderId) : 0;
      return done(`Opted out for ${changed} account${changed === 1 ? '' : 's'}`);
    },
  });
}
