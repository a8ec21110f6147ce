import type { SmsMessage } from '../../../shared/api/sms.schema';

export const SMS_OUTBOX_PATH = '/sms-outbox';
/** `?tab=replies` opens the outbox on the replies people sent back. */
export const SMS_TAB_PARAM = 'tab';

/** The most the outbox call gives; the screen pages them ten at a time. */
export const SMS_OUTBOX_LIMIT = 500;
/** The most replies the Replies tab reads; it pages them ten at a time too. */
export const SMS_REPLIES_LIMIT = 500;

/** Every SMS query (the outbox and the replies) sits below this key (sms.calls.ts). */
export const SMS_KEY = ['sms'] as const;

/** The provider that keeps messages in the local outbox instead of sending them (SMS_PROVIDER=outbox). */
export const OUTBOX_PROVIDER = 'outbox';

/**
 * What the network said of a message, in words: "Delivered", "On its way", "Not delivered: <why>"; null without a
 * delivery report (the local outbox, or a provider that has not reported yet).
 */
export function describeDelivery(sms: Pick<SmsMessage, 'deliveryStatus' | 'deliveryError'>): { text: string; color: string } | null {
  if (sms.deliveryStatus === 'delivered') return { text: 'Delivered', color: 'teal.8' };
  if (sms.deliveryStatus === 'submitted') return { text: 'On its way', color: 'gray.7' };
  if (sms.deliveryStatus === 'failed')
    return { text: `Not delivered: ${sms.deliveryError ?? 'the network gave no reason'}`, color: 'red.8' };
  return null;
}

export const describeReplies = (count: number) => `${count} ${count === 1 ? 'reply' : 'replies'}`;

/** What a reply as the recipient did, in words: the consent it changed, if any. */
export function describeReplyOutcome(msisdn: string, consent: 'in' | 'out' | null): string {
  if (consent === 'out') return `${msisdn} opted out of SMS.`;
  if (consent === 'in') return `${msisdn} opted back in to SMS.`;
  return `${msisdn}'s reply is listed under Replies.`;
}
