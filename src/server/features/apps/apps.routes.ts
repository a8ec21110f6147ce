import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appSchema, cloneAppBodySchema, createAppBodySchema, updateAppBodySchema } from '../../../shared/api/apps.schema';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import { APP_IMPORT_MAX_BYTES, appExportSchema, importAppBodySchema, importAppReplySchema } from '../../../shared/api/app-transfer.schema';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, getOrigin, ok } from '../../http';
import { createLimit, readAddress } from '../../core/rate-limits';
import * as appsService from './apps.service';
import * as appTransferService from './app-transfer.service';

const appIdParams = z.object({ appId: z.string().min(1).max(64) });

export function registerAppsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['apps'];
  // Each import reads and checks a whole file on the server's thread: a builder importing by hand never meets
  // these limits, a script looping over imports (from one account or many free ones) does. Counted after the
  // guard and before the body is read (a refused import costs no parse of its file), successful or not.
  const importLimits = [
    createLimit(app, 'import-account', ctx.config.IMPORT_RATE_LIMIT, (req) => getSignedInUser(req).id),
    createLimit(app, 'import-address', ctx.config.IMPORT_ADDRESS_RATE_LIMIT, readAddress),
  ];

  r.post('/api/createApp', {
    schema: { tags, body: createAppBodySchema, response: { 200: envelopeSchema(appSchema) } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) =>
      ok('App created successfully', await appsService.createApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  r.get('/api/getAllApps', {
    schema: { tags, response: { 200: envelopeSchema(z.array(appSchema)).extend({ error: z.null() }) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ({ ...ok('OK', await appsService.findApps(ctx, getSignedInUser(req), getOrigin(ctx, req))), error: null }),
  });

  r.post('/api/updateApp', {
    schema: { tags, body: updateAppBodySchema, response: { 200: envelopeSchema(appSchema) } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) =>
      ok('App updated successfully', await appsService.updateApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  r.post('/api/cloneApp', {
    schema: { tags, body: cloneAppBodySchema, response: { 200: envelopeSchema(appSchema) } },
    onRequest: guard(),
    handler: async (req) =>
      ok('App cloned successfully', await appsService.cloneApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req))),
  });

  r.get('/api/getAppByAppId/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(appSchema) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await appsService.getApp(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  r.post('/api/rotateAppGatewayKey/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(appSchema) } },
    onRequest: guard(),
    handler: async (req) =>
      ok('Gateway key created', await appsService.rotateAppGatewayKey(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  r.post('/api/removeAppGatewayKey/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(appSchema) } },
    onRequest: guard(),
    handler: async (req) =>
      ok('Gateway key turned off', await appsService.removeAppGatewayKey(ctx, getSignedInUser(req), req.params.appId, getOrigin(ctx, req))),
  });

  r.get('/deleteApp/:appId', {
    schema: { tags, params: appIdParams, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      await appsService.deleteApp(ctx, getSignedInUser(req), req.params.appId);
      return done('App deleted');
    },
  });

  r.get('/api/exportApp/:appId', {
    schema: {
      tags,
      summary: 'The app as one file: settings and draft menus, secrets left out (docs/import-export.md)',
      params: appIdParams,
      response: { 200: envelopeSchema(appExportSchema) },
    },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await appTransferService.exportApp(ctx, getSignedInUser(req), req.params.appId)),
  });

  r.post('/api/importApp', {
    schema: {
      tags,
      summary: 'A new app from an export file; refused with every problem (field, message) when it does not fit',
      body: importAppBodySchema,
      response: { 200: importAppReplySchema },
    },
    // An export is larger than the other calls' bodies; past this the reply names the limit (plugins/errors.ts).
    bodyLimit: APP_IMPORT_MAX_BYTES,
    config: { apiKeyScope: 'write' },
    onRequest: [guard(), ...importLimits],
    handler: async (req) => {
      const { app: created, warnings } = await appTransferService.importApp(ctx, getSignedInUser(req), req.body, getOrigin(ctx, req));
      return { ...ok('App imported successfully', created), warnings };
    },
  });

  r.get('/featuredTemplates', {
    schema: { tags, response: { 200: envelopeSchema(z.array(appSchema)) } },
    handler: async (req) => ok('OK', await appsService.findFeaturedTemplates(ctx, getOrigin(ctx, req))),
  });
}
