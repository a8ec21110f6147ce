import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import {
  createMerchantUserBodySchema,
  MERCHANT_MESSAGES,
  merchantBodySchema,
  merchantSchema,
  merchantUserSchema,
  transactionSchema,
  transactionSearchBodySchema,
  transactionTotalSchema,
  transactionTypeSchema,
  updateMerchantBodySchema,
  uuidBodySchema,
} from '../../../shared/api/merchants.schema';
import type { AppContext } from '../../context';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { findTransactionTypes, searchMerchantTransactions } from './merchant-transactions.service';
import * as merchantsService from './merchants.service';

const merchantParams = z.object({ uuid: z.string().max(64) });
const merchantUsersParams = z.object({ merchantUuid: z.string().max(64) });

/** docs/merchants.md; the role table (src/shared/roles.ts) narrows each call past the guard's audiences. */
export function registerMerchantsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['merchants'];

  r.get('/api/merchant/list', {
    schema: { tags, response: { 200: envelopeSchema(z.array(merchantSchema)) } },
    onRequest: guard('merchant.read'),
    handler: async (req) => ok('OK', await merchantsService.findMerchants(ctx, getSignedInUser(req))),
  });

  r.get('/api/merchant/my-merchants', {
    schema: { tags, response: { 200: envelopeSchema(z.array(merchantSchema)) } },
    onRequest: guard('merchant.read'),
    handler: async (req) => ok('OK', await merchantsService.findAssignedMerchants(ctx, getSignedInUser(req).id)),
  });

  r.post('/api/merchant/create', {
    schema: { tags, body: merchantBodySchema, response: { 200: envelopeSchema(merchantSchema) } },
    onRequest: guard('merchant.register'),
    handler: async (req) => ok(MERCHANT_MESSAGES.registered, await merchantsService.registerMerchant(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/merchant/update', {
    schema: { tags, body: updateMerchantBodySchema, response: { 200: envelopeSchema(merchantSchema) } },
    onRequest: guard('merchant.update'),
    handler: async (req) => ok(MERCHANT_MESSAGES.updated, await merchantsService.updateMerchant(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/merchant/delete', {
    schema: { tags, body: uuidBodySchema, response: { 200: messageSchema } },
    onRequest: guard('merchant.delete'),
    handler: async (req) => {
      await merchantsService.deleteMerchant(ctx, getSignedInUser(req), req.body.uuid);
      return done(MERCHANT_MESSAGES.deleted);
    },
  });

  r.get('/api/admin/merchants/:uuid', {
    schema: { tags, params: merchantParams, response: { 200: envelopeSchema(merchantSchema) } },
    onRequest: guard('merchant.read'),
    handler: async (req) => ok('OK', await merchantsService.getMerchant(ctx, getSignedInUser(req), req.params.uuid)),
  });

  r.get('/api/merchant/profile', {
    schema: { tags, response: { 200: envelopeSchema(merchantSchema) } },
    onRequest: guard('merchant'),
    handler: async (req) => ok('OK', await merchantsService.getOwnMerchant(ctx, getSignedInUser(req))),
  });

  r.get('/api/merchant/:merchantUuid/users', {
    schema: { tags, params: merchantUsersParams, response: { 200: envelopeSchema(z.array(merchantUserSchema)) } },
    onRequest: guard('merchant.read', 'merchant'),
    handler: async (req) => ok('OK', await merchantsService.findMerchantUsers(ctx, getSignedInUser(req), req.params.merchantUuid)),
  });

  r.post('/api/merchant/user/create', {
    schema: { tags, body: createMerchantUserBodySchema, response: { 200: envelopeSchema(merchantUserSchema) } },
    onRequest: guard('merchantUser.manage'),
    handler: async (req) =>
      ok(MERCHANT_MESSAGES.userCreated, await merchantsService.createMerchantUser(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/merchant/user/delete', {
    schema: { tags, body: uuidBodySchema, response: { 200: messageSchema } },
    onRequest: guard('merchantUser.manage'),
    handler: async (req) => {
      await merchantsService.deleteMerchantUser(ctx, getSignedInUser(req), req.body.uuid);
      return done(MERCHANT_MESSAGES.userDeleted);
    },
  });

  r.get('/api/merchant/transaction-types', {
    schema: { tags, response: { 200: envelopeSchema(z.array(transactionTypeSchema)) } },
    onRequest: guard('transaction.read', 'merchant'),
    handler: async () => ok('OK', findTransactionTypes()),
  });

  r.post('/api/merchant/transactions', {
    schema: {
      tags,
      body: transactionSearchBodySchema,
      response: { 200: envelopeSchema(z.array(transactionSchema)).extend({ totals: z.array(transactionTotalSchema) }) },
    },
    onRequest: guard('transaction.read', 'merchant'),
    handler: async (req) => {
      const found = await searchMerchantTransactions(ctx, getSignedInUser(req), req.body);
      return { ...ok(found.transactions.length > 0 ? 'OK' : MERCHANT_MESSAGES.noTransactions, found.transactions), totals: found.totals };
    },
  });
}
