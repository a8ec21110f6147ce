import { z } from 'zod';
import { ADMIN_ROLE_CHOICES } from '../roles';
import { chosenPasswordSchema, MERCHANT_MESSAGES, merchantSchema } from './merchants.schema';

/**
 * System users (admins), their roles and assigned merchants, and the audit log: super admins only
 * (docs/merchants.md). Replies are the envelope `{ status, message, data? }`.
 *
 * - `GET  /api/admin/list` -> `data`: {@link adminSchema}[]
 * - `POST /api/admin/create` {@link createAdminBodySchema} -> `data`: adminSchema, with no roles yet: the Create
 *   Admin screen sets the chosen roles right after with `update-profile`
 * - `POST /api/admin/delete` {@link adminUuidBodySchema}
 * - `GET  /api/admin/profile/{adminUuid}` -> `data`: {@link adminProfileSchema}
 * - `GET  /api/admin/role-types` -> `data`: {@link ADMIN_ROLE_TYPES}
 * - `POST /api/admin/update-profile` {@link updateAdminBodySchema} -> `data`: adminSchema
 * - `POST /api/admin/assign-merchant`, `POST /api/admin/unassign-merchant` {@link assignmentBodySchema}
 * - `GET  /api/admin/audit-log` -> `data`: {@link auditEntrySchema}[] (newest first)
 * Nobody deletes or demotes themselves or the last super admin ('02' with {@link ADMIN_MESSAGES}).
 */

/** Roles a super admin may give on Manage Admin: the creation choices, and super admin. */
export const ADMIN_ROLE_TYPES = [...ADMIN_ROLE_CHOICES, 'super_admin'] as const;
export type AdminRoleType = (typeof ADMIN_ROLE_TYPES)[number];

/** What the role checkboxes say of each role (docs/merchants.md has what each may do). */
export const ADMIN_ROLE_LABELS: Record<AdminRoleType, { label: string; description: string }> = {
  ADMIN: { label: 'ADMIN', description: 'Every merchant: register, edit, delete, users, transactions, clone apps' },
  MERCHANT: { label: 'MERCHANT', description: 'Registers merchants and manages those assigned' },
  DEVELOPER: { label: 'DEVELOPER', description: "Clones apps into assigned merchants' accounts" },
  SUPPORT: { label: 'SUPPORT', description: 'Reads assigned merchants, their transactions, and contact requests' },
  super_admin: { label: 'Super admin', description: 'Everything, and manages admins and the audit log' },
};

export const ADMIN_MESSAGES = {
  adminNotFound: 'Admin not found',
  notYourself: 'You cannot delete your own account or remove your own super admin role',
  lastSuperAdmin: 'This is the last super admin: make another admin a super admin first',
  created: 'Admin user created successfully',
  updated: 'Profile updated successfully',
  deleted: 'Admin deleted',
  assigned: 'Merchant assigned',
  unassigned: 'Merchant removed',
  alreadyAssigned: 'This merchant is already assigned to this admin',
} as const;

const required = (message: string) => z.string().trim().min(1, message).max(120);
const email = (message: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, message)
    .max(254)
    .refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), MERCHANT_MESSAGES.invalidEmail);
const uuidText = z.string().trim().max(64);

/** POST /api/admin/create: only these four; the roles are set afterwards. */
export const createAdminBodySchema = z.object({
  fullName: required(MERCHANT_MESSAGES.requiredFields),
  email: email(MERCHANT_MESSAGES.requiredFields),
  mobileNumber: required(MERCHANT_MESSAGES.requiredFields).max(32),
  password: chosenPasswordSchema,
});
export type CreateAdminBody = z.infer<typeof createAdminBodySchema>;

export const updateAdminBodySchema = z.object({
  adminUuid: uuidText,
  fullName: required(MERCHANT_MESSAGES.requiredProfileFields),
  email: email(MERCHANT_MESSAGES.requiredProfileFields),
  mobileNumber: required(MERCHANT_MESSAGES.requiredProfileFields).max(32),
  roles: z.array(z.enum(ADMIN_ROLE_TYPES)).max(ADMIN_ROLE_TYPES.length).min(1, MERCHANT_MESSAGES.selectRole),
});
export type UpdateAdminBody = z.infer<typeof updateAdminBodySchema>;

export const adminUuidBodySchema = z.object({ uuid: uuidText });
export const assignmentBodySchema = z.object({ adminUuid: uuidText, merchantUuid: uuidText });

export const adminSchema = z.object({
  uuid: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobileNumber: z.string(),
  roles: z.array(z.string()),
  isSuperAdmin: z.boolean(),
  createdAt: z.string(),
});
export type Admin = z.infer<typeof adminSchema>;

export const adminProfileSchema = adminSchema.extend({ assignedMerchants: z.array(merchantSchema) });
export type AdminProfile = z.infer<typeof adminProfileSchema>;

export const auditEntrySchema = z.object({
  uuid: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetId: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
