import { and, asc, desc, eq, inArray, max } from 'drizzle-orm';
import { appVersions, menus } from '../../db/schema';
import type { Db } from '../../db/client';
import {
  appLanguagesSchema,
  appVersionSchema,
  menuSchema,
  migrateDefinition,
  type AppLanguages,
  type AppVersion,
  type Menu,
} from '../../shared/app';
import { isPlainObject } from '../../shared/json';
import { gatewayConnectionsSchema, type GatewayConnection } from '../../shared/gateway-profiles';
import type { AppRow } from './app-access';

/**
 * An app's versions as the runtime and the designer read them: the draft built from its menus, the live (highest
 * deployed) version, and their numbers. Loading them is the core's, so the version cache needs no feature.
 */

export type MenuRow = typeof menus.$inferSelect;

/** The app's stored languages, or null for an app in one language (or a value no longer valid). */
export function toAppLanguages(row: Pick<AppRow, 'languages'>): AppLanguages | null {
  if (row.languages === null) return null;
  const parsed = appLanguagesSchema.safeParse(row.languages);
  return parsed.success ? parsed.data : null;
}

/** The gateways a USSD app is connected to ([] for a bot, or for a stored value no longer valid). */
export function toGatewayConnections(row: Pick<AppRow, 'channel' | 'gatewayConnections'>): GatewayConnection[] {
  if (row.channel !== 'ussd') return [];
  const parsed = gatewayConnectionsSchema.safeParse(row.gatewayConnections);
  return parsed.success ? parsed.data : [];
}

export function toMenu(row: MenuRow): Menu {
  return menuSchema.parse({
    uniqueId: row.id,
    appId: row.appId,
    isFirst: row.isFirst,
    displayText: row.displayText,
    headerText: row.headerText,
    footerText: row.footerText,
    userDefinedName: row.userDefinedName,
    inputHolder: row.inputHolder,
    allowGoBack: row.allowGoBack,
    goBackInputIndicator: row.goBackInputIndicator,
    terminate: row.terminate,
    parentMenuId: row.parentMenuId,
    switchOperations: row.switchOperations,
    actions: row.actions,
    inputValidations: row.inputValidations,
    ...(row.mapPosition ? { mapPosition: row.mapPosition } : {}),
    ...(row.translations ? { translations: row.translations } : {}),
    ...(row.saveToContact ? { saveToContact: row.saveToContact } : {}),
    ...(isPlainObject(row.media) ? row.media : {}),
  });
}

/** The app's menus in their order. */
export async function findMenuRows(db: Db, appId: string): Promise<MenuRow[]> {
  return db.select().from(menus).where(eq(menus.appId, appId)).orderBy(asc(menus.position), asc(menus.createdAt));
}

/** The draft as the engine runs it (the test URL and the emulator). */
export async function getDraftVersion(db: Db, app: AppRow): Promise<AppVersion> {
  const rows = await findMenuRows(db, app.id);
  const languages = toAppLanguages(app);
  const gatewayConnections = toGatewayConnections(app);
  return appVersionSchema.parse({
    appId: app.id,
    versionId: 'draft',
    appName: app.appName,
    shortCode: app.shortCode,
    useTemplateTag: app.useTemplateTag,
    screenLimit: app.screenLimit,
    channel: app.channel,
    menus: rows.map(toMenu),
    ...(languages ? { languages } : {}),
    // Left out when there are none, as languages are: a version deployed before connections reads the same.
    ...(gatewayConnections.length > 0 ? { gatewayConnections } : {}),
  });
}

/** The live version the production URL serves, or undefined before the first deploy. */
export async function findLiveVersion(db: Db, appId: string): Promise<AppVersion | undefined> {
  const [row] = await db
    .select({ definition: appVersions.definition })
    .from(appVersions)
    .where(eq(appVersions.appId, appId))
    .orderBy(desc(appVersions.number))
    .limit(1);
  // A definition from a newer spec version throws here: the runtime logs it and answers as for a broken version.
  return row ? migrateDefinition(row.definition) : undefined;
}

/** Deployed version `number` of the app, or undefined when it has none of that number. */
export async function findNumberedVersion(db: Db, appId: string, number: number): Promise<AppVersion | undefined> {
  const [row] = await db
    .select({ definition: appVersions.definition })
    .from(appVersions)
    .where(and(eq(appVersions.appId, appId), eq(appVersions.number, number)));
  return row ? migrateDefinition(row.definition) : undefined;
}

export async function findLiveVersionNumber(db: Db, appId: string): Promise<number | null> {
  const [row] = await db
    .select({ number: appVersions.number })
    .from(appVersions)
    .where(eq(appVersions.appId, appId))
    .orderBy(desc(appVersions.number))
    .limit(1);
  return row?.number ?? null;
}

/** The highest deployed version of each app, in one query. */
export async function findLiveVersions(db: Db, appIds: string[]): Promise<Map<string, number>> {
  if (appIds.length === 0) return new Map();
  const rows = await db
    .select({ appId: appVersions.appId, number: max(appVersions.number) })
    .from(appVersions)
    .where(inArray(appVersions.appId, appIds))
    .groupBy(appVersions.appId);
  return new Map(rows.map((r) => [r.appId, r.number ?? 0]));
}
