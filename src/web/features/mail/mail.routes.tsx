import type { RouteObject } from 'react-router';
import { MAIL_OUTBOX_PATH } from './mail.api';

/** The Mail Outbox (super admins): every mail the platform sent or kept (docs/product.md, Mail Outbox). */
export const mailRoutes: RouteObject[] = [
  { path: MAIL_OUTBOX_PATH, lazy: async () => ({ Component: (await import('./mail-outbox-page')).MailOutboxPage }) },
];
