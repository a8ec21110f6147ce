import type { RouteObject } from 'react-router';

/** The emulator's two routes, both shown without the console layout. */
export const emulatorRoutes: RouteObject[] = [
  {
    path: '/app/emulator/:appId',
    lazy: async () => {
      const { EmulatorHomePage } = await import('./emulator-home-page');
      return { element: <EmulatorHomePage source="app" /> };
    },
  },
  {
    path: '/apptemplate/emulator/:appId',
    lazy: async () => {
      const { EmulatorHomePage } = await import('./emulator-home-page');
      return { element: <EmulatorHomePage source="template" /> };
    },
  },
];
