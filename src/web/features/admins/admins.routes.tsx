import type { RouteObject } from 'react-router';
import { ADMIN_CREATE_PATH, ADMIN_LIST_PATH, AUDIT_LOG_PATH, CONTACT_REQUESTS_PATH } from './admins.api';

/** Signed-in screens of the admins area (docs/merchants.md): system users and the audit log (super admins), and contact requests. */
export const adminsRoutes: RouteObject[] = [
  { path: ADMIN_LIST_PATH, lazy: async () => ({ Component: (await import('./admin-list-page')).AdminListPage }) },
  { path: ADMIN_CREATE_PATH, lazy: async () => ({ Component: (await import('./admin-create-page')).AdminCreatePage }) },
  { path: '/admin/manage/:adminUuid', lazy: async () => ({ Component: (await import('./admin-manage-page')).AdminManagePage }) },
  { path: AUDIT_LOG_PATH, lazy: async () => ({ Component: (await import('./admin-audit-log-page')).AdminAuditLogPage }) },
  {
    path: CONTACT_REQUESTS_PATH,
    lazy: async () => ({ Component: (await import('./admin-contact-request-list-page')).AdminContactRequestListPage }),
  },
];
