import type { FastifyInstance } from 'fastify';
import { APP_IMPORT_MAX_BYTES } from '../../../shared/api/app-transfer.schema';
import {
  cloneApp,
  createApp,
  deleteApp,
  exportApp,
  findAppGatewayTraffic,
  findApps,
  getApp,
  importApp,
  removeAppGatewayKey,
  rotateAppGatewayKey,
  updateApp,
} from '../../../shared/api/apps.calls';
import { findFeaturedTemplates } from '../../../shared/api/templates.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, getOrigin, ok } from '../../http';
import { createLimit, readAddress } from '../../core/rate-limits';
import * as appsService from './apps.service';
import * as appTransferService from './app-transfer.service';

export function registerAppsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['apps'];
  // An API key may read apps, and change them with a write key.
  const reader = { tags, config: { apiKeyScope: 'read' as const }, onRequest: guard() };
  const writer = { tags, config: { apiKeyScope: 'write' as const }, onRequest: guard() };
  // Each import reads and checks a whole file on the server's thread: a builder importing by hand never meets
  // these limits, a script looping over imports (from one account or many free ones) does. Counted after the
  // guard and before the body is read (a refused import costs no parse of its file), successful or not.
  const importLimits = [
    createLimit(app, 'import-account', ctx.config.IMPORT_RATE_LIMIT, (req) => getSignedInUser(req).id),
    createLimit(app, 'import-address', ctx.config.IMPORT_ADDRESS_RATE_LIMIT, readAddress),
  ];

  registerCall(app, createApp, {
    ...writer,
    handler: async (req) =>
      ok('App created successfully', await appsService.createApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  registerCall(app, findApps, {
    ...reader,
    handler: async (req) => ({ ...ok('OK', await appsService.findApps(ctx, getSignedInUser(req), getOrigin(ctx, req))), error: null }),
  });

  registerCall(app, updateApp, {
    ...writer,
    handler: async (req) =>
      ok('App updated successfully', await appsService.updateApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  registerCall(app, cloneApp, {
    tags,
    onRequest: guard(),
    handler: async (req) =>
      ok('App cloned successfully', await appsService.cloneApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  registerCall(app, getApp, {
    ...reader,
    handler: async (req) => ok('OK', await appsService.getApp(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  registerCall(app, findAppGatewayTraffic, {
    ...reader,
    handler: async (req) => ok('OK', await appsService.findGatewayTraffic(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, rotateAppGatewayKey, {
    tags,
    onRequest: guard(),
    handler: async (req) =>
      ok('Gateway key created', await appsService.rotateAppGatewayKey(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  registerCall(app, removeAppGatewayKey, {
    tags,
    onRequest: guard(),
    handler: async (req) =>
      ok('Gateway key turned off', await appsService.removeAppGatewayKey(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  registerCall(app, deleteApp, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      await appsService.deleteApp(ctx, getSignedInUser(req), req.params.appId);
      return done('App deleted');
    },
  });

  registerCall(app, exportApp, {
    tags,
    summary: 'The app as one file: settings and draft menus, secrets left out (docs/import-export.md)',
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await appTransferService.exportApp(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, importApp, {
    tags,
    summary: 'A new app from an export file; refused with every problem (field, message) when it does not fit',
    // An export is larger than the other calls' bodies; past this the reply names the limit (plugins/errors.ts).
    bodyLimit: APP_IMPORT_MAX_BYTES,
    config: { apiKeyScope: 'write' },
    onRequest: [guard(), ...importLimits],
    handler: async (req) => {
      const { app: created, warnings } = await appTransferService.importApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req));
      return { ...ok('App imported successfully', created), warnings };
    },
  });

  registerCall(app, findFeaturedTemplates, {
    tags,
    handler: async (req) => ok('OK', await appsService.findFeaturedTemplates(ctx, getOrigin(ctx, req))),
  });
}
