import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_MESSAGES,
  ADMIN_ROLE_TYPES,
  adminProfileSchema,
  adminSchema,
  adminUuidBodySchema,
  assignmentBodySchema,
  auditEntrySchema,
  createAdminBodySchema,
  updateAdminBodySchema,
} from '../../../shared/api/admins.schema';
import { envelopeSchema, messageSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import { done, ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import * as adminsService from './admins.service';

const adminParams = z.object({ adminUuid: z.string().max(64) });

/** System users, their roles and assigned merchants, and the audit log: super admins only (docs/merchants.md). */
export function registerAdminsRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admins'];

  r.get('/api/admin/list', {
    schema: { tags, response: { 200: envelopeSchema(z.array(adminSchema)) } },
    onRequest: guard('admin.manage'),
    handler: async () => ok('OK', await adminsService.findAdmins(ctx)),
  });

  r.post('/api/admin/create', {
    schema: { tags, body: createAdminBodySchema, response: { 200: envelopeSchema(adminSchema) } },
    onRequest: guard('admin.manage'),
    handler: async (req) => ok(ADMIN_MESSAGES.created, await adminsService.createAdmin(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/api/admin/delete', {
    schema: { tags, body: adminUuidBodySchema, response: { 200: messageSchema } },
    onRequest: guard('admin.manage'),
    handler: async (req) => {
      await adminsService.deleteAdmin(ctx, getSignedInUser(req), req.body.uuid);
      return done(ADMIN_MESSAGES.deleted);
    },
  });

  r.get('/api/admin/profile/:adminUuid', {
    schema: { tags, params: adminParams, response: { 200: envelopeSchema(adminProfileSchema) } },
    onRequest: guard('admin.manage'),
    handler: async (req) => ok('OK', await adminsService.getAdminProfile(ctx, req.params.adminUuid)),
  });

  r.get('/api/admin/role-types', {
    schema: { tags, response: { 200: envelopeSchema(z.array(z.string())) } },
    onRequest: guard('admin.manage'),
    handler: async () => ok('OK', [...ADMIN_ROLE_TYPES]),
  });

  r.post('/api/admin/update-profile', {
    schema: { tags, body: updateAdminBodySchema, response: { 200: envelopeSchema(adminSchema) } },
    onRequest: guard('admin.manage'),
    handler: async (req) => ok(ADMIN_MESSAGES.updated, await adminsService.updateAdminProfile(ctx, getSignedInUser(req), req.body)),
  });

  r.post('/api/admin/assign-merchant', {
    schema: { tags, body: assignmentBodySchema, response: { 200: messageSchema } },
    onRequest: guard('admin.manage'),
    handler: async (req) => {
      await adminsService.assignMerchant(ctx, getSignedInUser(req), req.body.adminUuid, req.body.merchantUuid);
      return done(ADMIN_MESSAGES.assigned);
    },
  });

  r.post('/api/admin/unassign-merchant', {
    schema: { tags, body: assignmentBodySchema, response: { 200: messageSchema } },
    onRequest: guard('admin.manage'),
    handler: async (req) => {
      await adminsService.unassignMerchant(ctx, getSignedInUser(req), req.body.adminUuid, req.body.merchantUuid);
      return done(ADMIN_MESSAGES.unassigned);
    },
  });

  r.get('/api/admin/audit-log', {
    schema: { tags, response: { 200: envelopeSchema(z.array(auditEntrySchema)) } },
    onRequest: guard('audit.read'),
    handler: async () => ok('OK', await adminsService.findAuditEntries(ctx.db)),
  });
}
