import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountQuerySchema,
  activateSubscriptionBodySchema,
  adminSubscriptionSchema,
  changePlanBodySchema,
  creditAccountBodySchema,
  extendSubscriptionBodySchema,
  makePaymentBodySchema,
  paymentHistoryQuerySchema,
  paymentHistoryReplySchema,
  paymentReplySchema,
  subscriptionSchema,
  subscriptionTypesSchema,
} from '../../../shared/api/billing.schema';
import { envelopeSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import {
  activateSubscription,
  changePlan,
  creditAccount,
  extendSubscription,
  findPaymentHistory,
  getAccountSubscription,
  getCurrentSubscription,
  getSubscriptionTypes,
  makePayment,
} from './billing.service';

/**
 * Billing (docs/billing.md): the Account Billing page's calls for everyone signed in, and the admins' view and
 * hand changes (console). buildApp runs the timer that mails period reminders and settles stale payments, and the
 * usage tallies' flush.
 */
export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['billing'];
  const signedIn = guard();
  const subscriptionReaders = guard('subscription.read');
  const subscriptionManagers = guard('subscription.manage');

  r.get('/api/subscription/current', {
    schema: { tags, response: { 200: envelopeSchema(subscriptionSchema) } },
    onRequest: signedIn,
    handler: async (req) => ok('OK', await getCurrentSubscription(ctx, getSignedInUser(req))),
  });

  r.get('/api/subscription/types', {
    schema: { tags, response: { 200: envelopeSchema(subscriptionTypesSchema) } },
    onRequest: signedIn,
    handler: async () => ok('OK', getSubscriptionTypes()),
  });

  r.post('/api/subscription/makePayment', {
    schema: { tags, body: makePaymentBodySchema, response: { 200: paymentReplySchema } },
    onRequest: signedIn,
    handler: async (req) => makePayment(ctx, getSignedInUser(req), req.body),
  });

  r.post('/api/subscription/creditAccount', {
    schema: { tags, body: creditAccountBodySchema, response: { 200: paymentReplySchema } },
    onRequest: signedIn,
    handler: async (req) => creditAccount(ctx, getSignedInUser(req), req.body),
  });

  r.post('/api/subscription/changePlan', {
    schema: { tags, body: changePlanBodySchema, response: { 200: paymentReplySchema } },
    onRequest: signedIn,
    handler: async (req) => changePlan(ctx, getSignedInUser(req), req.body),
  });

  r.get('/api/subscription/paymentHistory', {
    schema: { tags, querystring: paymentHistoryQuerySchema, response: { 200: paymentHistoryReplySchema } },
    onRequest: signedIn,
    handler: async (req) => ({ status: '00' as const, message: 'OK', ...(await findPaymentHistory(ctx, getSignedInUser(req), req.query)) }),
  });

  r.get('/api/subscription/account', {
    schema: { tags, querystring: accountQuerySchema, response: { 200: envelopeSchema(adminSubscriptionSchema) } },
    onRequest: subscriptionReaders,
    handler: async (req) => ok('OK', await getAccountSubscription(ctx, req.query)),
  });

  r.post('/api/subscription/extend', {
    schema: { tags, body: extendSubscriptionBodySchema, response: { 200: envelopeSchema(subscriptionSchema) } },
    onRequest: subscriptionManagers,
    handler: async (req) => ok('Subscription extended', await extendSubscription(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/api/subscription/activate', {
    schema: { tags, body: activateSubscriptionBodySchema, response: { 200: envelopeSchema(subscriptionSchema) } },
    onRequest: subscriptionManagers,
    handler: async (req) => ok('Subscription activated', await activateSubscription(ctx, getSignedInUser(req), req.body)),
  });
}
