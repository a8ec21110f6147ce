import type { Db } from '../../../db/client';
import type { transactions } from '../../../db/schema';
import type { AppContext } from '../../context';
import { CREDIT_TRANSACTION_TYPE, PLAN_TRANSACTION_TYPE, settleCreditPayment, settlePlanPayment } from '../billing/plan-settlement';
import { SHORTCODE_TRANSACTION_TYPE, settleShortcodePayment } from '../shortcodes/purchase-settlement';
import type { TransactionStatus } from './payments.schema';

export type SettledTransaction = Omit<typeof transactions.$inferSelect, 'status'> & { status: TransactionStatus };

/** Work left for after the settlement's commit: cache invalidations, mail. */
export type AfterSettlement = () => Promise<void>;

/**
 * What a payment does for what it paid for, run inside the database transaction that settles it (SUCCESS or
 * FAILED, once, from PENDING), so it is applied exactly once and never without its settlement.
 */
export type SettlementHandler = (ctx: AppContext, tx: Db, transaction: SettledTransaction) => Promise<AfterSettlement | undefined>;

/**
 * Settlement handlers by transaction type (a plan's period, a credit to the balance, a shortcode purchase).
 * `paymentprompt` has none: the app that asked for the payment reads
 * its transaction.
 */
export const SETTLEMENT_HANDLERS: Partial<Record<string, SettlementHandler>> = {
  [SHORTCODE_TRANSACTION_TYPE]: settleShortcodePayment,
  [PLAN_TRANSACTION_TYPE]: settlePlanPayment,
  [CREDIT_TRANSACTION_TYPE]: settleCreditPayment,
};
