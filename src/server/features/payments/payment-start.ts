/**
 * Starting a payment: an app's payment prompt (the paymentprompt action) charges the payer's phone, a console
 * purchase sends its payer to the provider's checkout page. Either way a PENDING transaction, settled later by
 * payment-callbacks.ts.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { transactions, users } from '../../../db/schema';
import type { PaymentProvider } from '../../../integrations/payments/payment-provider';
import { AppError, invalid } from '../../../shared/errors';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { normalizeMsisdn } from '../../core/msisdn';
import { mergeMetadata, type PaymentMetadata } from './payment-metadata';
import { PAYMENT_TRANSACTION_TYPE, type TransactionType } from '../../core/settlements';

const MAX_AMOUNT = 1_000_000_000;

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
  transactionType?: TransactionType;
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
  return startPayment(ctx, ctx.paymentProviders.configured, {
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
