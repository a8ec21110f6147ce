import { createHmac, randomUUID } from 'node:crypto';
import { isHexHmacValid, parseJson, readHeader, type CallbackRequest, type PaymentProvider } from './payment-provider';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly kind: 'sandbox';
  /** The callback the checkout page's Approve or Decline sends: a JSON body signed with HMAC-SHA256. */
  buildCallback(reference: string, decision: 'approve' | 'decline'): CallbackRequest & { rawBody: string };
}

interface SandboxEvent {
  event: 'sandbox.charge';
  id: string;
  reference: string;
  status: 'SUCCESS' | 'FAILED';
}

/**
 * The local default payment provider: every charge is PENDING with a checkout page on our own origin
 * (`/payments/sandbox/{reference}`) where whoever tests the app approves or declines it. The page's answer goes
 * through the same signed-callback path as a real provider's, so verification and idempotency are exercised.
 * @example callback body `{"event":"sandbox.charge","id":"5b0e...","reference":"DF-...","status":"SUCCESS"}`
 *   with `x-sandbox-signature: hex(HMAC-SHA256(secret, body))`
 */
export function createSandboxPaymentProvider(options: { secret: string }): SandboxPaymentProvider {
  return {
    kind: 'sandbox',
    async startCharge(request) {
      return {
        status: 'PENDING',
        checkoutUrl: `${request.checkoutBaseUrl.replace(/\/$/, '')}/payments/sandbox/${encodeURIComponent(request.reference)}`,
        providerReference: request.reference,
        displayText: 'Open the sandbox checkout page to approve or decline this payment.',
      };
    },
    verifyCallback({ rawBody, headers }) {
      if (!isHexHmacValid('sha256', options.secret, rawBody, readHeader(headers, SANDBOX_SIGNATURE_HEADER))) return null;
      const event = parseJson(rawBody) as Partial<SandboxEvent> | undefined;
      if (!event || event.event !== 'sandbox.charge' || typeof event.id !== 'string' || typeof event.reference !== 'string') return null;
      if (event.status !== 'SUCCESS' && event.status !== 'FAILED') return null;
      return { eventId: event.id, reference: event.reference, status: event.status, payload: event };
    },
    buildCallback(reference, decision) {
      const event: SandboxEvent = { event: 'sandbox.charge', id: randomUUID(), reference, status: decision === 'approve' ? 'SUCCESS' : 'FAILED' };
      const rawBody = JSON.stringify(event);
      const signature = createHmac('sha256', options.secret).update(rawBody).digest('hex');
      return { rawBody, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature } };
    },
  };
}
