import type { RouteObject } from 'react-router';

/** An app's Tests screen (its saved test cases and their run), loaded as its own chunk on first visit. */
export const testCasesRoutes: RouteObject[] = [
  { path: '/app/tests/:appId', lazy: async () => ({ Component: (await import('./tests-page')).TestsPage }) },
];
