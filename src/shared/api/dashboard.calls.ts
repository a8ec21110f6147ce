import { z } from 'zod';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema } from './envelope';
import {
  dashboardQuerySchema,
  dashboardSchema,
  deliveryCountsQuerySchema,
  deliveryCountsSchema,
  inboxFiguresQuerySchema,
  inboxFiguresSchema,
  liveItemSchema,
  sessionHealthQuerySchema,
  sessionHealthSchema,
} from './monitoring.schema';

// The dashboard area's calls (src/shared/api/contract.ts): an app's open sessions and its dashboard. Every
// monitoring key sits under ['monitoring'].

/** GET /dashboard/liveView/:appId: the app's open sessions (Live data). */
export const findLiveItems = defineCall({
  method: 'GET',
  path: '/dashboard/liveView/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(z.array(liveItemSchema)),
  key: ['monitoring', 'live', ':appId'],
});

/** GET /api/dashboard/appDashboard/:appId?environment=: the app's counts, sessions per hour and outcomes per menu. */
export const getDashboard = defineCall({
  method: 'GET',
  path: '/api/dashboard/appDashboard/:appId',
  params: appIdParamsSchema,
  query: dashboardQuerySchema,
  reply: envelopeSchema(dashboardSchema),
  key: ['monitoring', 'dashboard', ':appId', ':environment'],
});

/** GET /api/dashboard/whatsappMessages/:appId?environment=&period=: a bot's sent messages by delivery status. */
export const getDeliveryCounts = defineCall({
  method: 'GET',
  path: '/api/dashboard/whatsappMessages/:appId',
  params: appIdParamsSchema,
  query: deliveryCountsQuerySchema,
  reply: envelopeSchema(deliveryCountsSchema),
  key: ['monitoring', 'deliveries', ':appId', ':environment', ':period'],
});

/** GET /api/dashboard/inbox/:appId?period=: the app's conversations handed to a person, and how soon they were answered. */
export const getInboxFigures = defineCall({
  method: 'GET',
  path: '/api/dashboard/inbox/:appId',
  params: appIdParamsSchema,
  query: inboxFiguresQuerySchema,
  reply: envelopeSchema(inboxFiguresSchema),
  key: ['monitoring', 'inbox', ':appId', ':period'],
});

/** GET /api/dashboard/sessionHealth/:appId?environment=&period=: why the app's sessions ended, by menu and network, and its hop times against each gateway's budget. */
export const getSessionHealth = defineCall({
  method: 'GET',
  path: '/api/dashboard/sessionHealth/:appId',
  params: appIdParamsSchema,
  query: sessionHealthQuerySchema,
  reply: envelopeSchema(sessionHealthSchema),
  key: ['monitoring', 'session-health', ':appId', ':environment', ':period'],
});
