/**
 * Settling a payment: a provider's callback (or the sandbox checkout's decision, signed as one), or, for a payment
 * still PENDING, the provider's verify call and expiry. Each settles from PENDING once, with the transaction
 * type's settlement handler (settlements.ts) in the same database transaction.
 */
import { and, eq } from 'drizzle-orm';
import { paymentEvents, transactions } from '../../../db/schema';
import type { CallbackRequest, ConfirmedCharge, PaymentProvider, VerifiedCallback } from '../../../integrations/payments/payment-provider';
import { AppError, unauthenticated } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { queueWebhookEvent } from '../webhooks/webhooks.service';
import { mergeMetadata, type PaymentMetadata, type TransactionRow } from './payment-metadata';
import type { TransactionStatus } from '../../../shared/api/merchants.schema';
import {
  getSettlementHandler,
  UnknownTransactionTypeError,
  type AfterSettlement,
  type SettledTransaction,
  type SettlementHandler,
} from '../../core/settlements';

/** The `payment.settled` webhook event of an app's payment (docs/webhooks.md); its id is the transaction's, so it is sent once. */
function toPaymentSettledEvent(row: SettledTransaction, meta: PaymentMetadata, failureReason: string | null, settledAt: Date) {
  return {
    appId: row.appId!,
    eventId: `evt_pay_${row.id.replaceAll('-', '')}`,
    eventType: 'payment.settled' as const,
    occurredAt: settledAt,
    data: {
      reference: row.reference,
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      mobile: meta.mobile ?? null,
      network: meta.network ?? null,
      sessionId: meta.sessionId || null,
      failureReason,
      createdAt: row.createdAt.toISOString(),
      settledAt: settledAt.toISOString(),
    },
  };
}

export type CallbackOutcome = 'settled' | 'duplicate' | 'already_settled' | 'ignored' | 'unknown_reference';

export interface CallbackResult {
  outcome: CallbackOutcome;
  reference: string;
  /** The transaction's status after this callback, when there is one. */
  status?: TransactionStatus;
}

/**
 * Asks the provider for the charge behind a success callback (Paystack's verify endpoint), for a payment that
 * can still settle: a redelivery or an unknown reference needs no question. When the provider cannot answer,
 * or the charge is not final there yet, nothing is stored and the callback answers 502, so the provider sends
 * it again later.
 */
async function confirmSuccess(ctx: AppContext, provider: PaymentProvider, event: VerifiedCallback): Promise<ConfirmedCharge | undefined> {
  if (event.status !== 'SUCCESS' || !provider.confirmCharge) return undefined;
  const [row] = await ctx.db
    .select({ status: transactions.status, metadata: transactions.metadata })
    .from(transactions)
    .where(eq(transactions.reference, event.reference));
  if (row?.status !== 'PENDING' || (row.metadata as PaymentMetadata).provider !== provider.kind) return undefined;
  let confirmed: ConfirmedCharge;
  try {
    confirmed = await provider.confirmCharge(event.reference);
  } catch (err) {
    ctx.log.warn(
      { err, provider: provider.kind, reference: event.reference },
      'payment provider unreachable while confirming a success callback',
    );
    throw new AppError('upstream', 'The payment provider could not confirm the charge. Send the callback again later.');
  }
  if (confirmed.status === 'PENDING')
    throw new AppError('upstream', 'The payment provider does not report the charge as final yet. Send the callback again later.');
  return confirmed;
}

/**
 * Why a success may not settle the transaction as SUCCESS, or null: the amount and currency paid must be
 * stated (by the provider's own record when it keeps one, else by the signed callback) and be the
 * transaction's.
 */
function findUnpaidReason(row: TransactionRow, event: VerifiedCallback, confirmed: ConfirmedCharge | undefined): string | null {
  if (confirmed?.status === 'FAILED') return confirmed.reason ?? 'the payment provider reports the charge unpaid';
  const paid = confirmed ?? event;
  if (paid.amount === undefined || !paid.currency) return 'the success did not state the amount and currency paid';
  if (Math.abs(paid.amount - Number(row.amount)) >= 0.005 || paid.currency !== row.currency)
    return `paid ${paid.currency} ${paid.amount} instead of ${row.currency} ${row.amount}`;
  return null;
}

/**
 * A provider's callback: verified (a tampered or unsigned one is refused with 401 and changes nothing), a
 * success confirmed with the provider where it can be (confirmSuccess), stored once by its event id (a
 * redelivery answers `duplicate` and settles nothing), then the transaction is settled only from PENDING, and
 * as SUCCESS only for its own amount and currency (else FAILED with `failureReason`). Storing and settling
 * share one database transaction, so a crash between them cannot leave an event recorded but its payment
 * unsettled. The transaction type's settlement handler (settlements.ts: a shortcode purchase's activation) runs
 * in that same database transaction, so what a payment pays for is applied exactly once, with its settlement.
 */
export async function handlePaymentCallback(ctx: AppContext, provider: PaymentProvider, request: CallbackRequest): Promise<CallbackResult> {
  const event = provider.verifyCallback(request);
  if (!event) throw unauthenticated('Invalid signature');
  return settleEvent(ctx, provider, event, await confirmSuccess(ctx, provider, event));
}

/**
 * Stores a verified event once and settles its transaction from PENDING (handlePaymentCallback's work, also
 * reached by verifyPendingPayment). `failureReason` is recorded with a FAILED event we decided ourselves (expiry).
 */
async function settleEvent(
  ctx: AppContext,
  provider: PaymentProvider,
  event: VerifiedCallback,
  confirmed: ConfirmedCharge | undefined,
  failureReasonOfEvent?: string,
): Promise<CallbackResult> {
  let after: AfterSettlement | undefined;
  const result = await ctx.db.transaction(async (tx): Promise<CallbackResult> => {
    const stored = await tx
      .insert(paymentEvents)
      .values({
        provider: provider.kind,
        eventId: event.eventId,
        reference: event.reference,
        payload: event.payload ?? {},
        receivedAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (stored.length === 0) return { outcome: 'duplicate', reference: event.reference };
    if (event.status === 'IGNORED') return { outcome: 'ignored', reference: event.reference };

    const [row] = await tx.select().from(transactions).where(eq(transactions.reference, event.reference));
    if (!row) return { outcome: 'unknown_reference', reference: event.reference };
    const meta = row.metadata as PaymentMetadata;
    // A provider settles only the charges it started.
    if (meta.provider !== provider.kind) return { outcome: 'ignored', reference: event.reference };

    const failureReason = event.status === 'SUCCESS' ? findUnpaidReason(row, event, confirmed) : (failureReasonOfEvent ?? null);
    const status: TransactionStatus = failureReason ? 'FAILED' : event.status;
    const settled = await tx
      .update(transactions)
      .set({
        status,
        updatedAt: ctx.now(),
        metadata: mergeMetadata({ settledBy: event.eventId, ...(failureReason ? { failureReason } : {}) }),
      })
      .where(and(eq(transactions.id, row.id), eq(transactions.status, 'PENDING')))
      .returning({ status: transactions.status });
    if (settled.length === 0) return { outcome: 'already_settled', reference: event.reference, status: row.status as TransactionStatus };
    const handler = findSettlementHandler(ctx, row);
    after = handler ? await handler(tx, { ...row, status }) : undefined;
    if (row.appId) await queueWebhookEvent(tx, toPaymentSettledEvent({ ...row, status }, meta, failureReason, ctx.now()));
    return { outcome: 'settled', reference: event.reference, status };
  });
  // Only once committed: what it does (a cache invalidation, a receipt) must never announce a rolled-back settlement.
  if (after) await after();

  if (result.outcome === 'unknown_reference')
    ctx.log.warn({ provider: provider.kind, reference: event.reference }, 'payment callback for an unknown reference');
  else if (result.outcome === 'settled' && result.status === 'FAILED' && event.status === 'SUCCESS')
    ctx.log.warn(
      { provider: provider.kind, reference: event.reference },
      'a success callback was refused: the amount or currency paid differs',
    );
  else if (result.outcome === 'settled')
    ctx.log.info({ provider: provider.kind, reference: event.reference, status: result.status }, 'payment settled');
  return result;
}

/**
 * The settlement handler of the row's transaction type, if it has one. A type that is not ours (no code of ours
 * starts one) is logged as an error and settles with no handler: the payment's status stays true to the
 * provider, and a person looks at what it paid for.
 */
function findSettlementHandler(ctx: AppContext, row: TransactionRow): SettlementHandler | undefined {
  try {
    return getSettlementHandler(ctx.settlements, row.transactionType);
  } catch (err) {
    if (!(err instanceof UnknownTransactionTypeError)) throw err;
    ctx.log.error(
      { reference: row.reference, transactionType: err.transactionType },
      'a payment of an unknown transaction type settled: nothing acts on what it paid for',
    );
    return undefined;
  }
}

/**
 * A payment still PENDING (its callback lost or never sent): asked again with the provider's verify call where it
 * has one, and settled as its callback would have settled it (SUCCESS only for its own amount and currency).
 * With `expire` (the payment is older than its time), a payment the provider cannot call paid is marked FAILED,
 * recorded as expired; its settlement handler runs as for any failure. Answers undefined when nothing changed.
 */
export async function verifyPendingPayment(
  ctx: AppContext,
  provider: PaymentProvider,
  reference: string,
  options: { expire: boolean },
): Promise<CallbackResult | undefined> {
  const [row] = await ctx.db
    .select({ status: transactions.status, metadata: transactions.metadata })
    .from(transactions)
    .where(eq(transactions.reference, reference));
  if (row?.status !== 'PENDING' || (row.metadata as PaymentMetadata).provider !== provider.kind) return undefined;
  let confirmed: ConfirmedCharge | undefined;
  if (provider.confirmCharge) {
    try {
      confirmed = await provider.confirmCharge(reference);
    } catch (err) {
      ctx.log.warn({ err, provider: provider.kind, reference }, 'payment provider unreachable while verifying a pending payment');
    }
  }
  if (confirmed && confirmed.status !== 'PENDING') {
    const event: VerifiedCallback = {
      eventId: `verify:${reference}`,
      reference,
      status: confirmed.status,
      amount: confirmed.amount,
      currency: confirmed.currency,
      payload: { verified: confirmed },
    };
    return settleEvent(ctx, provider, event, confirmed);
  }
  if (!options.expire) return undefined;
  const event: VerifiedCallback = { eventId: `expired:${reference}`, reference, status: 'FAILED', payload: { expired: true } };
  return settleEvent(ctx, provider, event, undefined, 'expired unpaid: no confirmed payment in time');
}
