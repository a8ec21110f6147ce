import { z } from 'zod';
import {
  adminProfileSchema,
  adminSchema,
  adminUuidBodySchema,
  assignmentBodySchema,
  auditEntrySchema,
  createAdminBodySchema,
  updateAdminBodySchema,
} from './admins.schema';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';

// The admins' calls (src/shared/api/contract.ts): the server registers them, the console calls them. Their keys
// sit below ['admins'], which a change to an admin invalidates whole.

const adminUuidParamsSchema = z.object({ adminUuid: z.string().max(64) });

/** GET /api/admin/list: every system user. */
export const findAdmins = defineCall({
  method: 'GET',
  path: '/api/admin/list',
  reply: envelopeSchema(z.array(adminSchema)),
  key: ['admins', 'list'],
});

/** POST /api/admin/create: the admin, with no roles yet (the screen sets them with updateAdminProfile). */
export const createAdmin = defineCall({
  method: 'POST',
  path: '/api/admin/create',
  body: createAdminBodySchema,
  reply: envelopeSchema(adminSchema),
});

export const deleteAdmin = defineCall({ method: 'POST', path: '/api/admin/delete', body: adminUuidBodySchema, reply: messageSchema });

/** GET /api/admin/profile/{adminUuid}: the admin and their assigned merchants. */
export const getAdminProfile = defineCall({
  method: 'GET',
  path: '/api/admin/profile/:adminUuid',
  params: adminUuidParamsSchema,
  reply: envelopeSchema(adminProfileSchema),
  key: ['admins', 'profile', ':adminUuid'],
});

/** GET /api/admin/role-types: the roles a super admin may give. */
export const findRoleTypes = defineCall({
  method: 'GET',
  path: '/api/admin/role-types',
  reply: envelopeSchema(z.array(z.string())),
  key: ['admins', 'role-types'],
});

export const updateAdminProfile = defineCall({
  method: 'POST',
  path: '/api/admin/update-profile',
  body: updateAdminBodySchema,
  reply: envelopeSchema(adminSchema),
});

export const assignMerchant = defineCall({
  method: 'POST',
  path: '/api/admin/assign-merchant',
  body: assignmentBodySchema,
  reply: messageSchema,
});

export const unassignMerchant = defineCall({
  method: 'POST',
  path: '/api/admin/unassign-merchant',
  body: assignmentBodySchema,
  reply: messageSchema,
});

/** GET /api/admin/audit-log: newest first. */
export const findAuditEntries = defineCall({
  method: 'GET',
  path: '/api/admin/audit-log',
  reply: envelopeSchema(z.array(auditEntrySchema)),
  key: ['admins', 'audit-log'],
});
