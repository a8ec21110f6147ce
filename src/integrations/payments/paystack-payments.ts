import {
  isHexHmacValid,
  parseJson,
  readHeader,
  type ChargeRequest,
  type ChargeStart,
  type ConfirmedCharge,
  type PaymentProvider,
} from './payment-provider';

export interface PaystackOptions {
  /** `sk_test_...` or `sk_live_...`: authorizes API calls and signs webhooks. */
  secretKey: string;
  /** `https://api.paystack.co`; tests point it at a local server. */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * Paystack's mobile-money provider codes, from the network names gateways and apps use. Ghana: `mtn`, `vod`
 * (Vodafone Cash, now Telecel Cash), `atl` (AirtelTigo Money); Kenya: `mpesa`.
 */
const PROVIDER_CODES: Record<string, string> = {
  MTN: 'mtn',
  MTNGH: 'mtn',
  VODAFONE: 'vod',
  VOD: 'vod',
  TELECEL: 'vod',
  AIRTELTIGO: 'atl',
  AIRTEL: 'atl',
  TIGO: 'atl',
  AT: 'atl',
  ATL: 'atl',
  MPESA: 'mpesa',
  SAFARICOM: 'mpesa',
};

export function toPaystackProvider(network: string): string | undefined {
  return PROVIDER_CODES[network.toUpperCase().replace(/[^A-Z]/g, '')];
}

/** Paystack wants Ghanaian numbers as dialled locally (`0551234987`) and Kenyan ones with the country code. */
function toPaystackPhone(mobile: string, currency: string): string {
  const digits = mobile.replace(/\D/g, '');
  if (currency === 'GHS' && digits.startsWith('233') && digits.length === 12) return `0${digits.slice(3)}`;
  return digits;
}

/** The lowest currency unit (pesewas, cents): Paystack amounts are integers. */
export const toMinorUnits = (amount: number) => Math.round(amount * 100);

interface PaystackAnswer {
  status?: boolean;
  message?: string;
  data?: {
    reference?: string;
    status?: string;
    display_text?: string;
    message?: string;
    gateway_response?: string;
    authorization_url?: string;
  };
}

/** `GET /transaction/verify/:reference`: Paystack's record of the charge. */
interface PaystackVerifyAnswer {
  status?: boolean;
  message?: string;
  data?: { reference?: string; status?: string; amount?: number; currency?: string; gateway_response?: string };
}

/** Paystack's transaction states that will not change to paid. */
const FINAL_UNPAID = new Set(['failed', 'abandoned', 'reversed']);

interface PaystackEvent {
  event?: string;
  data?: { id?: number | string; reference?: string; status?: string; amount?: number; currency?: string };
}

/**
 * Paystack. A known network charges the wallet directly: `POST {baseUrl}/charge` with `{ email, amount (lowest
 * unit), currency, reference, mobile_money: { phone, provider } }` and `Authorization: Bearer <secret>`; the
 * payer approves on the phone. An unknown network falls back to Paystack's checkout page
 * (`POST /transaction/initialize`, mobile money only). Either way the payment is settled by the webhook:
 * `x-paystack-signature` is the hex HMAC-SHA512 of the raw body with the secret key. A `charge.success` is
 * then confirmed with `GET /transaction/verify/:reference`, as Paystack asks before value is given: its
 * answer's status, amount (lowest unit) and currency are what settle the payment.
 */
export function createPaystackPaymentProvider(options: PaystackOptions): PaymentProvider {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(path: string, body: unknown): Promise<{ httpStatus: number; answer: PaystackAnswer }> {
    // A network error or timeout propagates: whether the charge started is unknown, so it must stay PENDING.
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.secretKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (res.status >= 500) throw new Error(`Paystack answered HTTP ${res.status}`);
    return { httpStatus: res.status, answer: (parseJson(text) ?? {}) as PaystackAnswer };
  }

  async function confirmCharge(reference: string): Promise<ConfirmedCharge> {
    const res = await fetch(`${baseUrl}/transaction/verify/${encodeURIComponent(reference)}`, {
      headers: { authorization: `Bearer ${options.secretKey}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (res.status >= 500 || res.status === 429) throw new Error(`Paystack answered HTTP ${res.status}`);
    const answer = (parseJson(text) ?? {}) as PaystackVerifyAnswer;
    const data = answer.data;
    if (!answer.status || !data)
      return { status: 'FAILED', reason: `Paystack has no such charge (${answer.message || `HTTP ${res.status}`})` };
    if (data.reference !== reference)
      return { status: 'FAILED', reason: `Paystack answered for another reference (${String(data.reference)})` };
    const amount = typeof data.amount === 'number' ? data.amount / 100 : undefined;
    const currency = typeof data.currency === 'string' ? data.currency : undefined;
    if (data.status === 'success') return { status: 'SUCCESS', amount, currency };
    if (FINAL_UNPAID.has(data.status ?? ''))
      return {
        status: 'FAILED',
        amount,
        currency,
        reason: `Paystack reports the charge ${data.status}${data.gateway_response ? `: ${data.gateway_response}` : ''}`,
      };
    return { status: 'PENDING', amount, currency };
  }

  function refused(answer: PaystackAnswer, httpStatus: number): ChargeStart {
    return {
      status: 'FAILED',
      error: answer.data?.message || answer.data?.gateway_response || answer.message || `Paystack answered HTTP ${httpStatus}`,
    };
  }

  return {
    kind: 'paystack',
    confirmCharge,
    async startCharge(request: ChargeRequest): Promise<ChargeStart> {
      const common = {
        email: request.email,
        amount: toMinorUnits(request.amount),
        currency: request.currency,
        reference: request.reference,
      };
      const provider = toPaystackProvider(request.network);
      if (!provider) {
        const { httpStatus, answer } = await call('/transaction/initialize', { ...common, channels: ['mobile_money'] });
        if (!answer.status || !answer.data?.authorization_url) return refused(answer, httpStatus);
        return {
          status: 'PENDING',
          checkoutUrl: answer.data.authorization_url,
          providerReference: answer.data.reference ?? request.reference,
        };
      }
      const { httpStatus, answer } = await call('/charge', {
        ...common,
        mobile_money: { phone: toPaystackPhone(request.mobile, request.currency), provider },
        metadata: { source: 'dialflow' },
      });
      // data.status: pay_offline (approve on the phone), send_otp, pending, success, failed. Only the webhook settles.
      if (!answer.status || answer.data?.status === 'failed') return refused(answer, httpStatus);
      return { status: 'PENDING', providerReference: answer.data?.reference ?? request.reference, displayText: answer.data?.display_text };
    },
    verifyCallback({ rawBody, headers }) {
      if (!isHexHmacValid('sha512', options.secretKey, rawBody, readHeader(headers, 'x-paystack-signature'))) return null;
      const event = parseJson(rawBody) as PaystackEvent | undefined;
      const data = event?.data;
      if (!event || typeof event.event !== 'string' || !data || typeof data.reference !== 'string') return null;
      const status = event.event === 'charge.success' ? 'SUCCESS' : event.event === 'charge.failed' ? 'FAILED' : 'IGNORED';
      return {
        // Paystack has no event id: the event name and the transaction id identify one notification.
        eventId: `${event.event}:${data.id ?? data.reference}`,
        reference: data.reference,
        status,
        amount: typeof data.amount === 'number' ? data.amount / 100 : undefined,
        currency: data.currency,
        payload: event,
      };
    },
  };
}
