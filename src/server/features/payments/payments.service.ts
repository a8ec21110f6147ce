import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { paymentEvents, transactions, users } from '../../../db/schema';
import type { CallbackRequest, ConfirmedCharge, PaymentProvider, VerifiedCallback } from '../../../integrations/payments/payment-provider';
import { createPaystackPaymentProvider } from '../../../integrations/payments/paystack-payments';
import { createSandboxPaymentProvider, type SandboxPaymentProvider } from '../../../integrations/payments/sandbox-payments';
import { toTransactionMetadata } from '../../../shared/api/merchants.schema';
import { AppError, invalid, notFound, unauthenticated } from '../../../shared/errors';
import { getPermissionScope } from '../../../shared/roles';
import { getPublicOrigin, type Config } from '../../config';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getOwnedApp } from '../../core/app-access';
import { normalizeMsisdn } from '../../core/msisdn';
import type { Transaction, TransactionStatus } from './payments.schema';
import { SETTLEMENT_HANDLERS, type AfterSettlement, type SettledTransaction } from './settlements';
import { queueWebhookEvent } from '../webhooks/webhooks.service';

type TransactionRow = typeof transactions.$inferSelect;

/** What a transaction started by a payment prompt keeps in `metadata`. */
interface PaymentMetadata {
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

export const PAYMENT_TRANSACTION_TYPE = 'paymentprompt';
const MAX_AMOUNT = 1_000_000_000;

const providers = new WeakMap<Config, PaymentProvider>();
const sandboxProviders = new WeakMap<Config, SandboxPaymentProvider>();

/**
 * The sandbox provider, whatever PAYMENT_PROVIDER says: featured templates' test runs always charge through it
 * (no money moves), and its checkout page serves them. One per config, shared with getPaymentProvider.
 */
export function getSandboxPaymentProvider(config: Config): SandboxPaymentProvider {
  let provider = sandboxProviders.get(config);
  if (!provider) {
    provider = createSandboxPaymentProvider({ secret: config.SANDBOX_PAYMENT_SECRET });
    sandboxProviders.set(config, provider);
  }
  return provider;
}

/** The configured provider, one per config, so the action runner and the callback routes share it (and its secret). */
export function getPaymentProvider(config: Config): PaymentProvider {
  let provider = providers.get(config);
  if (!provider) {
    if (config.PAYMENT_PROVIDER === 'paystack') {
      // loadConfig already refuses this at boot; createConfig (tests, tools) skips that check.
      if (!config.PAYSTACK_SECRET_KEY) throw new Error('PAYSTACK_SECRET_KEY is required when PAYMENT_PROVIDER=paystack');
      provider = createPaystackPaymentProvider({ secretKey: config.PAYSTACK_SECRET_KEY, baseUrl: config.PAYSTACK_BASE_URL });
    } else {
      provider = getSandboxPaymentProvider(config);
    }
    providers.set(config, provider);
  }
  return provider;
}

export const isSandboxProvider = (provider: PaymentProvider): provider is SandboxPaymentProvider => provider.kind === 'sandbox';

/** `"12.5"`, `12.5` -> 12.5; positive, at most two decimals. */
export function parseAmount(value: string | number): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(text)) return null;
  const amount = Number(text);
  return amount > 0 && amount <= MAX_AMOUNT ? amount : null;
}

export const createPaymentReference = () => `DF-${randomBytes(10).toString('hex').toUpperCase()}`;

export interface StartPaymentRequest {
  appId: string | null;
  /** The app's owner: the transaction is theirs. */
  ownerId: string | null;
  sessionId?: string;
  /** The payer's number; ignored with `onCheckoutPage`. */
  mobile: string;
  amount: string | number;
  network: string;
  shortcode?: string;
  /** For providers that need one (Paystack); default: the owner's email, never an address we do not control. */
  email?: string;
  /** Our public origin for checkout pages and callback URLs; default getPublicOrigin (PUBLIC_URL, else localhost:PORT). */
  origin?: string;
  /** Default PAYMENT_CURRENCY. */
  currency?: string;
  /**
   * The payer pays on the provider's checkout page (a console purchase), not by a prompt on a phone: no mobile
   * number or network is asked for.
   */
  onCheckoutPage?: boolean;
  /** Default `paymentprompt`. A type with a settlement handler (settlements.ts) acts once its payment settles. */
  transactionType?: string;
  /** Kept with the transaction for its settlement handler, e.g. the purchase it pays for. */
  metadata?: Record<string, unknown>;
}

export interface StartPaymentResult {
  reference: string;
  status: 'PENDING' | 'FAILED';
  checkoutUrl?: string;
  /** The provider's instructions for the payer, or why it refused. */
  message?: string;
}

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

function mergeMetadata(patch: PaymentMetadata): SQL {
  return sql`${transactions.metadata} || ${JSON.stringify(patch)}::jsonb`;
}

/**
 * Starts a mobile-money charge: records a PENDING transaction under a new reference, then asks the provider.
 * A definite refusal marks it FAILED; an unreachable provider leaves it PENDING (the charge may have started;
 * a late callback can still settle it) and throws `upstream`. Only a verified callback makes it SUCCESS.
 */
export async function startPayment(ctx: AppContext, provider: PaymentProvider, request: StartPaymentRequest): Promise<StartPaymentResult> {
  const mobile = request.onCheckoutPage ? '' : normalizeMsisdn(request.mobile);
  if (mobile === null) throw invalid("The payer's mobile number must have 7 to 15 digits, with an optional +", { field: 'mobile' });
  const amount = parseAmount(request.amount);
  if (amount === null) throw invalid('The amount must be a positive number with at most two decimals', { field: 'amount' });
  const network = request.onCheckoutPage ? '' : request.network.trim().toUpperCase();
  const reference = createPaymentReference();
  const currency = request.currency ?? ctx.config.PAYMENT_CURRENCY;
  const origin = (request.origin ?? getPublicOrigin(ctx.config)).replace(/\/$/, '');
  const now = ctx.now();
  const metadata: PaymentMetadata = { ...request.metadata, provider: provider.kind, mobile, network, sessionId: request.sessionId ?? '' };
  await ctx.db.insert(transactions).values({
    reference,
    transactionType: request.transactionType ?? PAYMENT_TRANSACTION_TYPE,
    amount: amount.toFixed(2),
    currency,
    status: 'PENDING',
    userId: request.ownerId,
    appId: request.appId,
    shortcode: request.shortcode ?? '',
    metadata,
    createdAt: now,
    updatedAt: now,
  });

  const email = request.email ?? (await findOwnerEmail(ctx, request.ownerId)) ?? `payments@${new URL(origin).hostname}`;
  let start: Awaited<ReturnType<typeof provider.startCharge>>;
  try {
    start = await provider.startCharge({
      reference,
      amount,
      currency,
      mobile: mobile.replace(/^\+/, ''),
      network,
      email,
      callbackUrl: `${origin}/api/payments/callback/${provider.kind}`,
      checkoutBaseUrl: origin,
    });
  } catch (err) {
    ctx.log.error({ err, reference }, 'payment provider unreachable; the transaction stays PENDING');
    await ctx.db
      .update(transactions)
      .set({ metadata: mergeMetadata({ error: 'provider unreachable' }) })
      .where(eq(transactions.reference, reference));
    throw new AppError('upstream', 'The payment provider could not be reached. Please try again.');
  }
  if (start.status === 'FAILED') {
    const error = start.error ?? 'The payment provider refused the charge';
    await ctx.db
      .update(transactions)
      .set({ status: 'FAILED', updatedAt: ctx.now(), metadata: mergeMetadata({ error }) })
      .where(and(eq(transactions.reference, reference), eq(transactions.status, 'PENDING')));
    return { reference, status: 'FAILED', message: error };
  }
  await ctx.db
    .update(transactions)
    .set({
      metadata: mergeMetadata({
        providerReference: start.providerReference,
        checkoutUrl: start.checkoutUrl,
        checkoutToken: start.checkoutToken,
      }),
    })
    .where(eq(transactions.reference, reference));
  return {
    reference,
    status: 'PENDING',
    ...(start.checkoutUrl ? { checkoutUrl: start.checkoutUrl } : {}),
    ...(start.displayText ? { message: start.displayText } : {}),
  };
}

/**
 * A console user's own purchase (a plan, credit, a shortcode) on the configured provider's checkout page: the
 * transaction is theirs and belongs to no app. E.g. `{ amount: '150.00', currency: 'GHS', transactionType, metadata }`.
 */
export function startCheckoutPayment(
  ctx: AppContext,
  ownerId: string,
  request: Pick<StartPaymentRequest, 'amount' | 'currency' | 'shortcode' | 'transactionType' | 'metadata'>,
): Promise<StartPaymentResult> {
  return startPayment(ctx, getPaymentProvider(ctx.config), {
    ...request,
    appId: null,
    ownerId,
    mobile: '',
    network: '',
    onCheckoutPage: true,
  });
}

async function findOwnerEmail(ctx: AppContext, ownerId: string | null): Promise<string | undefined> {
  if (!ownerId) return undefined;
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, ownerId));
  return row?.email;
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
    const handler = SETTLEMENT_HANDLERS[row.transactionType];
    after = handler ? await handler(ctx, tx, { ...row, status }) : undefined;
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

/**
 * The owner's payment transactions (an app's with appId), newest first; every account's for an admin whose
 * roles read all transactions (`transaction.read` over all merchants: ADMIN, super_admin).
 */
export async function findTransactions(ctx: AppContext, user: AuthUser, query: { appId?: string; limit?: number }): Promise<Transaction[]> {
  const filters: SQL[] = [];
  if (query.appId) {
    await getOwnedApp(ctx, user, query.appId);
    filters.push(eq(transactions.appId, query.appId));
  } else if (getPermissionScope(user, 'transaction.read') !== 'all') {
    filters.push(eq(transactions.userId, user.id));
  }
  const rows = await ctx.db
    .select()
    .from(transactions)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(query.limit ?? 100);
  return rows.map(toTransaction);
}

export function toTransaction(row: TransactionRow): Transaction {
  const meta = (row.metadata ?? {}) as PaymentMetadata & Record<string, unknown>;
  return {
    id: row.id,
    reference: row.reference,
    transactionType: row.transactionType,
    amount: row.amount,
    currency: row.currency,
    status: row.status as TransactionStatus,
    appId: row.appId,
    shortcode: row.shortcode,
    mobile: meta.mobile ?? '',
    network: meta.network ?? '',
    provider: meta.provider ?? '',
    metadata: toTransactionMetadata(meta),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
