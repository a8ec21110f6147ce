import type { SmsProvider, SmsSendResult } from './sms-provider';
import { toErrorMessage } from '../../shared/errors';

export interface AfricasTalkingSmsOptions {
  username: string;
  apiKey: string;
  /** The full messaging URL: `https://api.africastalking.com/version1/messaging` (live) or
   * `https://api.sandbox.africastalking.com/version1/messaging` (their sandbox). */
  baseUrl: string;
  timeoutMs?: number;
}

/** A recipient's statusCode that means the message was accepted: 100 Processed, 101 Sent, 102 Queued. */
const ACCEPTED = new Set([100, 101, 102]);
/**
 * Failures worth trying again later: 405 InsufficientBalance (top up), 407 CouldNotRoute, 500 InternalServerError,
 * 501 GatewayError, 502 RejectedByGateway. The others (401 RiskHold, 402 InvalidSenderId, 403 InvalidPhoneNumber,
 * 404 UnsupportedNumberType, 406 UserInBlacklist, 409 DoNotDisturbRejection) fail the same way every time.
 */
const RETRYABLE = new Set([405, 407, 500, 501, 502]);

interface AtRecipient {
  statusCode?: number;
  number?: string;
  status?: string;
  cost?: string;
  messageId?: string;
}

interface AtAnswer {
  SMSMessageData?: { Message?: string; Recipients?: AtRecipient[] };
}

/**
 * Africa's Talking bulk SMS API: `POST {baseUrl}` with the form fields `username`, `to`, `message` and `from`
 * (omitted for the account's default sender), the `apiKey` header, and `Accept: application/json`. The answer:
 * `{ "SMSMessageData": { "Message": "Sent to 1/1 Total Cost: KES 0.8000", "Recipients": [{ "statusCode": 101,
 * "number": "+254711XXXYYY", "status": "Success", "cost": "KES 0.8000", "messageId": "ATXid_..." }] } }`.
 */
export function createAfricasTalkingSmsProvider(options: AfricasTalkingSmsOptions): SmsProvider {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return {
    kind: 'africastalking',
    async send(sms): Promise<SmsSendResult> {
      const form = new URLSearchParams({ username: options.username, to: sms.to, message: sms.message });
      if (sms.from) form.set('from', sms.from);
      let res: Response;
      try {
        res = await fetch(options.baseUrl, {
          method: 'POST',
          headers: { apiKey: options.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        return {
          status: 'FAILED',
          providerMessageId: null,
          error: `Africa's Talking unreachable: ${toErrorMessage(err)}`,
          retryable: true,
        };
      }
      const text = await res.text().catch(() => '');
      if (!res.ok) {
        // 401 (bad key) and 5xx may be fixed by the operator or pass; a 4xx request error will not.
        const retryable = res.status === 401 || res.status === 429 || res.status >= 500;
        return {
          status: 'FAILED',
          providerMessageId: null,
          error: `Africa's Talking answered HTTP ${res.status}: ${text.slice(0, 200)}`,
          retryable,
        };
      }
      let answer: AtAnswer;
      try {
        answer = JSON.parse(text) as AtAnswer;
      } catch {
        return {
          status: 'FAILED',
          providerMessageId: null,
          error: `Africa's Talking answered something that is not JSON: ${text.slice(0, 200)}`,
          retryable: true,
        };
      }
      const recipient = answer.SMSMessageData?.Recipients?.[0];
      if (!recipient) {
        // e.g. { "SMSMessageData": { "Message": "InvalidSenderId", "Recipients": [] } }
        return {
          status: 'FAILED',
          providerMessageId: null,
          error: answer.SMSMessageData?.Message || "Africa's Talking accepted no recipient",
          retryable: false,
        };
      }
      const code = Number(recipient.statusCode);
      const messageId = recipient.messageId && recipient.messageId !== 'None' ? recipient.messageId : null;
      if (ACCEPTED.has(code)) return { status: 'SENT', providerMessageId: messageId };
      return {
        status: 'FAILED',
        providerMessageId: messageId,
        error: `${recipient.status ?? 'Failed'} (${code})`,
        retryable: RETRYABLE.has(code),
      };
    },
  };
}

/**
 * Africa's Talking's SMS notifications (its dashboard: SMS -> SMS Callback URLs), POSTed as form fields (or JSON).
 * Delivery reports: `id` (the messageId the send answered), `status`, `phoneNumber`, `networkCode`, `failureReason`
 * (on Rejected and Failed: e.g. `InsufficientCredit`, `UserInBlackList`, `DeliveryFailure`,
 * `DoNotDisturbRejection`), `retryCount`. `Sent`, `Submitted` and `Buffered` are on the way; `Success` is delivered;
 * `Rejected`, `Failed`, `AbsentSubscriber` and `Expired` failed.
 */
const AT_ON_THE_WAY = new Set(['Sent', 'Submitted', 'Buffered']);
const AT_FAILED = new Set(['Rejected', 'Failed', 'AbsentSubscriber', 'Expired']);

type AtFields = Record<string, unknown>;
const field = (body: AtFields, key: string) => (typeof body[key] === 'string' ? (body[key] as string).trim() : '');

export function readAtDeliveryReport(
  body: AtFields,
): { providerMessageId: string; status: 'submitted' | 'delivered' | 'failed'; error: string | null } | null {
  const id = field(body, 'id');
  const status = field(body, 'status');
  if (!id) return null;
  if (status === 'Success') return { providerMessageId: id, status: 'delivered', error: null };
  if (AT_ON_THE_WAY.has(status)) return { providerMessageId: id, status: 'submitted', error: null };
  if (AT_FAILED.has(status)) {
    const reason = field(body, 'failureReason');
    return { providerMessageId: id, status: 'failed', error: reason ? `${status}: ${reason}` : status };
  }
  return null;
}

/**
 * An incoming message (to one of the account's shortcodes): `from` (the person, `+254711XXXYYY`), `to` (the
 * shortcode), `text`, `id` (the message's), `linkId`, `date`, `networkCode`.
 */
export function readAtIncomingMessage(body: AtFields): { providerMessageId: string; from: string; to: string; text: string } | null {
  const id = field(body, 'id');
  const from = field(body, 'from');
  const text = typeof body.text === 'string' ? body.text : '';
  if (!id || !from) return null;
  return { providerMessageId: id, from, to: field(body, 'to'), text: text.slice(0, 918) };
}

/**
 * A bulk SMS opt out: a person asked the network to stop an alphanumeric sender id's messages (Africa's Talking
 * appends the instruction to the first message a sender id sends a number): `senderId`, `phoneNumber`.
 */
export function readAtOptOut(body: AtFields): { phoneNumber: string; senderId: string } | null {
  const phoneNumber = field(body, 'phoneNumber');
  if (!phoneNumber) return null;
  return { phoneNumber, senderId: field(body, 'senderId') };
}
