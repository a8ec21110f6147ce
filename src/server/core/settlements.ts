/**
 * The settlement registry: what a settled payment does for what it paid for, by transaction type. The core
 * holds the types, so payments, billing and shortcodes share them without importing each other; billing and shortcodes give their handlers when buildApp builds AppContext (ctx.settlements).
 */
import type { Db } from '../../db/client';
import type { transactions } from '../../db/schema';
import { TRANSACTION_TYPES, type TransactionStatus } from '../../shared/api/merchants.schema';

/** What a payment pays for, stored as its transaction's `transaction_type`: `paymentprompt`, `plan`, `credit`, `shortcode`. */
export type TransactionType = (typeof TRANSACTION_TYPES)[number]['value'];

/** An app's payment prompt: it has no settlement handler, the app that asked for the payment reads its transaction. */
export const PAYMENT_TRANSACTION_TYPE = 'paymentprompt' satisfies TransactionType;

/** The transaction type of shortcode purchases and renewals. */
export const SHORTCODE_TRANSACTION_TYPE = 'shortcode' satisfies TransactionType;

/** What a shortcode payment keeps in its transaction's metadata (billing's payment history reads it too). */
export interface ShortcodePaymentMetadata {
  purchaseId: string;
  leaseCount: number;
  kind: 'buy' | 'renew';
  /** The amount in USD and the units of the charged currency per USD, when a rate was set (getUsdRate). */
  amountUsd?: number;
  usdRate?: number;
}

/** The transaction types whose payment acts on what it paid for once settled (a plan's period, a credit, a shortcode). */
export type SettledTransactionType = Exclude<TransactionType, typeof PAYMENT_TRANSACTION_TYPE>;

export type SettledTransaction = Omit<typeof transactions.$inferSelect, 'status'> & { status: TransactionStatus };

/** Work left for after the settlement's commit: cache invalidations, mail. */
export type AfterSettlement = () => Promise<void>;

/**
 * What a payment does for what it paid for, run inside the database transaction that settles it (SUCCESS or
 * FAILED, once, from PENDING), so it is applied exactly once and never without its settlement.
 */
export type SettlementHandler = (tx: Db, transaction: SettledTransaction) => Promise<AfterSettlement | undefined>;

/**
 * One handler for each transaction type that has one, given by the features that sell (billing, shortcodes) when
 * buildApp wires the app: payments never imports them, and a new type breaks the build until it is handled.
 */
export type SettlementHandlers = Readonly<Record<SettledTransactionType, SettlementHandler>>;

/** A transaction whose stored type is none of TRANSACTION_TYPES: no code of ours started it. */
export class UnknownTransactionTypeError extends Error {
  constructor(readonly transactionType: string) {
    super(`Unknown transaction type: ${transactionType}`);
    this.name = 'UnknownTransactionTypeError';
  }
}

const isTransactionType = (value: string): value is TransactionType => TRANSACTION_TYPES.some((type) => type.value === value);

/**
 * The handler for a stored transaction type, or undefined for one that has none (`paymentprompt`). Throws
 * UnknownTransactionTypeError for a type that is not ours.
 */
export function getSettlementHandler(handlers: SettlementHandlers, transactionType: string): SettlementHandler | undefined {
  if (!isTransactionType(transactionType)) throw new UnknownTransactionTypeError(transactionType);
  return transactionType === PAYMENT_TRANSACTION_TYPE ? undefined : handlers[transactionType];
}
