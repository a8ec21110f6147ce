import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { paymentEvents, transactions, users } from '../../../db/schema';
import type { CallbackRequest, PaymentProvider } from '../../../integrations/payments/payment-provider';
import { createPaystackPaymentProvider } from '../../../integrations/payments/paystack-payments';
import { createSandboxPaymentProvider, type SandboxPaymentProvider } from '../../../integrations/payments/sandbox-payments';
import { AppError, invalid, notFound } from '../../../shared/errors';
import { getRoles } from '../../../shared/roles';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { AuthUser } from '../auth/auth.service';
import { getOwnedApp } from '../apps/apps.service';
import { normalizeMsisdn } from '../sms/sms.service';
import type { Transaction, TransactionStatus } from './payments.schema';

type TransactionRow = typeof transactions.$inferSelect;

/** What a transaction started by a payment prompt keeps in `metadata`. */
interface PaymentMetadata {
  provider?: string;
  mobile?: string;
  network?: string;
  sessionId?: string;
  providerReference?: string;
  checkoutUrl?: string;
  error?: string;
  settledBy?: string;
  failureReason?: string;
}

export const PAYMENT_TRANSACTION_TYPE = 'paymentprompt';
const MAX_AMOUNT = 1_000_000_000;

const providers = new WeakMap<Config, PaymentProvider>();

/** The configured provider, one per config, so the action runner and the callback routes share it (and its secret). */
export function getPaymentProvider(config: Config): PaymentProvider {
  let provider = providers.get(config);
  if (!provider) {
    if (config.PAYMENT_PROVIDER === 'paystack') {
      // loadConfig already refuses this at boot; createConfig (tests, tools) skips that check.
      if (!config.PAYSTACK_SECRET_KEY) throw new Error('PAYSTACK_SECRET_KEY is required when PAYMENT_PROVIDER=paystack');
      provider = createPaystackPaymentProvider({ secretKey: config.PAYSTACK_SECRET_KEY, baseUrl: config.PAYSTACK_BASE_URL });
    } else {
      provider = createSandboxPaymentProvider({ secret: config.SANDBOX_PAYMENT_SECRET });
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
  mobile: string;
  amount: string | number;
  network: string;
  shortcode?: string;
  /** For providers that need one (Paystack); default: the owner's email, never an address we do not control. */
  email?: string;
  /** Our public origin for checkout pages and callback URLs; default PUBLIC_URL, else localhost:PORT. */
  origin?: string;
}

export interface StartPaymentResult {
  reference: string;
  status: 'PENDING' | 'FAILED';
  checkoutUrl?: string;
  /** The provider's instructions for the payer, or why it refused. */
  message?: string;
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
  const mobile = normalizeMsisdn(request.mobile);
  if (!mobile) throw invalid('The payer\'s mobile number must have 7 to 15 digits, with an optional +', { field: 'mobile' });
  const amount = parseAmount(request.amount);
  if (amount === null) throw invalid('The amount must be a positive number with at most two decimals', { field: 'amount' });
  const network = request.network.trim().toUpperCase();
  const reference = createPaymentReference();
  const currency = ctx.config.PAYMENT_CURRENCY;
  const origin = (request.origin ?? ctx.config.PUBLIC_URL ?? `http://localhost:${ctx.config.PORT}`).replace(/\/$/, '');
  const now = ctx.now();
  const metadata: PaymentMetadata = { provider: provider.kind, mobile, network, sessionId: request.sessionId ?? '' };
  await ctx.db.insert(transactions).values({
    reference,
    transactionType: PAYMENT_TRANSACTION_TYPE,
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
  let start;
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
    await ctx.db.update(transactions).set({ metadata: mergeMetadata({ error: 'provider unreachable' }) }).where(eq(transactions.reference, reference));
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
    .set({ metadata: mergeMetadata({ providerReference: start.providerReference, checkoutUrl: start.checkoutUrl }) })
    .where(eq(transactions.reference, reference));
  return {
    reference,
    status: 'PENDING',
    ...(start.checkoutUrl ? { checkoutUrl: start.checkoutUrl } : {}),
    ...(start.displayText ? { message: start.displayText } : {}),
  };
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
 * A provider's callback: verified (a tampered or unsigned one is refused with 401 and changes nothing), stored
 * once by its event id (a redelivery answers `duplicate` and settles nothing), then the transaction is settled
 * only from PENDING. Storing and settling share one database transaction, so a crash between them cannot leave
 * an event recorded but its payment unsettled.
 */
export async function handlePaymentCallback(ctx: AppContext, provider: PaymentProvider, request: CallbackRequest): Promise<CallbackResult> {
  const event = provider.verifyCallback(request);
  if (!event) throw new AppError('notAllowed', 'Invalid signature', { httpStatus: 401 });

  const result = await ctx.db.transaction(async (tx): Promise<CallbackResult> => {
    const stored = await tx
      .insert(paymentEvents)
      .values({ provider: provider.kind, eventId: event.eventId, reference: event.reference, payload: event.payload ?? {}, receivedAt: ctx.now() })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (stored.length === 0) return { outcome: 'duplicate', reference: event.reference };
    if (event.status === 'IGNORED') return { outcome: 'ignored', reference: event.reference };

    const [row] = await tx.select().from(transactions).where(eq(transactions.reference, event.reference));
    if (!row) return { outcome: 'unknown_reference', reference: event.reference };
    const meta = row.metadata as PaymentMetadata;
    // A provider settles only the charges it started.
    if (meta.provider !== provider.kind) return { outcome: 'ignored', reference: event.reference };

    let status: TransactionStatus = event.status;
    let failureReason: string | undefined;
    if (status === 'SUCCESS' && event.amount !== undefined && (Math.abs(event.amount - Number(row.amount)) >= 0.005 || (event.currency && event.currency !== row.currency))) {
      status = 'FAILED';
      failureReason = `paid ${event.currency ?? ''} ${event.amount} instead of ${row.currency} ${row.amount}`.replace(/ +/g, ' ');
    }
    const settled = await tx
      .update(transactions)
      .set({ status, updatedAt: ctx.now(), metadata: mergeMetadata({ settledBy: event.eventId, ...(failureReason ? { failureReason } : {}) }) })
      .where(and(eq(transactions.id, row.id), eq(transactions.status, 'PENDING')))
      .returning({ status: transactions.status });
    if (settled.length === 0) return { outcome: 'already_settled', reference: event.reference, status: row.status as TransactionStatus };
    return { outcome: 'settled', reference: event.reference, status };
  });

  if (result.outcome === 'unknown_reference') ctx.log.warn({ provider: provider.kind, reference: event.reference }, 'payment callback for an unknown reference');
  else if (result.outcome === 'settled') ctx.log.info({ provider: provider.kind, reference: event.reference, status: result.status }, 'payment settled');
  return result;
}

/** A sandbox transaction for its checkout page (public: the 80-bit reference is the secret, as with a checkout link). */
export async function getSandboxTransaction(ctx: AppContext, reference: string): Promise<TransactionRow> {
  const [row] = await ctx.db.select().from(transactions).where(eq(transactions.reference, reference));
  if (!row || (row.metadata as PaymentMetadata).provider !== 'sandbox') throw notFound('Payment not found');
  return row;
}

/**
 * The sandbox checkout's Approve or Decline: builds the callback the sandbox provider signs and hands it to the
 * same handler a real provider's callback reaches. Deciding an already settled payment changes nothing.
 */
export async function decideSandboxPayment(ctx: AppContext, provider: SandboxPaymentProvider, reference: string, decision: 'approve' | 'decline'): Promise<TransactionStatus> {
  const row = await getSandboxTransaction(ctx, reference);
  if (row.status !== 'PENDING') return row.status as TransactionStatus;
  const result = await handlePaymentCallback(ctx, provider, provider.buildCallback(reference, decision));
  return result.status ?? (row.status as TransactionStatus);
}

/** The owner's payment transactions (an app's with appId; admins: everyone's), newest first. */
export async function findTransactions(ctx: AppContext, user: AuthUser, query: { appId?: string; limit?: number }): Promise<Transaction[]> {
  const filters: SQL[] = [];
  if (query.appId) {
    await getOwnedApp(ctx, user, query.appId);
    filters.push(eq(transactions.appId, query.appId));
  } else if (!getRoles(user).isAdmin) {
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
    metadata: meta,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
