import type { FastifyInstance } from 'fastify';
import * as calls from '../../../shared/api/admins.calls';
import { ADMIN_MESSAGES, ADMIN_ROLE_TYPES } from '../../../shared/api/admins.schema';
import type { AppContext } from '../../context';
import { registerCall } from '../../core/register-call';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as adminsService from './admins.service';

/** System users, their roles and assigned merchants, and the audit log: super admins only (docs/merchants.md). */
export function registerAdminsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['admins'];
  const superAdmins = { tags, onRequest: guard('admin.manage') };

  registerCall(app, calls.findAdmins, {
    ...superAdmins,
    handler: async () => ok('OK', await adminsService.findAdmins(ctx)),
  });

  registerCall(app, calls.createAdmin, {
    ...superAdmins,
    handler: async (req) => ok(ADMIN_MESSAGES.created, await adminsService.createAdmin(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.deleteAdmin, {
    ...superAdmins,
    handler: async (req) => {
      await adminsService.deleteAdmin(ctx, getSignedInUser(req), req.body.uuid);
      return done(ADMIN_MESSAGES.deleted);
    },
  });

  registerCall(app, calls.getAdminProfile, {
    ...superAdmins,
    handler: async (req) => ok('OK', await adminsService.getAdminProfile(ctx, req.params.adminUuid)),
  });

  registerCall(app, calls.findRoleTypes, {
    ...superAdmins,
    handler: async () => ok('OK', [...ADMIN_ROLE_TYPES]),
  });

  registerCall(app, calls.updateAdminProfile, {
    ...superAdmins,
    handler: async (req) => ok(ADMIN_MESSAGES.updated, await adminsService.updateAdminProfile(ctx, getSignedInUser(req), req.body)),
  });

  registerCall(app, calls.assignMerchant, {
    ...superAdmins,
    handler: async (req) => {
      await adminsService.assignMerchant(ctx, getSignedInUser(req), req.body.adminUuid, req.body.merchantUuid);
      return done(ADMIN_MESSAGES.assigned);
    },
  });

  registerCall(app, calls.unassignMerchant, {
    ...superAdmins,
    handler: async (req) => {
      await adminsService.unassignMerchant(ctx, getSignedInUser(req), req.body.adminUuid, req.body.merchantUuid);
      return done(ADMIN_MESSAGES.unassigned);
    },
  });

  registerCall(app, calls.findAuditEntries, {
    tags,
    onRequest: guard('audit.read'),
    handler: async () => ok('OK', await adminsService.findAuditEntries(ctx.db)),
  });
}
