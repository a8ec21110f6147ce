import type { RouteObject } from 'react-router';
import { appScreenRoutes, appsRoutes } from '../apps/apps.routes';
import { AppScreenGuard } from '../apps/app-screen-guard';
import { webhooksRoutes } from '../webhooks/webhooks.routes';
import { accountRoutes, authRoutes } from '../auth/auth.routes';
import { templatesRoutes } from '../templates/templates.routes';
import { menusRoutes } from '../menus/menus.routes';
import { flowmapRoutes } from '../flowmap/flowmap.routes';
import { customActionsRoutes } from '../custom-actions/custom-actions.routes';
import { dashboardRoutes } from '../dashboard/dashboard.routes';
import { logsRoutes } from '../logs/logs.routes';
import { sessionsRoutes } from '../sessions/sessions.routes';
import { shortcodesRoutes } from '../shortcodes/shortcodes.routes';
import { billingRoutes } from '../billing/billing.routes';
import { merchantsRoutes } from '../merchants/merchants.routes';
import { adminsRoutes } from '../admins/admins.routes';
import { botsRoutes } from '../bots/bots.routes';
import { smsRoutes } from '../sms/sms.routes';
import { mailRoutes } from '../mail/mail.routes';

/**
 * Every signed-in screen, shown inside the console layout. Add an area's routes here (`...appsRoutes`) and its
 * sidebar entries, top-bar links and buttons stop showing 'Soon' by themselves: BUILT_ROUTES is derived
 * from this list.
 */
const signedInRoutes: RouteObject[] = [
  { path: '/get-started', lazy: async () => ({ Component: (await import('./get-started-page')).GetStartedPage }) },
  ...accountRoutes,
  ...appsRoutes,
  ...templatesRoutes,
  ...customActionsRoutes,
  ...shortcodesRoutes,
  ...billingRoutes,
  ...merchantsRoutes,
  ...adminsRoutes,
  ...botsRoutes,
  ...smsRoutes,
  ...mailRoutes,
  // Every screen of one app: an unknown or foreign app id shows 'App not found' once, here, for all of them.
  {
    element: <AppScreenGuard />,
    children: [
      ...appScreenRoutes,
      ...menusRoutes,
      ...flowmapRoutes,
      ...dashboardRoutes,
      ...logsRoutes,
      ...sessionsRoutes,
      ...webhooksRoutes,
    ],
  },
];

const findPaths = (routes: RouteObject[]): string[] =>
  routes.flatMap((route) => [...(route.path ? [route.path] : []), ...findPaths(route.children ?? [])]);

/** The paths that have a screen, e.g. '/get-started'. Sidebar paths carry no parameters, so a set of strings will do. */
export const BUILT_ROUTES: ReadonlySet<string> = new Set(findPaths(signedInRoutes));

export const consoleRoutes: RouteObject[] = [
  ...authRoutes,
  {
    lazy: async () => {
      const { ConsoleLayout } = await import('./console-layout');
      return { element: <ConsoleLayout builtRoutes={BUILT_ROUTES} /> };
    },
    children: signedInRoutes,
  },
];
