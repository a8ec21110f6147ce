import type { RouteObject } from 'react-router';
import { EmulatorHomePage } from './emulator-home-page';

/** The emulator's two routes, both shown without the console layout. */
export const emulatorRoutes: RouteObject[] = [
  { path: '/app/emulator/:appId', element: <EmulatorHomePage source="app" /> },
  { path: '/apptemplate/emulator/:appId', element: <EmulatorHomePage source="template" /> },
];
