import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { adminMerchants, auditLog, users } from '../../../db/schema';
import {
  ADMIN_MESSAGES,
  type Admin,
  type AuditEntry,
  type AdminProfile,
  type CreateAdminBody,
  type UpdateAdminBody,
} from '../../../shared/api/admins.schema';
import { MERCHANT_MESSAGES } from '../../../shared/api/merchants.schema';
import { conflict, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { createUser, toAccountHolder, type UserRow } from '../../core/accounts';
import type { AuthUser } from '../../core/auth-user';
import { getAccessibleMerchant } from '../../core/merchant-access';
import { findAssignedMerchants } from '../merchants/merchants.service';
import { deleteErasedMedia, findAccountsMediaKeys } from '../media/media.service';
import { recordAdminAction } from '../../core/audit-log';

/** System users: every account of type internal_admin. */
const isAdminRow = eq(users.userType, 'internal_admin');
const isSuperAdminRow = sql`'super_admin' = ANY(${users.roles})`;

function toAdmin(row: UserRow): Admin {
  return {
    ...toAccountHolder(row),
    roles: row.roles,
    isSuperAdmin: row.roles.includes('super_admin'),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findAdmins(ctx: AppContext): Promise<Admin[]> {
  const rows = await ctx.db.select().from(users).where(isAdminRow).orderBy(asc(users.createdAt));
  return rows.map(toAdmin);
}

async function getAdminRow(ctx: AppContext, adminId: string): Promise<UserRow> {
  const [row] = isUuid(adminId)
    ? await ctx.db
        .select()
        .from(users)
        .where(and(eq(users.id, adminId), isAdminRow))
    : [];
  if (!row) throw notFound(ADMIN_MESSAGES.adminNotFound);
  return row;
}

export async function getAdminProfile(ctx: AppContext, adminId: string): Promise<AdminProfile> {
  const row = await getAdminRow(ctx, adminId);
  return { ...toAdmin(row), assignedMerchants: await findAssignedMerchants(ctx, row.id) };
}

/** The spec's create call carries no roles: the new admin has none until the screen's update-profile sets them. */
export async function createAdmin(ctx: AppContext, actor: AuthUser, body: CreateAdminBody): Promise<Admin> {
  const row = await createUser(ctx.db, { ...body, userType: 'internal_admin', roles: [] });
  await recordAdminAction(ctx.db, actor, 'admin_created', row.id, { email: row.email });
  return toAdmin(row);
}

type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

/**
 * Nobody removes themselves or the last super admin. Runs inside the change's transaction and locks the super
 * admins' rows first, so two super admins demoting each other at once cannot leave none.
 */
async function checkMayRemoveSuperAdmin(tx: Tx, actor: AuthUser, target: UserRow): Promise<void> {
  if (target.id === actor.id) throw invalid(ADMIN_MESSAGES.notYourself);
  if (!target.roles.includes('super_admin')) return;
  const superAdmins = await tx.select({ id: users.id }).from(users).where(and(isAdminRow, isSuperAdminRow)).for('update');
  if (!superAdmins.some((a) => a.id !== target.id)) throw invalid(ADMIN_MESSAGES.lastSuperAdmin);
}

export async function deleteAdmin(ctx: AppContext, actor: AuthUser, adminId: string): Promise<void> {
  const target = await getAdminRow(ctx, adminId);
  const mediaKeys = await ctx.db.transaction(async (tx) => {
    await checkMayRemoveSuperAdmin(tx, actor, target);
    const keys = await findAccountsMediaKeys(tx, [target.id]);
    await tx.delete(users).where(eq(users.id, target.id));
    await recordAdminAction(tx, actor, 'admin_deleted', target.id, { email: target.email, roles: target.roles });
    return keys;
  });
  await deleteErasedMedia(ctx, mediaKeys);
}

export async function updateAdminProfile(ctx: AppContext, actor: AuthUser, body: UpdateAdminBody): Promise<Admin> {
  const target = await getAdminRow(ctx, body.adminUuid);
  const roles = [...new Set(body.roles)];
  const isDemoted = target.roles.includes('super_admin') && !roles.includes('super_admin');
  const [other] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, body.email));
  if (other && other.id !== target.id) throw conflict('An account with this email already exists', { field: 'email' });
  const row = await ctx.db.transaction(async (tx) => {
    if (isDemoted) await checkMayRemoveSuperAdmin(tx, actor, target);
    const [updated] = await tx
      .update(users)
      .set({ fullName: body.fullName, email: body.email, mobileNumber: body.mobileNumber, roles, updatedAt: ctx.now() })
      .where(eq(users.id, target.id))
      .returning();
    await recordAdminAction(tx, actor, 'admin_profile_updated', target.id, { email: body.email });
    const before = [...target.roles].sort().join(',');
    if (before !== [...roles].sort().join(','))
      await recordAdminAction(tx, actor, 'admin_roles_changed', target.id, { from: target.roles, to: roles });
    return updated!;
  });
  return toAdmin(row);
}

export async function assignMerchant(ctx: AppContext, actor: AuthUser, adminId: string, merchantId: string): Promise<void> {
  const target = await getAdminRow(ctx, adminId);
  const merchant = await getAccessibleMerchant(ctx, actor, 'merchant.read', merchantId);
  const inserted = await ctx.db
    .insert(adminMerchants)
    .values({ adminId: target.id, merchantId: merchant.id })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0) throw conflict(ADMIN_MESSAGES.alreadyAssigned);
  await recordAdminAction(ctx.db, actor, 'merchant_assigned', target.id, { merchantUuid: merchant.id, companyName: merchant.companyName });
}

export async function unassignMerchant(ctx: AppContext, actor: AuthUser, adminId: string, merchantId: string): Promise<void> {
  const target = await getAdminRow(ctx, adminId);
  if (!isUuid(merchantId)) throw notFound(MERCHANT_MESSAGES.merchantNotFound);
  const removed = await ctx.db
    .delete(adminMerchants)
    .where(and(eq(adminMerchants.adminId, target.id), eq(adminMerchants.merchantId, merchantId)))
    .returning();
  if (removed.length === 0) throw notFound(MERCHANT_MESSAGES.merchantNotFound);
  await recordAdminAction(ctx.db, actor, 'merchant_unassigned', target.id, { merchantUuid: merchantId });
}

/** The audit log's shown rows: the newest this many. */
export const AUDIT_ENTRIES_SHOWN = 500;

export async function findAuditEntries(db: Db): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.createdAt)).limit(AUDIT_ENTRIES_SHOWN);
  return rows.map((row) => ({
    uuid: row.id,
    actorEmail: row.actorEmail,
    action: row.action,
    targetId: row.targetId,
    details: row.details as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
  }));
}
