import type { RouteObject } from 'react-router';
import { AdminSubscriptionPage } from '../billing/admin-subscription-page';
import { ADMIN_SUBSCRIPTIONS_PATH } from '../billing/billing.api';
import { AdminAuditLogPage } from './admin-audit-log-page';
import { AdminContactRequestListPage } from './admin-contact-request-list-page';
import { AdminCreatePage } from './admin-create-page';
import { AdminListPage } from './admin-list-page';
import { AdminManagePage } from './admin-manage-page';
import { ADMIN_CREATE_PATH, ADMIN_LIST_PATH, AUDIT_LOG_PATH, CONTACT_REQUESTS_PATH } from './admins.api';

/** Signed-in screens of the admins area (docs/merchants.md): system users and the audit log (super admins), contact requests, and Subscriptions (docs/billing.md). */
export const adminsRoutes: RouteObject[] = [
  { path: ADMIN_LIST_PATH, element: <AdminListPage /> },
  { path: ADMIN_CREATE_PATH, element: <AdminCreatePage /> },
  { path: '/admin/manage/:adminUuid', element: <AdminManagePage /> },
  { path: AUDIT_LOG_PATH, element: <AdminAuditLogPage /> },
  { path: CONTACT_REQUESTS_PATH, element: <AdminContactRequestListPage /> },
  { path: ADMIN_SUBSCRIPTIONS_PATH, element: <AdminSubscriptionPage /> },
];
