import { and, desc, eq } from 'drizzle-orm';
import { customActions } from '../../../db/schema';
import { hasAdminPermission } from '../../../shared/roles';
import { notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { recordChangeByAdmin } from '../../core/audit-log';

type CustomActionRow = typeof customActions.$inferSelect;

function toCustomAction(row: CustomActionRow) {
  return {
    uuid: row.id,
    actionName: row.actionName,
    description: row.description,
    code: row.code,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The user's own function; another account's answers not found, except to an admin whose roles reach other
 * accounts' apps (`tenantApp.read` to read it, `tenantApp.edit` to change it: src/shared/roles.ts).
 */
async function getOwnedRow(ctx: AppContext, user: AuthUser, uuid: string, need: 'read' | 'edit'): Promise<CustomActionRow> {
  if (!isUuid(uuid)) throw notFound('Custom action not found');
  const reachesAny = hasAdminPermission(user, need === 'read' ? 'tenantApp.read' : 'tenantApp.edit');
  const [row] = await ctx.db
    .select()
    .from(customActions)
    .where(reachesAny ? eq(customActions.id, uuid) : and(eq(customActions.id, uuid), eq(customActions.userId, user.id)));
  if (!row) throw notFound('Custom action not found');
  return row;
}

export async function findCustomActions(ctx: AppContext, user: AuthUser) {
  const rows = await ctx.db.select().from(customActions).where(eq(customActions.userId, user.id)).orderBy(desc(customActions.updatedAt));
  return rows.map((r) => ({ uuid: r.id, actionName: r.actionName, description: r.description, updatedAt: r.updatedAt.toISOString() }));
}

export async function getCustomAction(ctx: AppContext, user: AuthUser, uuid: string) {
  return toCustomAction(await getOwnedRow(ctx, user, uuid, 'read'));
}

export async function createCustomAction(ctx: AppContext, user: AuthUser, body: { actionName: string; description: string; code: string }) {
  const [row] = await ctx.db
    .insert(customActions)
    .values({ userId: user.id, ...body })
    .returning();
  return row!.id;
}

export async function updateCustomActionCode(ctx: AppContext, user: AuthUser, uuid: string, code: string) {
  const row = await getOwnedRow(ctx, user, uuid, 'edit');
  await ctx.db.update(customActions).set({ code, updatedAt: ctx.now() }).where(eq(customActions.id, row.id));
  await recordChangeByAdmin(ctx.db, user, row.userId, 'custom_action_changed', row.id, { actionName: row.actionName });
}

export async function updateCustomActionName(
  ctx: AppContext,
  user: AuthUser,
  body: { uuid: string; actionName: string; description: string },
) {
  const row = await getOwnedRow(ctx, user, body.uuid, 'edit');
  await ctx.db
    .update(customActions)
    .set({ actionName: body.actionName, description: body.description, updatedAt: ctx.now() })
    .where(eq(customActions.id, row.id));
  await recordChangeByAdmin(ctx.db, user, row.userId, 'custom_action_changed', row.id, { actionName: body.actionName });
}

export async function deleteCustomAction(ctx: AppContext, user: AuthUser, uuid: string) {
  const row = await getOwnedRow(ctx, user, uuid, 'edit');
  await ctx.db.delete(customActions).where(eq(customActions.id, row.id));
  await recordChangeByAdmin(ctx.db, user, row.userId, 'custom_action_deleted', row.id, { actionName: row.actionName });
}

/** The code a menu's customAction runs: the app owner's function, looked up by uuid at run time. */
export async function findCustomActionCode(ctx: AppContext, ownerId: string, uuid: string): Promise<string | undefined> {
  if (!isUuid(uuid)) return undefined;
  const [row] = await ctx.db
    .select({ code: customActions.code })
    .from(customActions)
    .where(and(eq(customActions.id, uuid), eq(customActions.userId, ownerId)));
  return row?.code;
}
