import { createBrowserRouter } from 'react-router';
import { publicRoutes } from './features/public/public.routes';
import { consoleRoutes } from './features/console/console.routes';
import { emulatorRoutes } from './features/emulator/emulator.routes';
import { botFullScreenRoutes } from './features/bots/bots.routes';
import { NotFoundPage } from './components/not-found-page';
import { PageLoading } from './components/page-loading';
import { RootLayout } from './components/root-layout';
import { RouteErrorPage } from './components/route-error-page';

/**
 * One root route around every screen. Every screen but the home page loads its code on first visit (`lazy` in
 * each area's *.routes.tsx), so the first download is the home page's and a console screen's is its own
 * (docs/architecture.md, "The console's code"). Opening such a screen directly makes the router load its code
 * before the first render: the root's HydrateFallback shows meanwhile (without one, react-router renders nothing
 * and warns); moving to one keeps the current screen under RootLayout's progress bar. A screen whose code fails
 * to load (a deploy since the page loaded) ends in RouteErrorPage, which loads the new build.
 */
export const router = createBrowserRouter([
  {
    Component: RootLayout,
    HydrateFallback: PageLoading,
    ErrorBoundary: RouteErrorPage,
    children: [...publicRoutes, ...consoleRoutes, ...emulatorRoutes, ...botFullScreenRoutes, { path: '*', element: <NotFoundPage /> }],
  },
]);
