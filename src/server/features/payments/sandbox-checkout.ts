/** The sandbox checkout: its page's transaction (behind the link's token) and its Approve or Decline. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { transactions } from '../../../db/schema';
import type { SandboxPaymentProvider } from '../../../integrations/payments/sandbox-payments';
import { notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { handlePaymentCallback } from './payment-callbacks';
import type { PaymentMetadata, TransactionRow } from './payment-metadata';
import type { TransactionStatus } from '../../../shared/api/merchants.schema';

/** Constant-time comparison of a token given with one kept (hashed first, so lengths leak nothing either). */
function isSameToken(given: string, kept: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(kept));
}

/**
 * A sandbox transaction for its checkout page: public, but only with the checkout token its link carries (a
 * reference alone shows up in USSD screens, logs and SMS). A wrong or missing token answers as an unknown
 * reference does, so it tells nothing of which references exist.
 */
export async function getSandboxTransaction(ctx: AppContext, reference: string, token: string | undefined): Promise<TransactionRow> {
  const [row] = await ctx.db.select().from(transactions).where(eq(transactions.reference, reference));
  const meta = row?.metadata as PaymentMetadata | undefined;
  if (!row || meta?.provider !== 'sandbox' || !meta.checkoutToken || !token || !isSameToken(token, meta.checkoutToken)) {
    throw notFound('Payment not found: open the checkout link exactly as it was given (with its token)');
  }
  return row;
}

/**
 * The sandbox checkout's Approve or Decline: builds the callback the sandbox provider signs and hands it to the
 * same handler a real provider's callback reaches. Deciding an already settled payment changes nothing.
 */
export async function decideSandboxPayment(
  ctx: AppContext,
  provider: SandboxPaymentProvider,
  reference: string,
  token: string | undefined,
  decision: 'approve' | 'decline',
): Promise<TransactionStatus> {
  const row = await getSandboxTransaction(ctx, reference, token);
  if (row.status !== 'PENDING') return row.status as TransactionStatus;
  const result = await handlePaymentCallback(
    ctx,
    provider,
    provider.buildCallback(reference, decision, { amount: Number(row.amount), currency: row.currency }),
  );
  return result.status ?? (row.status as TransactionStatus);
}
