/**
 * Whether an account may write to a contact on a channel (docs/contacts.md, consent per channel): only after the
 * person opted in there. One function, for everything outbound (a business writing first, campaigns).
 */
import type { ConsentChannel, ContactConsentMap } from '../../shared/contact-consent';

const CHANNEL_NAMES: Record<ConsentChannel, string> = { ussd: 'USSD', whatsapp: 'WhatsApp', sms: 'SMS' };

/** null when the contact opted in on the channel; otherwise why nothing may be sent, in words for the caller. */
export function checkConsent(
  contact: { msisdn: string; consent: ContactConsentMap } | null | undefined,
  channel: ConsentChannel,
): string | null {
  const name = CHANNEL_NAMES[channel];
  if (!contact) return `This number is not one of your contacts, so it has not opted in to ${name} messages.`;
  const consent = contact.consent[channel];
  if (consent?.status === 'in') return null;
  if (consent?.status === 'out') return `${contact.msisdn} opted out of ${name} messages on ${consent.at.slice(0, 10)}.`;
  return `${contact.msisdn} has not opted in to ${name} messages.`;
}
