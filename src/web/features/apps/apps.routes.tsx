import type { RouteObject } from 'react-router';
import { AppCreatePage } from './app-create-page';
import { AppListAdminPage } from './app-list-admin-page';
import { AppListPage } from './app-list-page';
import { AppSettingsPage } from './app-settings-page';

/** Signed-in screens of the apps area, shown inside the console layout. */
export const appsRoutes: RouteObject[] = [
  { path: '/create-app', element: <AppCreatePage /> },
  { path: '/app-list', element: <AppListPage /> },
  { path: '/app-list-admin', element: <AppListAdminPage /> },
];

/** The apps area's screens of one app, which console.routes.tsx puts behind AppScreenGuard. */
export const appScreenRoutes: RouteObject[] = [{ path: '/app-settings/:id', element: <AppSettingsPage /> }];
