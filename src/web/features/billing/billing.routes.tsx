import type { RouteObject } from 'react-router';
import { ADMIN_SUBSCRIPTIONS_PATH, BILLING_PATH } from '../../lib/paths';

/** Signed-in screens of the billing area: Account Billing, for everyone, and Subscriptions, for admins (docs/billing.md). */
export const billingRoutes: RouteObject[] = [
  { path: BILLING_PATH, lazy: async () => ({ Component: (await import('./billing-page')).BillingPage }) },
  { path: ADMIN_SUBSCRIPTIONS_PATH, lazy: async () => ({ Component: (await import('./admin-subscription-page')).AdminSubscriptionPage }) },
];
