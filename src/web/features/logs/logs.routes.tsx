import type { RouteObject } from 'react-router';

/** The application logs of one app, loaded as its own chunk on first visit. */
export const logsRoutes: RouteObject[] = [
  { path: '/app/actionlogs/:id', lazy: async () => ({ Component: (await import('./action-logs-page')).ActionLogsPage }) },
];
