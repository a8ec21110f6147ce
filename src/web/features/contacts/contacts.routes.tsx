import type { RouteObject } from 'react-router';
import { CONTACTS_PATH } from './contacts.api';

/** The account's contacts: the list (search, filters, import, export) and a contact's page (docs/contacts.md). */
export const contactsRoutes: RouteObject[] = [
  { path: CONTACTS_PATH, lazy: async () => ({ Component: (await import('./contact-list-page')).ContactListPage }) },
  { path: '/contacts/:contactId', lazy: async () => ({ Component: (await import('./contact-page')).ContactPage }) },
];
