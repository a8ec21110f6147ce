import { createBrowserRouter } from 'react-router';
import { publicRoutes } from './features/public/public.routes';
import { consoleRoutes } from './features/console/console.routes';
import { emulatorRoutes } from './features/emulator/emulator.routes';
import { NotFoundPage } from './components/not-found-page';

export const router = createBrowserRouter([...publicRoutes, ...consoleRoutes, ...emulatorRoutes, { path: '*', element: <NotFoundPage /> }]);
