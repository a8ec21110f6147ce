import type { ConsentChannel } from '../../../shared/contact-consent';
import type { Contact } from '../../../shared/api/contacts.schema';

export { CONTACTS_PATH, contactPath } from '../../lib/paths';

/** A number's subscriber data: the account's own, and every account's (docs/security.md, "Subscriber data"). */
export const SUBSCRIBER_DATA_PATH = '/contacts/subscriber-data';
export const PLATFORM_SUBSCRIBER_DATA_PATH = '/admin/subscriber-data';

/** Every query of the contacts area sits below this key (the declared calls' keys start with it). */
export const CONTACTS_KEY = ['contacts'] as const;

/** Contacts a page of the list shows. */
export const CONTACTS_PAGE = 25;

export const CHANNEL_LABELS: Record<ConsentChannel, string> = { ussd: 'USSD', whatsapp: 'WhatsApp', sms: 'SMS' };

export const CONSENT_STATUS_LABELS = { in: 'Opted in', out: 'Opted out', never: 'Never asked' } as const;

/** A contact's consent on a channel, as a status the filters also use. */
export const consentStatusOf = (contact: Pick<Contact, 'consent'>, channel: ConsentChannel) => contact.consent[channel]?.status ?? 'never';

export const CONSENT_COLORS = { in: 'teal', out: 'red', never: 'gray' } as const;
