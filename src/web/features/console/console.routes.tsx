import type { RouteObject } from 'react-router';
import { appsRoutes } from '../apps/apps.routes';
import { accountRoutes, authRoutes } from '../auth/auth.routes';
import { templatesRoutes } from '../templates/templates.routes';
import { designerRoutes } from '../designer/designer.routes';
import { customActionsRoutes } from '../custom-actions/custom-actions.routes';
import { monitoringRoutes } from '../monitoring/monitoring.routes';
import { ConsoleLayout } from './console-layout';
import { GetStartedPage } from './get-started-page';

/**
 * Every signed-in screen, shown inside the console layout. Add an area's routes here (`...appsRoutes`) and its
 * sidebar entries, top-bar links and buttons stop showing 'Soon' by themselves: BUILT_ROUTES is derived
 * from this list.
 */
const signedInRoutes: RouteObject[] = [{ path: '/get-started', element: <GetStartedPage /> }, ...accountRoutes, ...appsRoutes, ...templatesRoutes, ...designerRoutes, ...customActionsRoutes, ...monitoringRoutes];

/** The paths that have a screen, e.g. '/get-started'. Sidebar paths carry no parameters, so a set of strings will do. */
export const BUILT_ROUTES: ReadonlySet<string> = new Set(signedInRoutes.flatMap((route) => (route.path ? [route.path] : [])));

export const consoleRoutes: RouteObject[] = [
  ...authRoutes,
  { element: <ConsoleLayout builtRoutes={BUILT_ROUTES} />, children: signedInRoutes },
];
