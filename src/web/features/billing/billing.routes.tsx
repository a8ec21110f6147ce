import type { RouteObject } from 'react-router';
import { BILLING_PATH } from '../../lib/paths';

/** Signed-in screens of the billing area: Account Billing, for everyone. */
export const billingRoutes: RouteObject[] = [
  { path: BILLING_PATH, lazy: async () => ({ Component: (await import('./billing-page')).BillingPage }) },
];
