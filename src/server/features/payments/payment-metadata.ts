/** A payment transaction's row and what it keeps in `metadata`, read and written by every payment flow. */
import { sql, type SQL } from 'drizzle-orm';
import { transactions } from '../../../db/schema';

export type TransactionRow = typeof transactions.$inferSelect;

/** What a transaction started by a payment prompt keeps in `metadata`. */
export interface PaymentMetadata {
  provider?: string;
  mobile?: string;
  network?: string;
  sessionId?: string;
  providerReference?: string;
  checkoutUrl?: string;
  /** The sandbox checkout's secret (in checkoutUrl): the page and its Approve need it with the reference. */
  checkoutToken?: string;
  error?: string;
  settledBy?: string;
  failureReason?: string;
}

/** Adds `patch` to a transaction's metadata in the same statement (an UPDATE's `set`), keeping its other keys. */
export function mergeMetadata(patch: PaymentMetadata): SQL {
  return sql`${transactions.metadata} || ${JSON.stringify(patch)}::jsonb`;
}
