import type { RouteObject } from 'react-router';

/** The dashboard area's screens of one app. The dashboard carries recharts: its own chunk. */
export const dashboardRoutes: RouteObject[] = [
  { path: '/app/dashboard/:appId', lazy: async () => ({ Component: (await import('./dashboard-page')).DashboardPage }) },
  { path: '/app/liveview/:id', lazy: async () => ({ Component: (await import('./live-data-page')).LiveDataPage }) },
];
