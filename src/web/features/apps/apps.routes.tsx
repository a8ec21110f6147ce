import type { RouteObject } from 'react-router';

/** Signed-in screens of the apps area, shown inside the console layout. */
export const appsRoutes: RouteObject[] = [
  { path: '/create-app', lazy: async () => ({ Component: (await import('./app-create-page')).AppCreatePage }) },
  { path: '/app-list', lazy: async () => ({ Component: (await import('./app-list-page')).AppListPage }) },
  { path: '/app-list-admin', lazy: async () => ({ Component: (await import('./app-list-admin-page')).AppListAdminPage }) },
];

/** The apps area's screens of one app, which src/web/routes.tsx puts behind AppScreenGuard. */
export const appScreenRoutes: RouteObject[] = [
  { path: '/app-settings/:id', lazy: async () => ({ Component: (await import('./app-settings-page')).AppSettingsPage }) },
];
