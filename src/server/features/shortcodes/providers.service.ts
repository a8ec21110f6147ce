import { asc, count, eq } from 'drizzle-orm';
import { shortcodeExtensions, shortcodeProviders } from '../../../db/schema';
import {
  SHORTCODE_MESSAGES,
  type Provider,
  type RegisterProviderBody,
  type UpdateProviderAccessBody,
} from '../../../shared/api/shortcodes.schema';
import { conflict, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { type AdminAction, recordAdminAction } from '../../core/audit-log';
import type { AuthUser } from '../../core/auth-user';
import { createGatewayKey, parseSource } from '../../core/gateway-access';

export type ProviderRow = typeof shortcodeProviders.$inferSelect;

/** The names the New Extension form's choices get when an extension names one not yet registered. */
export const DEFAULT_PROVIDER_NAMES: Record<string, string> = {
  mtngh: 'MTN Ghana',
  airtelgh: 'AirtelTigo Ghana',
  vodagh: 'Vodafone Ghana',
};

/** Where the aggregator forwards the shortcode's traffic: the key is the URL's last part (most aggregators take only a URL). */
export const getProviderUrl = (origin: string, providerKey: string, gatewayKey: string) =>
  `${origin}/ussd/provider/${providerKey}/${gatewayKey}`;

export function toProvider(row: ProviderRow, origin: string): Provider {
  return {
    uuid: row.id,
    providerName: row.providerName,
    providerId: row.providerKey,
    providerUrl: getProviderUrl(origin, row.providerKey, row.gatewayKey),
    gatewayKey: row.gatewayKey,
    acceptsUnauthenticated: row.acceptsUnauthenticated,
    allowedSources: row.allowedSources,
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

async function getProviderRow(ctx: AppContext, uuid: string): Promise<ProviderRow> {
  if (!isUuid(uuid)) throw notFound(SHORTCODE_MESSAGES.providerNotFound);
  const [row] = await ctx.db.select().from(shortcodeProviders).where(eq(shortcodeProviders.id, uuid));
  if (!row) throw notFound(SHORTCODE_MESSAGES.providerNotFound);
  return row;
}

async function updateProviderRow(
  ctx: AppContext,
  admin: AuthUser,
  uuid: string,
  change: { set: Partial<ProviderRow>; action: AdminAction; details: Record<string, unknown> },
  origin: string,
): Promise<Provider> {
  const existing = await getProviderRow(ctx, uuid);
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(shortcodeProviders).set(change.set).where(eq(shortcodeProviders.id, existing.id)).returning();
    if (!updated) throw notFound(SHORTCODE_MESSAGES.providerNotFound);
    await recordAdminAction(tx, admin, change.action, updated.id, { providerId: updated.providerKey, ...change.details });
    return updated;
  });
  // Every process drops the provider's rule: the old key (or setting) stops working from the next request.
  ctx.gatewayAccess.invalidate(`provider/${row.providerKey}`);
  return toProvider(row, origin);
}

/** A new key for the provider: the aggregator must be given the new URL (the old key is refused at once). */
export function rotateProviderKey(ctx: AppContext, admin: AuthUser, uuid: string, origin: string): Promise<Provider> {
  return updateProviderRow(
    ctx,
    admin,
    uuid,
    { set: { gatewayKey: createGatewayKey() }, action: 'provider_key_rotated', details: {} },
    origin,
  );
}

/** The legacy flag and the allow-list; every entry must be an address or a CIDR range, or nothing changes. */
export function updateProviderAccess(
  ctx: AppContext,
  admin: AuthUser,
  uuid: string,
  body: UpdateProviderAccessBody,
  origin: string,
): Promise<Provider> {
  const allowedSources = [...new Set(body.allowedSources)];
  const bad = allowedSources.find((source) => parseSource(source) === null);
  if (bad !== undefined) throw invalid(SHORTCODE_MESSAGES.providerSourceFormat, { field: 'allowedSources', value: bad.slice(0, 64) });
  const set = { acceptsUnauthenticated: body.acceptsUnauthenticated, allowedSources };
  return updateProviderRow(ctx, admin, uuid, { set, action: 'provider_access_changed', details: set }, origin);
}

/** Providers still serving their bare URL (the legacy flag): the server warns about each at start. */
export async function findLegacyProviders(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.db
    .select({ providerKey: shortcodeProviders.providerKey })
    .from(shortcodeProviders)
    .where(eq(shortcodeProviders.acceptsUnauthenticated, true));
  return rows.map((row) => row.providerKey);
}

/** Names each provider still serving its bare URL in the log; gateway processes do it at every start, until an admin turns the flag off. */
export async function warnAboutLegacyProviders(ctx: AppContext): Promise<void> {
  for (const providerId of await findLegacyProviders(ctx))
    ctx.log.warn(
      { providerId },
      'shortcode provider accepts unauthenticated traffic (legacy): give its aggregator the Provider Url with its key, then turn the flag off',
    );
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
    ctx.gatewayAccess.invalidate(`provider/${row.providerKey}`);
  });
}
