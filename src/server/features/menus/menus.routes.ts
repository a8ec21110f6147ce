import type { FastifyInstance } from 'fastify';
import {
  createMenu,
  deleteMenu,
  deployChanges,
  findAppVersion,
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

export function registerMenusRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard, beforeDeploy?: menusService.BeforeDeploy): void {
  // Every menus call is for a signed-in account; an API key may read them, and change them with a write key.
  const reader = { tags: ['menus'], config: { apiKeyScope: 'read' as const }, onRequest: guard() };
  const writer = { tags: ['menus'], config: { apiKeyScope: 'write' as const }, onRequest: guard() };

  registerCall(app, findMenus, {
    ...reader,
    handler: async (req) => ok('OK', await menusService.findMenus(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, findMenusLite, {
    ...reader,
    handler: async (req) => ok('OK', await menusService.findMenusLite(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, createMenu, {
    ...writer,
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu saved',
      uniqueId: await menusService.createMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  registerCall(app, updateMenu, {
    ...writer,
    handler: async (req) => ({
      status: '00' as const,
      message: 'Menu updated',
      uniqueId: await menusService.updateMenu(ctx, getSignedInUser(req), req.body),
    }),
  });

  registerCall(app, deleteMenu, {
    ...writer,
    handler: async (req) => {
      await menusService.deleteMenu(ctx, getSignedInUser(req), req.params.uniqueId);
      return done('Menu deleted');
    },
  });

  registerCall(app, saveMenuOrder, {
    ...writer,
    handler: async (req) => {
      await menusService.saveMenuOrder(ctx, getSignedInUser(req), req.body.appId, req.body.menuIds);
      return done('Menu order saved');
    },
  });

  registerCall(app, saveMenuPositions, {
    tags: writer.tags,
    onRequest: writer.onRequest,
    handler: async (req) => {
      const { appId, direction, positions } = req.body;
      await menusService.saveMenuPositions(ctx, getSignedInUser(req), appId, direction, positions);
      return done('Menu positions saved');
    },
  });

  registerCall(app, deployChanges, {
    ...writer,
    handler: async (req) => {
      const info = await menusService.deployApp(ctx, getSignedInUser(req), req.params.appId, req.query, beforeDeploy);
      const note = info.warnings.length ? ` with ${info.warnings.length} warning${info.warnings.length > 1 ? 's' : ''}` : '';
      return ok(`Deployed version ${info.version}${note}`, info);
    },
  });

  registerCall(app, findAppVersions, {
    ...reader,
    handler: async (req) => ok('OK', await menusService.findVersions(ctx, getSignedInUser(req), req.params.appId)),
  });

  registerCall(app, findAppVersion, {
    ...reader,
    handler: async (req) => {
      const { appId, version } = req.params;
      return ok('OK', await menusService.findVersion(ctx, getSignedInUser(req), appId, version, req.query.against));
    },
  });

  registerCall(app, rollbackVersion, {
    ...writer,
    handler: async (req) => {
      const { restored, ...info } = await menusService.rollbackVersion(ctx, getSignedInUser(req), req.body.appId, req.body.version);
      return ok(`Restored ${restored} as version ${info.version}`, info);
    },
  });
}
