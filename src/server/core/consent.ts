/**
 * The outbound rule (docs/contacts.md, "Consent"), in one place: nothing the account's apps send first (SMS,
 * templates, campaigns) goes to a contact on a channel they have not opted in to. Every send that is not an
 * answer to the person's own message asks `checkConsent` and refuses with its reason.
 */
import type { ConsentChannel, ContactConsent, ContactConsentMap } from '../../shared/contact-consent';

/** The channels' names in a sentence. */
const CHANNEL_NAMES: Record<ConsentChannel, string> = { ussd: 'USSD', whatsapp: 'WhatsApp', sms: 'SMS' };

/** What a send may do: go, or be refused with the reason in words. */
export type ConsentCheck = { allowed: true } | { allowed: false; reason: string };

/** How a consent was given, as the reason names it: the keyword sent, the menu, the import, the API or the console. */
function describeSource(consent: ContactConsent): string {
  const { source, detail } = consent;
  if (source === 'keyword') return detail ? detail.toUpperCase() : 'a keyword';
  if (source === 'menu') return detail ? `menu ${detail}` : 'a menu';
  if (source === 'import') return detail ? `import: ${detail}` : 'an import';
  const by = source === 'api' ? 'the API' : 'the console';
  return detail ? `${by}: ${detail}` : by;
}

/**
 * Whether the account may send first to `contact` on `channel`: only when its latest consent there is an opt in.
 * @example checkConsent({ msisdn: '+233241234567', consent: {} }, 'sms')
 *   // { allowed: false, reason: '+233241234567 never opted in to SMS' }
 */
export function checkConsent(contact: { msisdn: string; consent: ContactConsentMap | null }, channel: ConsentChannel): ConsentCheck {
  const consent = contact.consent?.[channel];
  const name = CHANNEL_NAMES[channel];
  if (!consent) return { allowed: false, reason: `${contact.msisdn} never opted in to ${name}` };
  if (consent.status === 'in') return { allowed: true };
  return { allowed: false, reason: `${contact.msisdn} opted out of ${name} on ${consent.at.slice(0, 10)} (${describeSource(consent)})` };
}
