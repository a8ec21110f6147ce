import type { RouteObject } from 'react-router';
import { CONTACTS_PATH, PLATFORM_SUBSCRIBER_DATA_PATH, SUBSCRIBER_DATA_PATH } from './contacts.api';

/**
 * The account's contacts: the list (search, filters, import, export) and a contact's page (docs/contacts.md); a
 * number's subscriber data, the account's and (admins) every account's (docs/security.md).
 */
export const contactsRoutes: RouteObject[] = [
  { path: CONTACTS_PATH, lazy: async () => ({ Component: (await import('./contact-list-page')).ContactListPage }) },
  { path: SUBSCRIBER_DATA_PATH, lazy: async () => ({ Component: (await import('./subscriber-data-page')).SubscriberDataPage }) },
  {
    path: PLATFORM_SUBSCRIBER_DATA_PATH,
    lazy: async () => ({ Component: (await import('./subscriber-data-page')).PlatformSubscriberDataPage }),
  },
  { path: '/contacts/:contactId', lazy: async () => ({ Component: (await import('./contact-page')).ContactPage }) },
];
