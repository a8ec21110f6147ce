import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  createMerchantUserBodySchema,
  merchantBodySchema,
  merchantSchema,
  merchantUserSchema,
  transactionSchema,
  transactionSearchBodySchema,
  transactionTotalSchema,
  transactionTypeSchema,
  updateMerchantBodySchema,
  uuidBodySchema,
} from './merchants.schema';

// The merchants' calls (src/shared/api/contract.ts): the server registers them, the console calls them. Their
// keys sit below ['merchants'], which a change to a merchant or its users invalidates whole. Some paths have no
// `/api` prefix, as docs/merchants.md names them.

const merchantUuidParamsSchema = z.object({ uuid: z.string().max(64) });
const merchantUsersParamsSchema = z.object({ merchantUuid: z.string().max(64) });

/** GET /api/merchant/list: every merchant the caller may read (All Merchants; the clone dialog's picker). */
export const findMerchants = defineCall({
  method: 'GET',
  path: '/api/merchant/list',
  reply: envelopeSchema(z.array(merchantSchema)),
  key: ['merchants', 'list'],
});

/** GET /api/merchant/my-merchants: the merchants assigned to the signed-in admin. */
export const findMyMerchants = defineCall({
  method: 'GET',
  path: '/api/merchant/my-merchants',
  reply: envelopeSchema(z.array(merchantSchema)),
  key: ['merchants', 'mine'],
});

export const registerMerchant = defineCall({
  method: 'POST',
  path: '/api/merchant/create',
  body: merchantBodySchema,
  reply: envelopeSchema(merchantSchema),
});

export const updateMerchant = defineCall({
  method: 'POST',
  path: '/merchant/update',
  body: updateMerchantBodySchema,
  reply: envelopeSchema(merchantSchema),
});

export const deleteMerchant = defineCall({ method: 'POST', path: '/merchant/delete', body: uuidBodySchema, reply: messageSchema });

/** GET /api/admin/merchants/{uuid}: one merchant, '04' when the caller may not see it. */
export const getMerchant = defineCall({
  method: 'GET',
  path: '/api/admin/merchants/:uuid',
  params: merchantUuidParamsSchema,
  reply: envelopeSchema(merchantSchema),
  key: ['merchants', 'one', ':uuid'],
});

/** GET /api/merchant/profile: the signed-in merchant user's own company. */
export const getOwnMerchant = defineCall({
  method: 'GET',
  path: '/api/merchant/profile',
  reply: envelopeSchema(merchantSchema),
  key: ['merchants', 'own'],
});

export const findMerchantUsers = defineCall({
  method: 'GET',
  path: '/api/merchant/:merchantUuid/users',
  params: merchantUsersParamsSchema,
  reply: envelopeSchema(z.array(merchantUserSchema)),
  key: ['merchants', 'users', ':merchantUuid'],
});

export const createMerchantUser = defineCall({
  method: 'POST',
  path: '/api/merchant/user/create',
  body: createMerchantUserBodySchema,
  reply: envelopeSchema(merchantUserSchema),
});

export const deleteMerchantUser = defineCall({ method: 'POST', path: '/merchant/user/delete', body: uuidBodySchema, reply: messageSchema });

export const findTransactionTypes = defineCall({
  method: 'GET',
  path: '/api/merchant/transaction-types',
  reply: envelopeSchema(z.array(transactionTypeSchema)),
  key: ['merchants', 'transaction-types'],
});

/** POST /api/merchant/transactions: the transactions found, and their totals per status and currency. */
export const searchTransactions = defineCall({
  method: 'POST',
  path: '/api/merchant/transactions',
  body: transactionSearchBodySchema,
  reply: envelopeSchema(z.array(transactionSchema)).extend({ totals: z.array(transactionTotalSchema) }),
});
