import { createBrowserRouter } from 'react-router';
import { publicRoutes } from './features/public/public.routes';
import { consoleRoutes } from './features/console/console.routes';
import { emulatorRoutes } from './features/emulator/emulator.routes';
import { botFullScreenRoutes } from './features/bots/bots.routes';
import { NotFoundPage } from './components/not-found-page';
import { PageLoading } from './components/page-loading';

/**
 * One root route around every screen. Opening a lazily loaded screen (the designer, the monitoring screens)
 * directly makes the router load its code before the first render; the root's HydrateFallback is what shows
 * meanwhile (without one, react-router renders nothing and warns).
 */
export const router = createBrowserRouter([
  {
    HydrateFallback: PageLoading,
    children: [...publicRoutes, ...consoleRoutes, ...emulatorRoutes, ...botFullScreenRoutes, { path: '*', element: <NotFoundPage /> }],
  },
]);
