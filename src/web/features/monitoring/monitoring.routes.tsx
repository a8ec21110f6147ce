import type { RouteObject } from 'react-router';

/**
 * Signed-in screens of the monitoring area (spec section 2), inside the console layout. The dashboard carries
 * recharts and the search the date picker, so each screen loads as its own chunk on first visit.
 */
export const monitoringRoutes: RouteObject[] = [
  { path: '/app/liveview/:id', lazy: async () => ({ Component: (await import('./live-data-page')).LiveDataPage }) },
  { path: '/app/actionlogs/:id', lazy: async () => ({ Component: (await import('./action-logs-page')).ActionLogsPage }) },
  { path: '/app/dashboard/:appId', lazy: async () => ({ Component: (await import('./dashboard-page')).DashboardPage }) },
  {
    path: '/app/completesession/:id',
    lazy: async () => {
      const { SessionListPage } = await import('./session-list-page');
      return { Component: () => <SessionListPage kind="completed" /> };
    },
  },
  {
    path: '/app/uncompletedsession/:id',
    lazy: async () => {
      const { SessionListPage } = await import('./session-list-page');
      return { Component: () => <SessionListPage kind="uncompleted" /> };
    },
  },
  { path: '/app/search/:id', lazy: async () => ({ Component: (await import('./session-search-page')).SessionSearchPage }) },
];
