import type { FastifyInstance } from 'fastify';
import {
  createMenu,
  deleteMenu,
  deployChanges,
  findAppVersions,
  findMenus,
  findMenusLite,
  rollbackVersion,
  saveMenuOrder,
  saveMenuPositions,
  updateMenu,
} from '../../../shared/api/menus.calls';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { done, ok } from '../../http';
import * as menusService from './menus.service';

export function registerMenusRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['menus'];

  registerCall(app, findMenus, {
    tags,
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findMenus(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, findMenusLite, {
    tags,
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findMenusLite(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, createMenu, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu saved',
      uniqueId: await menusService.createMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  registerCall(app, updateMenu, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu updated',
      uniqueId: await menusService.updateMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  registerCall(app, deleteMenu, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      await menusService.deleteMenu(ctx, getSignedInUser(req), req.params.uniqueId);
      return done('Menu deleted');
    },
  });

  registerCall(app, saveMenuOrder, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      await menusService.saveMenuOrder(ctx, getSignedInUser(req), req.body.appId, req.body.menuIds);
      return done('Menu order saved');
    },
  });

  registerCall(app, saveMenuPositions, {
    tags,
    onRequest: guard(),
    handler: async (req) => {
      const { appId, direction, positions } = req.body;
      await menusService.saveMenuPositions(ctx, getSignedInUser(req), appId, direction, positions);
      return done('Menu positions saved');
    },
  });

  registerCall(app, deployChanges, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      const info = await menusService.deployApp(ctx, getSignedInUser(req), req.params.appId);
      const note = info.warnings.length ? ` with ${info.warnings.length} warning${info.warnings.length > 1 ? 's' : ''}` : '';
      return ok(`Deployed version ${info.version}${note}`, info);
    },
  });

  registerCall(app, findAppVersions, {
    tags,
    config: { apiKeyScope: 'read' },
    onRequest: guard(),
    handler: async (req) => ok('OK', await menusService.findVersions(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, rollbackVersion, {
    tags,
    config: { apiKeyScope: 'write' },
    onRequest: guard(),
    handler: async (req) => {
      const info = await menusService.rollbackVersion(ctx, getSignedInUser(req), req.body.appId, req.body.version);
      return ok(`Rolled back: version ${info.version} now serves version ${req.body.version}`, info);
    },
  });
}
