import { and, asc, desc, eq, inArray, max } from 'drizzle-orm';
import { apps, appVersions, menus } from '../../db/schema';
import type { Db } from '../../db/client';
import {
  appLanguagesSchema,
  appVersionSchema,
  menuSchema,
  migrateDefinition,
  stampDefinition,
  subflowInterfaceSchema,
  type AppLanguages,
  type AppVersion,
  type Menu,
  type SubflowInterface,
  type SubflowVersion,
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

/** The apps' channel value that marks a sub-flow (docs/sub-flows.md). */
export const SUBFLOW_CHANNEL = 'subflow';

/** A sub-flow's declared inputs and outputs (none for a stored value no longer valid). */
export function toSubflowInterface(row: Pick<AppRow, 'subflowInterface'>): SubflowInterface {
  const parsed = subflowInterfaceSchema.safeParse(row.subflowInterface ?? {});
  return parsed.success ? parsed.data : { inputs: [], outputs: [] };
}

/** The draft as the engine runs it (the test URL and the emulator), with the drafts of the sub-flows its rules enter. */
export async function getDraftVersion(db: Db, app: AppRow): Promise<AppVersion> {
  const rows = await findMenuRows(db, app.id);
  const languages = toAppLanguages(app);
  const gatewayConnections = toGatewayConnections(app);
  const menuList = rows.map(toMenu);
  const isSubflow = app.channel === SUBFLOW_CHANNEL;
  const subflows = isSubflow ? [] : await findSubflowDrafts(db, app.userId, findEnteredSubflows(menuList));
  return appVersionSchema.parse({
    appId: app.id,
    versionId: 'draft',
    appName: app.appName,
    shortCode: app.shortCode,
    useTemplateTag: app.useTemplateTag,
    screenLimit: app.screenLimit,
    // A sub-flow's screens are counted as USSD's, the stricter: the apps that enter it hold it to their own limits.
    channel: isSubflow ? 'ussd' : app.channel,
    menus: menuList,
    ...(languages ? { languages } : {}),
    // Left out when there are none, as languages are: a version deployed before connections reads the same.
    ...(gatewayConnections.length > 0 ? { gatewayConnections } : {}),
    ...(subflows.length > 0 ? { subflows } : {}),
    ...(isSubflow ? { subflowInterface: toSubflowInterface(app) } : {}),
  });
}

/** The ids of the sub-flows the menus' rules enter, each once, in the order first met. */
export function findEnteredSubflows(menuList: readonly Menu[]): string[] {
  const ids = new Set<string>();
  for (const menu of menuList) for (const rule of menu.switchOperations) if (rule.subflow) ids.add(rule.subflow.id);
  return [...ids];
}

/**
 * The drafts (version 0) of the owner's sub-flows among `ids`, in that order; an id that is not one of the owner's
 * sub-flows is left out (the lint names the rule: "This sub-flow does not exist in your account").
 */
export async function findSubflowDrafts(db: Db, ownerId: string, ids: readonly string[]): Promise<SubflowVersion[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(apps)
    .where(and(inArray(apps.id, [...ids]), eq(apps.userId, ownerId), eq(apps.channel, SUBFLOW_CHANNEL)));
  const menuRows = await db
    .select()
    .from(menus)
    .where(
      inArray(
        menus.appId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(menus.position), asc(menus.createdAt));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const own = toSubflowInterface(row);
    const menuList = menuRows.filter((m) => m.appId === id).map(toMenu);
    return [{ id, name: row.appName, version: 0, inputs: own.inputs, outputs: own.outputs, menus: menuList }];
  });
}

/** A sub-flow's version as its own versions list keeps it: an AppVersion of its menus with its inputs and outputs. */
function toSubflowDefinition(subflow: SubflowVersion, number: number): AppVersion {
  return appVersionSchema.parse({
    appId: subflow.id,
    versionId: `v${number}`,
    appName: subflow.name,
    channel: 'ussd',
    menus: subflow.menus,
    subflowInterface: { inputs: subflow.inputs, outputs: subflow.outputs },
  });
}

const sameSubflow = (a: AppVersion, b: AppVersion) =>
  JSON.stringify([a.menus, a.subflowInterface, a.appName]) === JSON.stringify([b.menus, b.subflowInterface, b.appName]);

/**
 * Freezes the sub-flow drafts an app's draft carries, as the app is deployed (docs/sub-flows.md): each becomes the
 * sub-flow's latest version when that is the same, else a new version of the sub-flow (its row locked, so two apps
 * deploying at once number it once). Runs in the deploy's transaction; returns the draft with the numbers set.
 */
export async function freezeSubflows(tx: Db, draft: AppVersion, deployedBy: string, deployedWith: string): Promise<AppVersion> {
  if (!draft.subflows?.length) return draft;
  const frozen: SubflowVersion[] = [];
  for (const subflow of draft.subflows) {
    await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, subflow.id)).for('update');
    const [last] = await tx
      .select({ number: appVersions.number, definition: appVersions.definition })
      .from(appVersions)
      .where(eq(appVersions.appId, subflow.id))
      .orderBy(desc(appVersions.number))
      .limit(1);
    const lastDefinition = last ? migrateDefinition(last.definition) : null;
    let number = last?.number ?? 0;
    if (!lastDefinition || !sameSubflow(lastDefinition, toSubflowDefinition(subflow, number))) {
      number += 1;
      await tx.insert(appVersions).values({
        appId: subflow.id,
        number,
        definition: stampDefinition(toSubflowDefinition(subflow, number)),
        createdBy: deployedBy,
        note: `Frozen by deploying ${deployedWith}`,
      });
    }
    frozen.push({ ...subflow, version: number });
  }
  return { ...draft, subflows: frozen };
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
