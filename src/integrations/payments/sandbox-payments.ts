import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isHexHmacValid, parseJson, readHeader, type CallbackRequest, type PaymentProvider } from './payment-provider';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly kind: 'sandbox';
  /** The callback the checkout page's Approve or Decline sends: a JSON body signed with HMAC-SHA256. */
  buildCallback(reference: string, decision: 'approve' | 'decline', charge: SandboxCharge): CallbackRequest & { rawBody: string };
}

/** What the payer saw on the checkout page: a success states it, and settles only a charge of that amount. */
export interface SandboxCharge {
  /** Major units. */
  amount: number;
  currency: string;
}

interface SandboxEvent extends SandboxCharge {
  event: 'sandbox.charge';
  id: string;
  reference: string;
  status: 'SUCCESS' | 'FAILED';
}

/**
 * The local default payment provider: every charge is PENDING with a checkout page on our own origin
 * (`/payments/sandbox/{reference}?token={checkoutToken}`) where whoever tests the app approves or declines it.
 * The token (144 random bits, kept with the transaction) is what lets a visitor decide: references appear in
 * USSD screens, logs and SMS, so one alone never approves a payment. The page's answer goes
 * through the same signed-callback path as a real provider's, so verification and idempotency are exercised.
 * @example callback body `{"event":"sandbox.charge","id":"5b0e...","reference":"DF-...","status":"SUCCESS","amount":12.5,"currency":"GHS"}`
 *   with `x-sandbox-signature: hex(HMAC-SHA256(secret, body))`
 */
export function createSandboxPaymentProvider(options: { secret: string }): SandboxPaymentProvider {
  return {
    kind: 'sandbox',
    async startCharge(request) {
      const checkoutToken = randomBytes(18).toString('base64url');
      return {
        status: 'PENDING',
        checkoutUrl: `${request.checkoutBaseUrl.replace(/\/$/, '')}/payments/sandbox/${encodeURIComponent(request.reference)}?token=${checkoutToken}`,
        checkoutToken,
        providerReference: request.reference,
        displayText: 'Open the sandbox checkout page to approve or decline this payment.',
      };
    },
    verifyCallback({ rawBody, headers }) {
      if (!isHexHmacValid('sha256', options.secret, rawBody, readHeader(headers, SANDBOX_SIGNATURE_HEADER))) return null;
      const event = parseJson(rawBody) as Partial<SandboxEvent> | undefined;
      if (event?.event !== 'sandbox.charge' || typeof event.id !== 'string' || typeof event.reference !== 'string') return null;
      if (event.status !== 'SUCCESS' && event.status !== 'FAILED') return null;
      const amount = typeof event.amount === 'number' ? event.amount : undefined;
      const currency = typeof event.currency === 'string' ? event.currency : undefined;
      return { eventId: event.id, reference: event.reference, status: event.status, amount, currency, payload: event };
    },
    buildCallback(reference, decision, charge) {
      const status = decision === 'approve' ? 'SUCCESS' : 'FAILED';
      const event: SandboxEvent = {
        event: 'sandbox.charge',
        id: randomUUID(),
        reference,
        status,
        amount: charge.amount,
        currency: charge.currency,
      };
      const rawBody = JSON.stringify(event);
      const signature = createHmac('sha256', options.secret).update(rawBody).digest('hex');
      return { rawBody, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature } };
    },
  };
}
