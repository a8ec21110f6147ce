import { and, asc, eq, inArray } from 'drizzle-orm';
import { adminMerchants, apps, merchants, users } from '../../../db/schema';
import {
  MERCHANT_MESSAGES,
  type CreateMerchantUserBody,
  type Merchant,
  type MerchantBody,
  type MerchantUser,
  type UpdateMerchantBody,
} from '../../../shared/api/merchants.schema';
import { conflict, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { createUser, toAccountHolder, type UserRow } from '../../core/accounts';
import type { AuthUser } from '../../core/auth-user';
import { recordAdminAction } from '../../core/audit-log';
import { getAccessibleMerchant, requireScope, type MerchantRow } from '../../core/merchant-access';
import { deleteErasedMedia, findAccountsMediaKeys } from '../media/media.service';

export function toMerchant(row: MerchantRow): Merchant {
  return {
    uuid: row.id,
    fullName: row.fullName,
    email: row.email,
    mobileNumber: row.mobileNumber,
    companyName: row.companyName,
    businessCategory: row.businessCategory,
    isDeveloper: row.isDeveloper,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The merchants assigned to an admin (My Merchants, and Manage Admin's Assigned Merchants), by company name. */
export async function findAssignedMerchants(ctx: AppContext, adminId: string): Promise<Merchant[]> {
  const rows = await ctx.db
    .select({ merchant: merchants })
    .from(merchants)
    .innerJoin(adminMerchants, eq(adminMerchants.merchantId, merchants.id))
    .where(eq(adminMerchants.adminId, adminId))
    .orderBy(asc(merchants.companyName));
  return rows.map((r) => toMerchant(r.merchant));
}

/** All Merchants: every merchant for a role that reads all, else those assigned to the caller. */
export async function findMerchants(ctx: AppContext, user: AuthUser): Promise<Merchant[]> {
  const scope = requireScope(user, 'merchant.read');
  if (scope === 'assigned') return findAssignedMerchants(ctx, user.id);
  if (scope === 'own') return user.merchantId ? [await getMerchant(ctx, user, user.merchantId)] : [];
  const rows = await ctx.db.select().from(merchants).orderBy(asc(merchants.companyName));
  return rows.map(toMerchant);
}

export async function getMerchant(ctx: AppContext, user: AuthUser, merchantId: string): Promise<Merchant> {
  return toMerchant(await getAccessibleMerchant(ctx, user, 'merchant.read', merchantId));
}

/** Manage Merchant Account: the signed-in merchant user's own company. */
export async function getOwnMerchant(ctx: AppContext, user: AuthUser): Promise<Merchant> {
  if (!user.merchantId) throw notFound(MERCHANT_MESSAGES.noMerchant);
  return getMerchant(ctx, user, user.merchantId);
}

async function checkMerchantEmailFree(ctx: AppContext, email: string, exceptId?: string) {
  const [other] = await ctx.db.select({ id: merchants.id }).from(merchants).where(eq(merchants.email, email));
  if (other && other.id !== exceptId) throw conflict(MERCHANT_MESSAGES.merchantEmailTaken, { field: 'email' });
}

/** A role that registers merchants but reads only assigned ones is assigned the merchant it registers. */
export async function registerMerchant(ctx: AppContext, user: AuthUser, body: MerchantBody): Promise<Merchant> {
  requireScope(user, 'merchant.register');
  await checkMerchantEmailFree(ctx, body.email);
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(merchants).values(body).onConflictDoNothing().returning();
    if (!created) throw conflict(MERCHANT_MESSAGES.merchantEmailTaken, { field: 'email' });
    if (requireScope(user, 'merchant.read') === 'assigned')
      await tx.insert(adminMerchants).values({ adminId: user.id, merchantId: created.id });
    await recordAdminAction(tx, user, 'merchant_registered', created.id, { companyName: created.companyName, email: created.email });
    return created;
  });
  return toMerchant(row);
}

export async function updateMerchant(ctx: AppContext, user: AuthUser, body: UpdateMerchantBody): Promise<Merchant> {
  const existing = await getAccessibleMerchant(ctx, user, 'merchant.update', body.uuid);
  await checkMerchantEmailFree(ctx, body.email, existing.id);
  const { uuid: _uuid, ...fields } = body;
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(merchants).set(fields).where(eq(merchants.id, existing.id)).returning();
    // The company's users show its name on the top bar.
    await tx.update(users).set({ companyName: fields.companyName }).where(eq(users.merchantId, existing.id));
    await recordAdminAction(tx, user, 'merchant_updated', existing.id, { companyName: fields.companyName });
    return updated!;
  });
  return toMerchant(row);
}

/** Deletes the merchant with its users; their apps go with them (the apps' owner is deleted). */
export async function deleteMerchant(ctx: AppContext, user: AuthUser, merchantId: string): Promise<void> {
  const merchant = await getAccessibleMerchant(ctx, user, 'merchant.delete', merchantId);
  const userIds = await findMerchantUserIds(ctx, merchant.id);
  const appRows = userIds.length > 0 ? await ctx.db.select({ id: apps.id }).from(apps).where(inArray(apps.userId, userIds)) : [];
  const mediaKeys = await ctx.db.transaction(async (tx) => {
    const keys = await findAccountsMediaKeys(tx, userIds);
    await tx.delete(users).where(and(eq(users.merchantId, merchant.id), eq(users.userType, 'merchant')));
    await tx.delete(merchants).where(eq(merchants.id, merchant.id));
    await recordAdminAction(tx, user, 'merchant_deleted', merchant.id, { companyName: merchant.companyName, email: merchant.email });
    return keys;
  });
  for (const app of appRows) ctx.versions.invalidate(app.id);
  await deleteErasedMedia(ctx, mediaKeys);
}

function toMerchantUser(row: UserRow): MerchantUser {
  return {
    ...toAccountHolder(row),
    isDeveloper: row.isDeveloper,
    merchantUuid: row.merchantId ?? '',
  };
}

export async function findMerchantUsers(ctx: AppContext, user: AuthUser, merchantId: string): Promise<MerchantUser[]> {
  const merchant = await getAccessibleMerchant(ctx, user, 'merchant.read', merchantId);
  const rows = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.merchantId, merchant.id), eq(users.userType, 'merchant')))
    .orderBy(asc(users.createdAt));
  return rows.map(toMerchantUser);
}

/** A merchant user signs in at /merchant/login; one marked Developer carries the DEVELOPER role (src/shared/roles.ts). */
export async function createMerchantUser(ctx: AppContext, user: AuthUser, body: CreateMerchantUserBody): Promise<MerchantUser> {
  const merchant = await getAccessibleMerchant(ctx, user, 'merchantUser.manage', body.merchantUuid);
  const row = await createUser(ctx.db, {
    fullName: body.fullName,
    email: body.email,
    password: body.password,
    mobileNumber: body.mobileNumber,
    companyName: merchant.companyName,
    userType: 'merchant',
    roles: body.isDeveloper ? ['MERCHANT', 'DEVELOPER'] : ['MERCHANT'],
    merchantId: merchant.id,
    isDeveloper: body.isDeveloper,
  });
  await recordAdminAction(ctx.db, user, 'merchant_user_created', row.id, { merchantUuid: merchant.id, email: row.email });
  return toMerchantUser(row);
}

export async function deleteMerchantUser(ctx: AppContext, user: AuthUser, userId: string): Promise<void> {
  requireScope(user, 'merchantUser.manage');
  const [row] = isUuid(userId)
    ? await ctx.db
        .select()
        .from(users)
        .where(and(eq(users.id, userId), eq(users.userType, 'merchant')))
    : [];
  if (!row?.merchantId) throw notFound(MERCHANT_MESSAGES.userNotFound);
  // Answers 404 for a user of a merchant the caller may not manage, as for one that does not exist.
  await getAccessibleMerchant(ctx, user, 'merchantUser.manage', row.merchantId).catch(() => {
    throw notFound(MERCHANT_MESSAGES.userNotFound);
  });
  const mediaKeys = await ctx.db.transaction(async (tx) => {
    const keys = await findAccountsMediaKeys(tx, [row.id]);
    await tx.delete(users).where(eq(users.id, row.id));
    await recordAdminAction(tx, user, 'merchant_user_deleted', row.id, { merchantUuid: row.merchantId, email: row.email });
    return keys;
  });
  await deleteErasedMedia(ctx, mediaKeys);
}

/** The merchant's users' ids: the accounts that own its apps and make its payments. */
export async function findMerchantUserIds(ctx: AppContext, merchantId: string): Promise<string[]> {
  const rows = await ctx.db.select({ id: users.id }).from(users).where(eq(users.merchantId, merchantId));
  return rows.map((r) => r.id);
}
