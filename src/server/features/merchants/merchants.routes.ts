import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/merchants.calls';
import { MERCHANT_MESSAGES } from '../../../shared/api/merchants.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { findTransactionTypes, searchMerchantTransactions } from './merchant-transactions.service';
import * as merchantsService from './merchants.service';

/** docs/merchants.md; the role table (src/shared/roles.ts) narrows each call past the guard's audiences. */
export function registerMerchantsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['merchants'];
  // Each audience's route options once: who may call is read here, what each call does below.
  const merchantReaders = { tags, onRequest: guard('merchant.read') };
  const merchantRegistrars = { tags, onRequest: guard('merchant.register') };
  const merchantUpdaters = { tags, onRequest: guard('merchant.update') };
  const merchantDeleters = { tags, onRequest: guard('merchant.delete') };
  const merchantUsers = { tags, onRequest: guard('merchant') };
  const merchantReadersAndUsers = { tags, onRequest: guard('merchant.read', 'merchant') };
  const merchantUserManagers = { tags, onRequest: guard('merchantUser.manage') };
  const transactionReaders = { tags, onRequest: guard('transaction.read', 'merchant') };

  registerCall(app, calls.findMerchants, {
    ...merchantReaders,
    handler: async (req) => ok('OK', await merchantsService.findMerchants(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.findMyMerchants, {
    ...merchantReaders,
    handler: async (req) => ok('OK', await merchantsService.findAssignedMerchants(ctx, getSignedInUser(req).id)),
  });

  registerCall(app, calls.registerMerchant, {
    ...merchantRegistrars,
    handler: async (req) => ok(MERCHANT_MESSAGES.registered, await merchantsService.registerMerchant(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.updateMerchant, {
    ...merchantUpdaters,
    handler: async (req) => ok(MERCHANT_MESSAGES.updated, await merchantsService.updateMerchant(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.deleteMerchant, {
    ...merchantDeleters,
    handler: async (req) => {
      await merchantsService.deleteMerchant(ctx, getSignedInUser(req), req.body.uuid);
      return done(MERCHANT_MESSAGES.deleted);
    },
  });

  registerCall(app, calls.getMerchant, {
    ...merchantReaders,
    handler: async (req) => ok('OK', await merchantsService.getMerchant(ctx, getSignedInUser(req), req.params.uuid)),
  });

  registerCall(app, calls.getOwnMerchant, {
    ...merchantUsers,
    handler: async (req) => ok('OK', await merchantsService.getOwnMerchant(ctx, getSignedInUser(req))),
  });

  registerCall(app, calls.findMerchantUsers, {
    ...merchantReadersAndUsers,
    handler: async (req) => ok('OK', await merchantsService.findMerchantUsers(ctx, getSignedInUser(req), req.params.merchantUuid)),
  });

  registerCall(app, calls.createMerchantUser, {
    ...merchantUserManagers,
    handler: async (req) =>
      ok(MERCHANT_MESSAGES.userCreated, await merchantsService.createMerchantUser(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.deleteMerchantUser, {
    ...merchantUserManagers,
    handler: async (req) => {
      await merchantsService.deleteMerchantUser(ctx, getSignedInUser(req), req.body.uuid);
      return done(MERCHANT_MESSAGES.userDeleted);
    },
  });

  registerCall(app, calls.findTransactionTypes, {
    ...transactionReaders,
    handler: async () => ok('OK', findTransactionTypes()),
  });

  registerCall(app, calls.searchTransactions, {
    ...transactionReaders,
    handler: async (req) => {
      const found = await searchMerchantTransactions(ctx, getSignedInUser(req), req.body);
      return { ...ok(found.transactions.length > 0 ? 'OK' : MERCHANT_MESSAGES.noTransactions, found.transactions), totals: found.totals };
    },
  });
}
