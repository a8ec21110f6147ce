import { z } from 'zod';
import { appExportSchema, importAppBodySchema, importAppReplySchema } from './app-transfer.schema';
import { appSchema, cloneAppBodySchema, createAppBodySchema, gatewayTrafficSchema, updateAppBodySchema } from './apps.schema';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';

// The apps' calls (src/shared/api/contract.ts). Keys: ['apps'] holds the app list and, below it, each app
// (['apps', appId]) and its versions.

/** GET /api/getAllApps: the account's apps. */
export const findApps = defineCall({
  method: 'GET',
  path: '/api/getAllApps',
  reply: envelopeSchema(z.array(appSchema)).extend({ error: z.null() }),
  key: ['apps'],
});

/** GET /api/getAppByAppId/:appId: one app, with its gateway URLs. */
export const getApp = defineCall({
  method: 'GET',
  path: '/api/getAppByAppId/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(appSchema),
  key: ['apps', ':appId'],
});

/** POST /api/createApp. */
export const createApp = defineCall({
  method: 'POST',
  path: '/api/createApp',
  body: createAppBodySchema,
  reply: envelopeSchema(appSchema),
});

/** POST /api/updateApp: the whole app object back with its edits (the call's contract). */
export const updateApp = defineCall({
  method: 'POST',
  path: '/api/updateApp',
  body: updateAppBodySchema,
  reply: envelopeSchema(appSchema),
});

/** POST /api/cloneApp: a new app from one of the account's apps or a featured template. */
export const cloneApp = defineCall({
  method: 'POST',
  path: '/api/cloneApp',
  body: cloneAppBodySchema,
  reply: envelopeSchema(appSchema),
});

/**
 * GET /api/getAppGatewayTraffic/:appId: the gateways that sent the app sessions in the last 30 days, busiest first
 * (App Settings offers to connect those it is not connected to; docs/runtime.md, "Gateway profiles").
 */
export const findAppGatewayTraffic = defineCall({
  method: 'GET',
  path: '/api/getAppGatewayTraffic/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(z.array(gatewayTrafficSchema)),
  key: ['apps', ':appId', 'gateway-traffic'],
});

/** POST /api/rotateAppGatewayKey/:appId: turns the app's gateway key on with a new one, or replaces it (the old key is refused at once). */
export const rotateAppGatewayKey = defineCall({
  method: 'POST',
  path: '/api/rotateAppGatewayKey/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(appSchema),
});

/** POST /api/removeAppGatewayKey/:appId: turns the app's gateway key off; its bare URLs are served again. */
export const removeAppGatewayKey = defineCall({
  method: 'POST',
  path: '/api/removeAppGatewayKey/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(appSchema),
});

/** GET /deleteApp/:appId (the product's path). */
export const deleteApp = defineCall({
  method: 'GET',
  path: '/deleteApp/:appId',
  params: appIdParamsSchema,
  reply: messageSchema,
});

/** GET /api/exportApp/:appId: the app as one file (settings and draft menus, secrets left out). */
export const exportApp = defineCall({
  method: 'GET',
  path: '/api/exportApp/:appId',
  params: appIdParamsSchema,
  reply: envelopeSchema(appExportSchema),
});

/** POST /api/importApp: a new app from a file; a refusal carries `errors` ({ field, message }), a success `warnings`. */
export const importApp = defineCall({
  method: 'POST',
  path: '/api/importApp',
  body: importAppBodySchema,
  reply: importAppReplySchema,
});
