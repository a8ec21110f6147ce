import { createBrowserRouter } from 'react-router';
import { publicRoutes } from './features/public/public.routes';
import { consoleRoutes } from './features/console/console.routes';

export const router = createBrowserRouter([...publicRoutes, ...consoleRoutes]);
