import type { RouteObject } from 'react-router';
import { publicRoutes } from './features/public/public.routes';
import { consoleRoutes } from './features/console/console.routes';
import { emulatorRoutes } from './features/emulator/emulator.routes';
import { botFullScreenRoutes, botScreenRoutes, botsRoutes } from './features/bots/bots.routes';
import { appScreenRoutes, appsRoutes } from './features/apps/apps.routes';
import { AppScreenGuard } from './features/apps/app-screen-guard';
import { webhooksRoutes } from './features/webhooks/webhooks.routes';
import { accountRoutes, authRoutes } from './features/auth/auth.routes';
import { templatesRoutes } from './features/templates/templates.routes';
import { botDesignerRoutes, menusRoutes } from './features/menus/menus.routes';
import { flowmapRoutes } from './features/flowmap/flowmap.routes';
import { testCasesRoutes } from './features/testcases/testcases.routes';
import { customActionsRoutes } from './features/custom-actions/custom-actions.routes';
import { subflowsRoutes } from './features/subflows/subflows.routes';
import { dashboardRoutes } from './features/dashboard/dashboard.routes';
import { logsRoutes } from './features/logs/logs.routes';
import { sessionsRoutes } from './features/sessions/sessions.routes';
import { shortcodesRoutes } from './features/shortcodes/shortcodes.routes';
import { billingRoutes } from './features/billing/billing.routes';
import { merchantsRoutes } from './features/merchants/merchants.routes';
import { adminsRoutes } from './features/admins/admins.routes';
import { smsRoutes } from './features/sms/sms.routes';
import { mailRoutes } from './features/mail/mail.routes';
import { contactsRoutes } from './features/contacts/contacts.routes';
import { inboxRoutes } from './features/inbox/inbox.routes';
import { campaignsRoutes } from './features/campaigns/campaigns.routes';
import { NotFoundPage } from './components/not-found-page';
import { PageLoading } from './components/page-loading';
import { RootLayout } from './components/root-layout';
import { RouteErrorPage } from './components/route-error-page';

/** Every signed-in screen, shown inside the console layout: add an area's routes here (`...appsRoutes`). */
export const signedInRoutes: RouteObject[] = [
  ...consoleRoutes,
  ...accountRoutes,
  ...appsRoutes,
  ...templatesRoutes,
  ...customActionsRoutes,
  ...subflowsRoutes,
  ...shortcodesRoutes,
  ...billingRoutes,
  ...merchantsRoutes,
  ...adminsRoutes,
  ...botsRoutes,
  ...smsRoutes,
  ...mailRoutes,
  ...contactsRoutes,
  ...inboxRoutes,
  ...campaignsRoutes,
  // Every screen of one bot: 'Bot not found' for an unknown id.
  { element: <AppScreenGuard isBot />, children: [...botScreenRoutes, ...botDesignerRoutes] },
  // Every screen of one app: an unknown or foreign app id shows 'App not found' once, here, for all of them.
  {
    element: <AppScreenGuard />,
    children: [
      ...appScreenRoutes,
      ...menusRoutes,
      ...flowmapRoutes,
      ...testCasesRoutes,
      ...dashboardRoutes,
      ...logsRoutes,
      ...sessionsRoutes,
      ...webhooksRoutes,
    ],
  },
];

/**
 * One root route around every screen, the areas' routes put together here so that no area imports the others'.
 * Every screen but the home page loads its code on first visit (`lazy` in each area's *.routes.tsx), so the
 * first download is the home page's and a console screen's is its own (docs/architecture.md, "The console's
 * code"). Opening such a screen directly makes the router load its code before the first render: the root's
 * HydrateFallback shows meanwhile (without one, react-router renders nothing and warns); moving to one keeps the
 * current screen under RootLayout's progress bar. A screen whose code fails to load (a deploy since the page
 * loaded) ends in RouteErrorPage, which loads the new build.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteErrorPage,
    children: [
      ...publicRoutes,
      ...authRoutes,
      {
        lazy: async () => ({ Component: (await import('./features/console/console-layout')).ConsoleLayout }),
        children: signedInRoutes,
      },
      ...emulatorRoutes,
      ...botFullScreenRoutes,
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
