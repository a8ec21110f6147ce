import { and, asc, eq, inArray } from 'drizzle-orm';
import { shortcodeExtensions, shortcodeProviders, shortcodePurchases } from '../../../db/schema';
import {
  buildDialString,
  buildExample,
  findExtensionProblem,
  SHORTCODE_COUNTRIES,
  SHORTCODE_MESSAGES,
  toProviderId,
  type createShortcodeBodySchema,
  type Extension,
  type ShortcodeMethod,
} from '../../../shared/api/shortcodes.schema';
import { conflict, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { recordAdminAction } from '../../core/audit-log';
import type { AuthUser } from '../../core/auth-user';
import type { z } from 'zod';
import { isHeldAt } from '../../core/shortcode-holds';
import { DEFAULT_PROVIDER_NAMES, getOrRegisterProvider } from './providers.service';

export type ExtensionRow = typeof shortcodeExtensions.$inferSelect;
/** An extension with its provider's key and name. */
export type CatalogueEntry = ExtensionRow & { providerKey: string; providerName: string };

/** `ghana`, `GHANA` -> `Ghana`; undefined for a country the catalogue does not sell in. */
export function findShortcodeCountry(value: string) {
  return SHORTCODE_COUNTRIES.find((c) => c.name.toLowerCase() === value.trim().toLowerCase());
}

export function toExtension(entry: CatalogueEntry, isTaken: boolean): Extension {
  return {
    uuid: entry.id,
    shortCode: entry.shortCode,
    extension: entry.extension,
    provider: entry.providerKey,
    providerName: entry.providerName,
    requestMethod: entry.requestMethod as ShortcodeMethod,
    status: isTaken ? 'taken' : 'available',
    price: Number(entry.price),
    currency: entry.currency,
    extLength: entry.extLength,
    selected: false,
    country: entry.country,
    example: buildExample(entry),
    createdAt: entry.createdAt.toISOString(),
  };
}

const catalogueColumns = {
  id: shortcodeExtensions.id,
  country: shortcodeExtensions.country,
  providerId: shortcodeExtensions.providerId,
  shortCode: shortcodeExtensions.shortCode,
  extension: shortcodeExtensions.extension,
  extLength: shortcodeExtensions.extLength,
  requestMethod: shortcodeExtensions.requestMethod,
  price: shortcodeExtensions.price,
  currency: shortcodeExtensions.currency,
  createdAt: shortcodeExtensions.createdAt,
  providerKey: shortcodeProviders.providerKey,
  providerName: shortcodeProviders.providerName,
};

/** A catalogue extension by uuid; a malformed or unknown one is 'not found' alike. */
export async function getCatalogueEntry(ctx: AppContext, uuid: string): Promise<CatalogueEntry> {
  if (!isUuid(uuid)) throw notFound(SHORTCODE_MESSAGES.extensionNotFound);
  const [entry] = await ctx.db
    .select(catalogueColumns)
    .from(shortcodeExtensions)
    .innerJoin(shortcodeProviders, eq(shortcodeProviders.id, shortcodeExtensions.providerId))
    .where(eq(shortcodeExtensions.id, uuid));
  if (!entry) throw notFound(SHORTCODE_MESSAGES.extensionNotFound);
  return entry;
}

/**
 * POST /api/subscription/createShortCode (admins). The provider is a registered one or, for `other` and the
 * form's choices not yet registered, registered now: its URL is what the aggregator needs next.
 */
export async function createExtension(
  ctx: AppContext,
  admin: AuthUser,
  body: z.infer<typeof createShortcodeBodySchema>,
): Promise<Extension> {
  const problem = findExtensionProblem(body);
  if (problem) throw invalid(problem.message, { field: problem.field });
  const country = findShortcodeCountry(body.country)!;
  const isOther = body.provider === 'other';
  const providerKey = isOther ? toProviderId(body.otherprovider) : body.provider.toLowerCase();
  if (!providerKey) throw invalid(SHORTCODE_MESSAGES.providerIdFormat, { field: 'provider' });
  const provider = await getOrRegisterProvider(
    ctx,
    providerKey,
    isOther ? body.otherprovider : (DEFAULT_PROVIDER_NAMES[providerKey] ?? providerKey),
  );
  const [row] = await ctx.db
    .insert(shortcodeExtensions)
    .values({
      country: country.name,
      providerId: provider.id,
      shortCode: body.shortCode,
      extension: body.extension,
      extLength: body.extLength,
      requestMethod: body.method.toUpperCase(),
      price: Number(String(body.price).trim()).toFixed(2),
      currency: body.currency ? body.currency.toUpperCase() : country.currency,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict(SHORTCODE_MESSAGES.extensionExists);
  await recordAdminAction(ctx.db, admin, 'extension_created', row.id, {
    dialString: buildDialString(row.shortCode, row.extension),
    extLength: row.extLength,
    providerId: provider.providerKey,
    price: row.price,
  });
  return toExtension({ ...row, providerKey: provider.providerKey, providerName: provider.providerName }, false);
}

/** The dial strings held now (a live reservation or an unexpired purchase), as `provider\ndial`. */
async function findHeldDialStrings(ctx: AppContext, providerKeys: string[]): Promise<Set<string>> {
  if (providerKeys.length === 0) return new Set();
  const now = ctx.now();
  const rows = await ctx.db
    .select({ providerKey: shortcodePurchases.providerKey, dialString: shortcodePurchases.dialString })
    .from(shortcodePurchases)
    .where(and(inArray(shortcodePurchases.providerKey, providerKeys), isHeldAt(now)));
  return new Set(rows.map((r) => `${r.providerKey}\n${r.dialString}`));
}

/** A fixed extension is taken while its dial string is held; an open one always has other digits to offer. */
async function toExtensions(ctx: AppContext, entries: CatalogueEntry[]): Promise<Extension[]> {
  const fixed = entries.filter((e) => e.extLength === 0);
  const held = await findHeldDialStrings(ctx, [...new Set(fixed.map((e) => e.providerKey))]);
  return entries.map((e) =>
    toExtension(e, e.extLength === 0 && held.has(`${e.providerKey}\n${buildDialString(e.shortCode, e.extension)}`)),
  );
}

/** GET /api/getAllAvailableShortCodes (admins): the whole catalogue, by country, base and extension. */
export async function findAllExtensions(ctx: AppContext): Promise<Extension[]> {
  const entries = await ctx.db
    .select(catalogueColumns)
    .from(shortcodeExtensions)
    .innerJoin(shortcodeProviders, eq(shortcodeProviders.id, shortcodeExtensions.providerId))
    .orderBy(
      asc(shortcodeExtensions.country),
      asc(shortcodeExtensions.shortCode),
      asc(shortcodeExtensions.extension),
      asc(shortcodeExtensions.id),
    );
  return toExtensions(ctx, entries);
}

/** GET /api/getAvailableShortCodes/{country}: what a buyer can check out now in that country. */
export async function findAvailableExtensions(ctx: AppContext, countryName: string): Promise<Extension[]> {
  const country = findShortcodeCountry(countryName);
  if (!country) throw invalid(SHORTCODE_MESSAGES.countryRequired, { field: 'country' });
  const entries = await ctx.db
    .select(catalogueColumns)
    .from(shortcodeExtensions)
    .innerJoin(shortcodeProviders, eq(shortcodeProviders.id, shortcodeExtensions.providerId))
    .where(eq(shortcodeExtensions.country, country.name))
    .orderBy(asc(shortcodeExtensions.shortCode), asc(shortcodeExtensions.extension), asc(shortcodeProviders.providerKey));
  return (await toExtensions(ctx, entries)).filter((e) => e.status === 'available');
}

/** GET /api/deleteShortCode/{uuid} (admins). An extension someone holds now stays until that purchase ends. */
export async function deleteExtension(ctx: AppContext, admin: AuthUser, uuid: string): Promise<void> {
  const entry = await getCatalogueEntry(ctx, uuid);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const held = await tx
      .select({ id: shortcodePurchases.id })
      .from(shortcodePurchases)
      .where(and(eq(shortcodePurchases.extensionId, entry.id), isHeldAt(now)))
      .limit(1);
    if (held.length > 0) throw conflict(SHORTCODE_MESSAGES.extensionInUse);
    await tx.delete(shortcodeExtensions).where(eq(shortcodeExtensions.id, entry.id));
    await recordAdminAction(tx, admin, 'extension_deleted', entry.id, {
      dialString: buildDialString(entry.shortCode, entry.extension),
      providerId: entry.providerKey,
    });
  });
}
