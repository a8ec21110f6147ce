import type { RouteObject } from 'react-router';

/** The webhooks screen of one app, which console.routes.tsx puts behind AppScreenGuard. */
export const webhooksRoutes: RouteObject[] = [
  { path: '/app-webhooks/:appId', lazy: async () => ({ Component: (await import('./webhooks-page')).WebhooksPage }) },
];
