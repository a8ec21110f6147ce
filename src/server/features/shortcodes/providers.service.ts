import { asc, count, eq } from 'drizzle-orm';
import { shortcodeExtensions, shortcodeProviders } from '../../../db/schema';
import { SHORTCODE_MESSAGES, type Provider, type RegisterProviderBody } from '../../../shared/api/shortcodes.schema';
import { conflict, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { recordAdminAction } from '../admins/audit-log';
import type { AuthUser } from '../auth/auth.service';

export type ProviderRow = typeof shortcodeProviders.$inferSelect;

/** The names the New Extension form's choices get when an extension names one not yet registered. */
export const DEFAULT_PROVIDER_NAMES: Record<string, string> = {
  mtngh: 'MTN Ghana',
  airtelgh: 'AirtelTigo Ghana',
  vodagh: 'Vodafone Ghana',
};

/** Where the aggregator forwards the shortcode's traffic. */
export const getProviderUrl = (origin: string, providerKey: string) => `${origin}/ussd/provider/${providerKey}`;

export function toProvider(row: ProviderRow, origin: string): Provider {
  return {
    uuid: row.id,
    providerName: row.providerName,
    providerId: row.providerKey,
    providerUrl: getProviderUrl(origin, row.providerKey),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Provider Ids are kept lower-cased: `MTNGH` and `mtngh` are one provider, and one URL. */
export async function registerProvider(ctx: AppContext, admin: AuthUser, body: RegisterProviderBody, origin: string): Promise<Provider> {
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(shortcodeProviders)
      .values({ providerName: body.providerName, providerKey: body.providerId.toLowerCase() })
      .onConflictDoNothing()
      .returning();
    if (!created) throw conflict(SHORTCODE_MESSAGES.providerIdTaken, { field: 'providerId' });
    await recordAdminAction(tx, admin, 'provider_registered', created.id, {
      providerId: created.providerKey,
      providerName: created.providerName,
    });
    return created;
  });
  return toProvider(row, origin);
}

export async function findProviders(ctx: AppContext, origin: string): Promise<Provider[]> {
  const rows = await ctx.db.select().from(shortcodeProviders).orderBy(asc(shortcodeProviders.providerName), asc(shortcodeProviders.id));
  return rows.map((row) => toProvider(row, origin));
}

/** The provider with this key, registered on first use (the New Extension form's choices and `other`). */
export async function getOrRegisterProvider(ctx: AppContext, providerKey: string, providerName: string): Promise<ProviderRow> {
  await ctx.db.insert(shortcodeProviders).values({ providerKey, providerName }).onConflictDoNothing();
  const [row] = await ctx.db.select().from(shortcodeProviders).where(eq(shortcodeProviders.providerKey, providerKey));
  return row!;
}

/** A provider whose extensions are still in the catalogue stays: its traffic would have nowhere to go. */
export async function deleteProvider(ctx: AppContext, admin: AuthUser, uuid: string): Promise<void> {
  if (!isUuid(uuid)) throw notFound(SHORTCODE_MESSAGES.providerNotFound);
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(shortcodeProviders).where(eq(shortcodeProviders.id, uuid)).for('update');
    if (!row) throw notFound(SHORTCODE_MESSAGES.providerNotFound);
    const [{ value }] = (await tx.select({ value: count() }).from(shortcodeExtensions).where(eq(shortcodeExtensions.providerId, uuid))) as [
      { value: number },
    ];
    if (value > 0) throw conflict(SHORTCODE_MESSAGES.providerInUse);
    await tx.delete(shortcodeProviders).where(eq(shortcodeProviders.id, uuid));
    await recordAdminAction(tx, admin, 'provider_deleted', row.id, { providerId: row.providerKey, providerName: row.providerName });
  });
}
