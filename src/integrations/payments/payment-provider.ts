import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Starts mobile-money charges and verifies the provider's callbacks. The sandbox is the local default (its own
 * checkout page calls our callback); Paystack is the real provider. A charge is only ever settled by a verified
 * callback: a redirect or a "pending" answer never counts as proof of payment.
 */
export interface ChargeRequest {
  /** Ours, unique (`DF-...`): the provider echoes it in its callback. */
  reference: string;
  /** In major units with at most two decimals, e.g. 12.5 for GHS 12.50. */
  amount: number;
  currency: string;
  /** The payer's number, international digits (`233201234567`). */
  mobile: string;
  /** The network as the gateway or the app names it (MTN, VODAFONE, TELECEL, AIRTELTIGO, ...); may be empty. */
  network: string;
  /** Required by some providers (Paystack); not necessarily the payer's. */
  email: string;
  /** Our callback URL for this provider. */
  callbackUrl: string;
  /** Our public origin, for a checkout page we serve ourselves (the sandbox). */
  checkoutBaseUrl: string;
}

/**
 * The provider's answer to a charge request. `FAILED` is definite (the provider refused it). When it cannot be
 * known whether a charge started (network error, 5xx), `startCharge` throws instead, and the transaction stays
 * PENDING so a late callback can still settle it.
 */
export interface ChargeStart {
  status: 'PENDING' | 'FAILED';
  /** Where the payer can complete the payment, when the provider has such a page. */
  checkoutUrl?: string;
  /**
   * The secret that page asks for besides the reference (the sandbox's, carried in `checkoutUrl`): kept with
   * the transaction, so knowing a reference is not enough to approve its payment.
   */
  checkoutToken?: string;
  providerReference?: string;
  /** The provider's words for the payer, e.g. "Please complete authorization on your mobile phone". */
  displayText?: string;
  error?: string;
}

export interface CallbackRequest {
  /** The exact bytes received: signatures are computed over them, never over re-serialized JSON. */
  rawBody: Buffer | string;
  headers: Record<string, string | string[] | undefined>;
}

export interface VerifiedCallback {
  /** Unique per event at this provider; the callback is stored once under it. */
  eventId: string;
  reference: string;
  /** IGNORED: a genuine event that settles nothing (e.g. a transfer notification). */
  status: 'SUCCESS' | 'FAILED' | 'IGNORED';
  /** Major units, when the event carries the amount. A success without amount and currency settles nothing. */
  amount?: number;
  currency?: string;
  payload: unknown;
}

/** The provider's own record of a charge, asked for before a success callback settles anything. */
export interface ConfirmedCharge {
  /** SUCCESS: paid; FAILED: final and not paid, or unknown to the provider; PENDING: not final yet. */
  status: 'SUCCESS' | 'FAILED' | 'PENDING';
  /** Major units, as the provider recorded the charge. */
  amount?: number;
  currency?: string;
  /** The provider's words when the charge is not paid. */
  reason?: string;
}

export interface PaymentProvider {
  readonly kind: 'sandbox' | 'paystack';
  startCharge(request: ChargeRequest): Promise<ChargeStart>;
  /** The event when the signature is right, else null (tampered, unsigned, or not JSON). */
  verifyCallback(request: CallbackRequest): VerifiedCallback | null;
  /**
   * Asks the provider for the charge behind a success callback, whose amount and currency then settle it.
   * Throws when the provider cannot be reached. Absent where we sign the callbacks ourselves (the sandbox).
   */
  confirmCharge?(reference: string): Promise<ConfirmedCharge>;
}

export function readHeader(headers: CallbackRequest['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Constant-time comparison of a received hex signature with HMAC(secret, body). */
export function isHexHmacValid(
  algorithm: 'sha256' | 'sha512',
  secret: string,
  body: Buffer | string,
  received: string | undefined,
): boolean {
  if (!received || !/^[0-9a-f]+$/i.test(received)) return false;
  const expected = createHmac(algorithm, secret).update(body).digest();
  const given = Buffer.from(received, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}
