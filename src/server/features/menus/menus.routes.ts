import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { menuBodySchema, menuLiteSchema, menuSchema } from '../../../shared/app';
import {
  appVersionInfoSchema,
  deployReplySchema,
  rollbackBodySchema,
  saveMenuOrderBodySchema,
  saveMenuPositionsBodySchema,
} from '../../../shared/api/menus.schema';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, ok } from '../../http';
import * as menusService from './menus.service';

const appIdParams = z.object({ appId: z.string().min(1).max(64) });
const savedReply = messageSchema.extend({ uniqueId: z.string() });

export function registerMenusRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['menus'];

  r.get('/api/getAllMenus/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(menuSchema)) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findMenus(ctx, getSignedInUser(req), req.params.appId)),
  });

  r.get('/api/getAllMenusLite/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(menuLiteSchema)) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findMenusLite(ctx, getSignedInUser(req), req.params.appId)),
  });

  r.post('/api/createMenu', {
    schema: { tags, body: menuBodySchema, response: { 200: savedReply } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu saved',
      uniqueId: await menusService.createMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  r.post('/api/updateMenu', {
    schema: { tags, body: menuBodySchema, response: { 200: savedReply } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu updated',
      uniqueId: await menusService.updateMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  r.get('/api/deleteMenu/:uniqueId', {
    schema: { tags, params: z.object({ uniqueId: z.string().min(1).max(64) }), response: { 200: messageSchema } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      await menusService.deleteMenu(ctx, getSignedInUser(req), req.params.uniqueId);
      return done('Menu deleted');
    },
  });

  r.post('/api/saveMenuOrder', {
    schema: { tags, body: saveMenuOrderBodySchema, response: { 200: messageSchema } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      await menusService.saveMenuOrder(ctx, getSignedInUser(req), req.body.appId, req.body.menuIds);
      return done('Menu order saved');
    },
  });

  r.post('/api/saveMenuPositions', {
    schema: { tags, body: saveMenuPositionsBodySchema, response: { 200: messageSchema } },
    onRequest: guard(),
    handler: async (req) => {
      const { appId, direction, positions } = req.body;
      await menusService.saveMenuPositions(ctx, getSignedInUser(req), appId, direction, positions);
      return done('Menu positions saved');
    },
  });

  r.get('/api/deployChanges/:appId', {
    schema: { tags, params: appIdParams, response: { 200: deployReplySchema } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      const info = await menusService.deployApp(ctx, getSignedInUser(req), req.params.appId);
      const note = info.warnings.length ? ` with ${info.warnings.length} warning${info.warnings.length > 1 ? 's' : ''}` : '';
      return ok(`Deployed version ${info.version}${note}`, info);
    },
  });

  r.get('/api/getAppVersions/:appId', {
    schema: { tags, params: appIdParams, response: { 200: envelopeSchema(z.array(appVersionInfoSchema)) } },
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findVersions(ctx, getSignedInUser(req), req.params.appId)),
  });

  r.post('/api/rollbackVersion', {
    schema: { tags, body: rollbackBodySchema, response: { 200: envelopeSchema(appVersionInfoSchema) } },
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      const info = await menusService.rollbackVersion(ctx, getSignedInUser(req), req.body.appId, req.body.version);
      return ok(`Rolled back: version ${info.version} now serves version ${req.body.version}`, info);
    },
  });
}
