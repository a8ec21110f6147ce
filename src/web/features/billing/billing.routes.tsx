import type { RouteObject } from 'react-router';
import { BillingPage } from './billing-page';
import { BILLING_PATH } from './billing.api';

/** Signed-in screens of the billing area: Account Billing, for everyone. */
export const billingRoutes: RouteObject[] = [{ path: BILLING_PATH, element: <BillingPage /> }];
