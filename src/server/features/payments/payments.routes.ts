import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../shared/api/envelope';
import { notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import {
  callbackAnswerSchema,
  paymentReferenceSchema,
  sandboxCheckoutQuerySchema,
  sandboxDecisionSchema,
  transactionSchema,
  transactionsQuerySchema,
} from './payments.schema';
import { handlePaymentCallback } from './payment-callbacks';
import { decideSandboxPayment, getSandboxTransaction } from './sandbox-checkout';
import { buildCheckoutPath, renderCheckoutPage } from './sandbox-checkout-page';
import { findTransactions, toTransaction } from './transaction-list';

const CALLBACK_MESSAGES = {
  settled: 'OK',
  duplicate: 'Already processed',
  already_settled: 'Already settled',
  ignored: 'OK',
  unknown_reference: 'Unknown reference',
} as const;

const CHECKOUT_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Payment callbacks (every mode: providers call them) and the sandbox checkout page (the sandbox provider's, and
 * featured templates' test runs, which use the sandbox whatever the provider).
 */
export function registerPaymentsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { configured: provider, sandbox } = ctx.paymentProviders;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];

  // The signature covers the exact bytes sent, so this route must see them unparsed: an encapsulated context
  // whose only content-type parser keeps the body as a Buffer. Other routes keep the app's JSON and form parsers.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post('/api/payments/callback/:provider', {
      schema: {
        tags,
        summary: 'Payment provider callback (webhook): verified, stored once by event id, settles a PENDING transaction',
        params: z.object({ provider: z.string().max(40) }),
        response: { 200: callbackAnswerSchema },
      },
      handler: async (req) => {
        if (req.params.provider !== provider.kind) throw notFound('Unknown payment provider');
        const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const result = await handlePaymentCallback(ctx, provider, { rawBody, headers: req.headers });
        return done(CALLBACK_MESSAGES[result.outcome]);
      },
    });
  });

  const referenceParams = z.object({ reference: paymentReferenceSchema });

  r.get('/payments/sandbox/:reference', {
    schema: {
      tags,
      summary: 'Sandbox checkout page (HTML) with Approve and Decline; needs the token its link carries',
      params: referenceParams,
      querystring: sandboxCheckoutQuerySchema,
    },
    handler: async (req, reply) => {
      const row = toTransaction(await getSandboxTransaction(ctx, req.params.reference, req.query.token));
      return (
        reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('content-security-policy', CHECKOUT_CSP)
          .header('x-frame-options', 'DENY')
          // The address carries the checkout token: never hand it to another site.
          .header('referrer-policy', 'no-referrer')
          .send(renderCheckoutPage(row, req.query.token!))
      );
    },
  });

  r.post('/payments/sandbox/:reference/decide', {
    schema: {
      tags,
      summary: "Approve or decline a sandbox payment (with its checkout token): signs a callback and settles it like a provider's would",
      params: referenceParams,
      body: sandboxDecisionSchema,
      response: { 200: envelopeSchema(z.object({ reference: z.string(), status: z.string() })) },
    },
    handler: async (req, reply) => {
      const status = await decideSandboxPayment(ctx, sandbox, req.params.reference, req.body.token, req.body.decision);
      // The page's form posts urlencoded: answer it Post/Redirect/Get, back to the page showing the outcome.
      if (req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
        return reply.redirect(buildCheckoutPath(req.params.reference, req.body.token!), 303);
      }
      return ok('OK', { reference: req.params.reference, status });
    },
  });
}

/** The owner's payment transactions (console). */
export function registerTransactionsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/payments/transactions', {
    schema: {
      tags: ['payments'],
      summary: "The owner's payment transactions (an app's with ?appId=), newest first; admins see everyone's",
      querystring: transactionsQuerySchema,
      response: { 200: envelopeSchema(z.array(transactionSchema)) },
    },
    onRequest: guard(),
    handler: async (req) => ok('OK', await findTransactions(ctx, getSignedInUser(req), req.query)),
  });
}
