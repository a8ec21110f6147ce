import type { RouteObject } from 'react-router';

/** The console's own screen; the layout around every signed-in screen is put in place by src/web/routes.tsx. */
export const consoleRoutes: RouteObject[] = [
  { path: '/get-started', lazy: async () => ({ Component: (await import('./get-started-page')).GetStartedPage }) },
];
