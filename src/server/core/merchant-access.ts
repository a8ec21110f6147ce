import { and, eq } from 'drizzle-orm';
import { adminMerchants, merchants } from '../../db/schema';
import { MERCHANT_MESSAGES } from '../../shared/api/merchants.schema';
import { notAllowed, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { getPermissionScope, type Permission, type PermissionScope } from '../../shared/roles';
import type { AppContext } from '../context';
import type { AuthUser } from './auth-user';

export type MerchantRow = typeof merchants.$inferSelect;

/** The caller's scope for a permission (the role table, src/shared/roles.ts); 403 when no role of theirs gives it. */
export function requireScope(user: AuthUser, permission: Permission): PermissionScope {
  const scope = getPermissionScope(user, permission);
  if (!scope) throw notAllowed();
  return scope;
}

/**
 * The merchant if the caller's role gives `permission` over it: every merchant (`all`), those assigned to
 * them (`assigned`), or their own (`own`). Any other merchant, or an id that cannot be one, answers 404 as if
 * it did not exist.
 * @example const merchant = await getAccessibleMerchant(ctx, user, 'merchant.update', body.uuid)
 */
export async function getAccessibleMerchant(ctx: AppContext, user: AuthUser, permission: Permission, merchantId: string) {
  const scope = requireScope(user, permission);
  if (!isUuid(merchantId) || (scope === 'own' && user.merchantId !== merchantId)) throw notFound(MERCHANT_MESSAGES.merchantNotFound);
  const [row] =
    scope === 'assigned'
      ? await ctx.db
          .select({ merchant: merchants })
          .from(merchants)
          .innerJoin(adminMerchants, and(eq(adminMerchants.merchantId, merchants.id), eq(adminMerchants.adminId, user.id)))
          .where(eq(merchants.id, merchantId))
      : await ctx.db.select({ merchant: merchants }).from(merchants).where(eq(merchants.id, merchantId));
  if (!row) throw notFound(MERCHANT_MESSAGES.merchantNotFound);
  return row.merchant;
}
