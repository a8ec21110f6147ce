import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/billing.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as billingService from './billing.service';

/**
 * Billing (docs/billing.md): the Account Billing page's calls for everyone signed in, and the admins' view and
 * hand changes (console). buildApp runs the timer that mails period reminders and settles stale payments, and the
 * usage tallies' flush.
 */
export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['billing'];
  const signedIn = { tags, onRequest: guard() };
  const subscriptionReaders = { tags, onRequest: guard('subscription.read') };
  const subscriptionManagers = { tags, onRequest: guard('subscription.manage') };

  registerCall(app, calls.getSubscription, {
    ...signedIn,
    handler: async (req) => ok('OK', await billingService.getCurrentSubscription(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.findSubscriptionTypes, {
    ...signedIn,
    handler: async () => ok('OK', billingService.getSubscriptionTypes()),
  });

  registerCall(app, calls.makePayment, {
    ...signedIn,
    handler: async (req) => billingService.makePayment(ctx, getSignedInUser(req), req.body),
  });

  registerCall(app, calls.creditAccount, {
    ...signedIn,
    handler: async (req) => billingService.creditAccount(ctx, getSignedInUser(req), req.body),
  });

  registerCall(app, calls.changePlan, {
    ...signedIn,
    handler: async (req) => billingService.changePlan(ctx, getSignedInUser(req), req.body),
  });

  registerCall(app, calls.findPaymentHistory, {
    ...signedIn,
    handler: async (req) => ({
      status: '00' as const,
      message: 'OK',
      ...(await billingService.findPaymentHistory(ctx, getSignedInUser(req), req.query)),
    }),
  });

  registerCall(app, calls.getAccountSubscription, {
    ...subscriptionReaders,
    handler: async (req) => ok('OK', await billingService.getAccountSubscription(ctx, req.query)),
  });

  registerCall(app, calls.extendSubscription, {
    ...subscriptionManagers,
    handler: async (req) => ok('Subscription extended', await billingService.extendSubscription(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.activateSubscription, {
    ...subscriptionManagers,
    handler: async (req) => ok('Subscription activated', await billingService.activateSubscription(ctx, getSignedInUser(req), req.body)),
  });
}
