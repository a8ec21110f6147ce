import type { RouteObject } from 'react-router';
import { WebhooksPage } from './webhooks-page';

/** The webhooks screen of one app, which console.routes.tsx puts behind AppScreenGuard. */
export const webhooksRoutes: RouteObject[] = [{ path: '/app-webhooks/:appId', element: <WebhooksPage /> }];
