import { z } from 'zod';
import { TRANSACTION_STATUSES, transactionMetadataSchema } from '../../../shared/api/merchants.schema';

// API shapes of payments. They import only zod and shared schemas, so they can move to src/shared/api when the console needs them.

export const transactionSchema = z.object({
  id: z.string(),
  reference: z.string(),
  transactionType: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  appId: z.string().nullable(),
  shortcode: z.string(),
  mobile: z.string(),
  network: z.string(),
  provider: z.string(),
  /** Only what viewers may read: never the sandbox checkout's secret or link, nor the event that settled it. */
  metadata: transactionMetadataSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionsQuerySchema = z.object({
  appId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** Our references: `DF-` and 20 hex digits (80 random bits). */
export const paymentReferenceSchema = z.string().regex(/^DF-[0-9A-F]{20}$/, 'Unknown payment reference');

/** The sandbox checkout's secret, from its link (`?token=`) and the page's form; a missing one is refused like a wrong one. */
const checkoutTokenSchema = z.string().max(100).optional();

export const sandboxCheckoutQuerySchema = z.object({ token: checkoutTokenSchema });

export const sandboxDecisionSchema = z.object({ decision: z.enum(['approve', 'decline']), token: checkoutTokenSchema });

export const callbackAnswerSchema = z.object({ status: z.enum(['00']), message: z.string() });
