/**
 * Sends one SMS. The outbox is the local default (nothing leaves the machine; the console lists the rows);
 * Africa's Talking is the real provider. The dispatcher (server/features/sms) calls `send` outside the hop and
 * retries a failure marked `retryable` with backoff.
 */
export interface SmsToSend {
  /** Sender id or shortcode; empty means the provider account's default. */
  from: string;
  /** International format, e.g. `+233201234567`. */
  to: string;
  message: string;
}

export type SmsSendResult =
  | { status: 'SENT'; providerMessageId: string | null }
  | {
      status: 'FAILED';
      providerMessageId: string | null;
      error: string;
      /** False when trying again cannot help (invalid number, blacklisted, rejected sender id). */
      retryable: boolean;
    };

export interface SmsProvider {
  readonly kind: 'outbox' | 'africastalking';
  send(sms: SmsToSend): Promise<SmsSendResult>;
}

/** The local default: marks the message SENT without leaving the machine; the outbox row is the record. */
export function createOutboxSmsProvider(): SmsProvider {
  let n = 0;
  return {
    kind: 'outbox',
    send: async () => ({ status: 'SENT', providerMessageId: `outbox-${Date.now().toString(36)}-${(n++).toString(36)}` }),
  };
}
