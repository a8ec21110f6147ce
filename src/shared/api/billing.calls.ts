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
} from './billing.schema';
import { defineCall } from './contract';
import { envelopeSchema } from './envelope';

// Billing's calls (src/shared/api/contract.ts): the server registers them, the console calls them. Their keys
// sit below ['billing'], which a payment or an admin's change invalidates whole.

/** GET /api/subscription/current: the signed-in account's subscription. */
export const getSubscription = defineCall({
  method: 'GET',
  path: '/api/subscription/current',
  reply: envelopeSchema(subscriptionSchema),
  key: ['billing', 'subscription'],
});

/** GET /api/subscription/types: the plans that can be paid for. */
export const findSubscriptionTypes = defineCall({
  method: 'GET',
  path: '/api/subscription/types',
  reply: envelopeSchema(subscriptionTypesSchema),
  key: ['billing', 'types'],
});

/** POST /api/subscription/makePayment: '01' with the payment page's `redirectUrl`. */
export const makePayment = defineCall({
  method: 'POST',
  path: '/api/subscription/makePayment',
  body: makePaymentBodySchema,
  reply: paymentReplySchema,
});

/** POST /api/subscription/creditAccount: a custom amount into the balance. */
export const creditAccount = defineCall({
  method: 'POST',
  path: '/api/subscription/creditAccount',
  body: creditAccountBodySchema,
  reply: paymentReplySchema,
});

/** POST /api/subscription/changePlan: '00' when the balance covers the plan's price, else '01' to pay it. */
export const changePlan = defineCall({
  method: 'POST',
  path: '/api/subscription/changePlan',
  body: changePlanBodySchema,
  reply: paymentReplySchema,
});

/** GET /api/subscription/paymentHistory: one page, newest first, with the page, its size and the total. */
export const findPaymentHistory = defineCall({
  method: 'GET',
  path: '/api/subscription/paymentHistory',
  query: paymentHistoryQuerySchema,
  reply: paymentHistoryReplySchema,
  key: ['billing', 'history'],
});

/** GET /api/subscription/account?email= (admins): that account's subscription and its recorded changes. */
export const getAccountSubscription = defineCall({
  method: 'GET',
  path: '/api/subscription/account',
  query: accountQuerySchema,
  reply: envelopeSchema(adminSubscriptionSchema),
  key: ['billing', 'account', ':email'],
});

/** POST /api/subscription/extend (admins): days more on the period. */
export const extendSubscription = defineCall({
  method: 'POST',
  path: '/api/subscription/extend',
  body: extendSubscriptionBodySchema,
  reply: envelopeSchema(subscriptionSchema),
});

/** POST /api/subscription/activate (admins): a plan from now. */
export const activateSubscription = defineCall({
  method: 'POST',
  path: '/api/subscription/activate',
  body: activateSubscriptionBodySchema,
  reply: envelopeSchema(subscriptionSchema),
});
