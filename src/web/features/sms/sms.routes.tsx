import type { RouteObject } from 'react-router';
import { SMS_OUTBOX_PATH } from './sms.api';

/** The SMS Outbox: what the account's apps sent (docs/product.md, SMS Outbox). */
export const smsRoutes: RouteObject[] = [
  { path: SMS_OUTBOX_PATH, lazy: async () => ({ Component: (await import('./sms-outbox-page')).SmsOutboxPage }) },
];
