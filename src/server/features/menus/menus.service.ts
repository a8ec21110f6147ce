import { isDeepStrictEqual } from 'node:util';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { apps, appVersions, menus, users } from '../../../db/schema';
import type { Db } from '../../../db/client';
import {
  LANGUAGE_MESSAGES,
  listAppLanguages,
  migrateDefinition,
  pickMenuMedia,
  SpecVersionError,
  stampDefinition,
  toMenuScreen,
  MENU_MESSAGES,
  validateMenu,
  diffVersions,
  nameVersion,
  summarizeDiff,
  type AppVersion,
  type ChangeSummary,
  type Menu,
  type MenuBody,
  type MenuLite,
  type MenuRef,
  type MapPosition,
} from '../../../shared/app';
import type { AppVersionInfo, LintIssueDto, VersionDetails } from '../../../shared/api/menus.schema';
import { lintApp } from '../../../engine';
import { AppError, conflict, invalid, notFound } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { checkDeployAllowed, checkMenuLimit } from '../billing/plan-limits';
import { recordChangeByAdmin } from '../../core/audit-log';
import {
  findLiveVersionNumber,
  findMenuRows,
  freezeSubflows,
  getDraftVersion,
  toAppLanguages,
  toMenu,
  type MenuRow,
} from '../../core/app-versions';
import { getOwnedApp, getReadableApp, type AppRow } from '../../core/app-access';
import { createRenderAllowance, DEPLOY_LINT_RENDER_MS } from '../../core/render-shares';

/** What validating a menu needs of the app's others, and their places: no menu is parsed whole. */
async function findMenuRefs(db: Db, appId: string): Promise<Array<MenuRef & { position: number }>> {
  return db
    .select({ uniqueId: menus.id, userDefinedName: menus.userDefinedName, position: menus.position })
    .from(menus)
    .where(eq(menus.appId, appId))
    .orderBy(asc(menus.position), asc(menus.createdAt));
}

export async function findMenus(ctx: AppContext, user: AuthUser, appId: string): Promise<Menu[]> {
  const app = await getReadableApp(ctx, user, appId);
  return (await findMenuRows(ctx.db, app.id)).map(toMenu);
}

export async function findMenusLite(ctx: AppContext, user: AuthUser, appId: string): Promise<MenuLite[]> {
  return (await findMenus(ctx, user, appId)).map(({ uniqueId, displayText, userDefinedName }) => ({
    uniqueId,
    displayText,
    userDefinedName,
  }));
}

/** `isFirst` is derived: the first menu in order is the first menu (docs/product.md: "true for the first menu in order"). */
async function markFirstMenu(db: Db, appId: string): Promise<void> {
  await db.execute(sql`
    update menus set is_first = (id = (select id from menus where app_id = ${appId} order by position, created_at limit 1))
    where app_id = ${appId}`);
}

/** Moves the app's `updatedAt`, which tells the runtime its draft changed. */
async function touchApp(db: Db, appId: string, at: Date): Promise<void> {
  await db.update(apps).set({ updatedAt: at }).where(eq(apps.id, appId));
}

function throwIfInvalid(menu: MenuBody, others: readonly MenuRef[], app: AppRow): void {
  const errors = validateMenu(menu, others);
  if (errors.length > 0) throw invalid(errors[0]!.message, { field: errors[0]!.field, errors });
  checkMenuLanguages(menu, app);
}

/**
 * A rule's "continue on WhatsApp" names one of the account's bots, on a USSD app (docs/inbox.md). The runtime checks
 * again on each hop (an imported or cloned app may name another account's bot): it then takes a callback request.
 */
async function checkHandoffBots(db: Db, menu: MenuBody, app: AppRow): Promise<void> {
  for (const [i, rule] of menu.switchOperations.entries()) {
    const botId = rule.handoff?.whatsappBotId;
    if (!botId) continue;
    const field = `switchOperations.${i}.handoff.whatsappBotId`;
    if (app.channel === 'whatsapp') throw invalid(MENU_MESSAGES.handoffWhatsAppOnBot, { field });
    const [bot] = await db
      .select({ id: apps.id })
      .from(apps)
      .where(and(eq(apps.id, botId), eq(apps.userId, app.userId), eq(apps.channel, 'whatsapp')));
    if (!bot) throw invalid(MENU_MESSAGES.handoffBotNotFound, { field });
  }
}

/** Translations are for the app's other languages only, and a rule switches to one of its languages. */
function checkMenuLanguages(menu: MenuBody, app: AppRow): void {
  const languages = toAppLanguages(app);
  const others = new Set<string>(languages?.otherLanguages ?? []);
  for (const code of Object.keys(menu.translations ?? {}))
    if (!others.has(code)) throw invalid(LANGUAGE_MESSAGES.notInApp(code), { field: `translations.${code}` });
  const known = new Set(listAppLanguages(languages));
  menu.switchOperations.forEach((rule, i) => {
    if (rule.setLanguage !== undefined && !known.has(rule.setLanguage))
      throw invalid(LANGUAGE_MESSAGES.notInApp(rule.setLanguage), { field: `switchOperations.${i}.setLanguage` });
  });
}

/** The translations with their empty texts left out, null when nothing is left (the column stays empty). */
function toStoredTranslations(translations: MenuBody['translations']): Menu['translations'] | null {
  const stored: NonNullable<Menu['translations']> = {};
  for (const [code, t] of Object.entries(translations ?? {})) {
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(t)) {
      if (typeof value === 'string' ? value.trim() !== '' : Array.isArray(value) && value.some((v) => v.trim() !== '')) kept[field] = value;
    }
    if (Object.keys(kept).length > 0) stored[code] = kept;
  }
  return Object.keys(stored).length > 0 ? stored : null;
}

/** A menu's stored columns from the designer's body (or an imported menu), as createMenu and updateMenu save them. */
export function toMenuRowValues(menu: MenuBody) {
  return {
    userDefinedName: menu.userDefinedName.trim(),
    ...toMenuScreen(menu),
    parentMenuId: menu.parentMenuId,
    switchOperations: menu.switchOperations,
    actions: menu.actions,
    inputValidations: menu.inputValidations,
    translations: toStoredTranslations(menu.translations),
    saveToContact: menu.saveToContact ?? null,
    media: pickMenuMedia(menu),
  };
}

/**
 * Saves a new menu. `parentMenuId` names the menu whose plus button was pressed: the new menu goes right
 * after it; without one it goes at the top (the designer's lone plus button on an empty list) when
 * `isFirst` is set, else at the end.
 */
export async function createMenu(ctx: AppContext, user: AuthUser, body: MenuBody): Promise<string> {
  const app = await getOwnedApp(ctx, user, body.appId);
  return ctx.db.transaction(async (tx) => {
    // Counted with the app's row locked, so parallel creations cannot all pass the limit.
    await checkMenuLimit(ctx, user, app.id, 1, tx);
    const rows = await findMenuRefs(tx, app.id);
    throwIfInvalid(body, rows, app);
    await checkHandoffBots(tx, body, app);
    const after = body.parentMenuId ? rows.findIndex((r) => r.uniqueId === body.parentMenuId) : -1;
    const position = after >= 0 ? rows[after]!.position + 1 : body.isFirst || rows.length === 0 ? 0 : rows[rows.length - 1]!.position + 1;
    await tx
      .update(menus)
      .set({ position: sql`${menus.position} + 1` })
      .where(and(eq(menus.appId, app.id), gt(menus.position, position - 1)));
    const [row] = await tx
      .insert(menus)
      .values({ ...toMenuRowValues(body), appId: app.id, position, isFirst: false })
      .returning({ id: menus.id });
    await markFirstMenu(tx, app.id);
    await touchApp(tx, app.id, ctx.now());
    await recordChangeByAdmin(tx, user, app.userId, 'menu_created', app.id, { menu: row!.id, userDefinedName: body.userDefinedName });
    return row!.id;
  });
}

async function getOwnedMenu(ctx: AppContext, user: AuthUser, uniqueId: string): Promise<{ menu: MenuRow; app: AppRow }> {
  if (!isUuid(uniqueId)) throw notFound('Menu not found');
  const [row] = await ctx.db.select().from(menus).where(eq(menus.id, uniqueId));
  if (!row) throw notFound('Menu not found');
  const app = await getOwnedApp(ctx, user, row.appId).catch(() => {
    throw notFound('Menu not found');
  });
  return { menu: row, app };
}

export async function updateMenu(ctx: AppContext, user: AuthUser, body: MenuBody): Promise<string> {
  if (!body.uniqueId) throw invalid('uniqueId is required to update a menu', { field: 'uniqueId' });
  const { menu, app } = await getOwnedMenu(ctx, user, body.uniqueId);
  if (body.appId && body.appId !== app.id) throw notFound('Menu not found');
  throwIfInvalid({ ...body, uniqueId: menu.id }, await findMenuRefs(ctx.db, app.id), app);
  await checkHandoffBots(ctx.db, body, app);
  await ctx.db
    .update(menus)
    .set({ ...toMenuRowValues(body), updatedAt: ctx.now() })
    .where(eq(menus.id, menu.id));
  await touchApp(ctx.db, app.id, ctx.now());
  await recordChangeByAdmin(ctx.db, user, app.userId, 'menu_updated', app.id, { menu: menu.id, userDefinedName: body.userDefinedName });
  return menu.id;
}

export async function deleteMenu(ctx: AppContext, user: AuthUser, uniqueId: string): Promise<void> {
  const { menu, app } = await getOwnedMenu(ctx, user, uniqueId);
  await ctx.db.delete(menus).where(eq(menus.id, menu.id));
  await markFirstMenu(ctx.db, app.id);
  await touchApp(ctx.db, app.id, ctx.now());
  await recordChangeByAdmin(ctx.db, user, app.userId, 'menu_deleted', app.id, { menu: menu.id, userDefinedName: menu.userDefinedName });
}

export async function saveMenuOrder(ctx: AppContext, user: AuthUser, appId: string, menuIds: string[]): Promise<void> {
  const app = await getOwnedApp(ctx, user, appId);
  const rows = await findMenuRows(ctx.db, app.id);
  const known = new Set(rows.map((r) => r.id));
  if (menuIds.length !== rows.length || new Set(menuIds).size !== menuIds.length || menuIds.some((id) => !known.has(id))) {
    throw invalid('The order must list every menu of the app exactly once.');
  }
  await ctx.db.transaction(async (tx) => {
    for (const [position, id] of menuIds.entries()) await tx.update(menus).set({ position }).where(eq(menus.id, id));
    await markFirstMenu(tx, app.id);
    await touchApp(tx, app.id, ctx.now());
    await recordChangeByAdmin(tx, user, app.userId, 'menus_reordered', app.id);
  });
}

/**
 * The flow map's placed boxes: the listed menus get their positions, every other menu of the app loses its own
 * (the map lays those out). A layout, not a change to the app: the runtime's draft is not marked changed.
 */
export async function saveMenuPositions(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  direction: MapPosition['direction'],
  positions: { uniqueId: string; x: number; y: number }[],
): Promise<void> {
  const app = await getOwnedApp(ctx, user, appId);
  const rows = await findMenuRows(ctx.db, app.id);
  const known = new Set(rows.map((r) => r.id));
  const unknown = positions.find((p) => !known.has(p.uniqueId));
  if (unknown) throw invalid(`No menu ${unknown.uniqueId} in this app.`, { field: 'positions' });
  if (new Set(positions.map((p) => p.uniqueId)).size !== positions.length)
    throw invalid('Each menu may be placed once.', { field: 'positions' });
  await ctx.db.transaction(async (tx) => {
    await tx.update(menus).set({ mapPosition: null }).where(eq(menus.appId, app.id));
    for (const { uniqueId, x, y } of positions) {
      await tx
        .update(menus)
        .set({ mapPosition: { x, y, direction } satisfies MapPosition })
        .where(eq(menus.id, uniqueId));
    }
    await recordChangeByAdmin(tx, user, app.userId, 'menus_moved', app.id);
  });
}

/**
 * The draft against a stored version, ignoring the version's own id and the flow map's box positions (moving boxes
 * is not a change worth a version; jsonb keeps no key order, so both are parsed). A stored version this code cannot
 * read counts as different.
 */
function isSameDefinition(draft: AppVersion, stored: unknown): boolean {
  let parsed: AppVersion;
  try {
    parsed = migrateDefinition(stored);
  } catch {
    return false;
  }
  const definition = (v: AppVersion) => ({ ...v, versionId: '', menus: v.menus.map(({ mapPosition: _placed, ...m }) => m) });
  return isDeepStrictEqual(definition(parsed), definition(draft));
}

type VersionRow = typeof appVersions.$inferSelect;

/** A deploy's optional name and note (GET /api/deployChanges' query, already checked against its schema). */
export interface DeployNaming {
  name?: string;
  note?: string;
  /** A reason to deploy although saved test cases fail (docs/testing-apps.md, "Deploys"); logged. */
  override?: string;
}

/**
 * What runs before a deploy freezes the draft: the app's saved test cases (features/testcases), given by the server's
 * wiring; throws to refuse the deploy. Run outside the deploy's transaction: cases take seconds, and the app row
 * stays unlocked meanwhile.
 */
export type BeforeDeploy = (user: AuthUser, app: AppRow, override: string | undefined) => Promise<unknown>;

/** A stored definition as this code reads it, or null for one it cannot (a newer Dialflow deployed it). */
function readDefinition(stored: unknown): AppVersion | null {
  try {
    return migrateDefinition(stored);
  } catch {
    return null;
  }
}

/** What changed from `before` (null: nothing before it) to `after`; null when either cannot be read. */
function summarizeChanges(before: unknown | null, after: unknown): ChangeSummary | null {
  const [b, a] = [before === null ? null : readDefinition(before), readDefinition(after)];
  if (!a || (before !== null && !b)) return null;
  return summarizeDiff(diffVersions(b, a));
}

function toVersionInfo(row: VersionRow, createdBy: string | null, liveNumber: number, changes: ChangeSummary | null): AppVersionInfo {
  return {
    version: row.number,
    name: row.name,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    createdBy: createdBy ?? '',
    rolledBackFrom: row.rolledBackFrom,
    menuCount: (row.definition as AppVersion).menus.length,
    warnings: row.warnings as LintIssueDto[],
    isLive: row.number === liveNumber,
    changes,
  };
}

/** A version's name and note as given to a deploy: blank is none. */
function toNaming(naming: DeployNaming): { name: string | null; note: string | null } {
  return { name: naming.name?.trim() || null, note: naming.note?.trim() || null };
}

/**
 * Runs the pre-deploy checks and freezes the draft as the next numbered version. Errors refuse the deploy
 * with every issue listed; warnings are kept on the version. The app row is locked so two deploys of one
 * app take turns instead of racing for a number.
 */
export async function deployApp(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  naming: DeployNaming = {},
  beforeDeploy?: BeforeDeploy,
): Promise<AppVersionInfo> {
  const app = await getOwnedApp(ctx, user, appId);
  await checkDeployAllowed(ctx, user);
  await beforeDeploy?.(user, app, naming.override);
  const info = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, app.id)).for('update');
    const draft = await getDraftVersion(tx, app);
    // The lint renders every screen on this thread: all of them share a bounded time (docs/runtime.md).
    const issues = lintApp(draft, createRenderAllowance(DEPLOY_LINT_RENDER_MS)) as LintIssueDto[];
    const errors = issues.filter((i) => i.level === 'error');
    const warnings = issues.filter((i) => i.level === 'warning');
    if (errors.length > 0) {
      const first = errors[0]!;
      throw new AppError('invalid', `Deploy refused: ${first.menu ? `${first.menu}: ` : ''}${first.message}`, {
        extra: { errors, warnings },
      });
    }
    const [last] = await tx
      .select({ number: appVersions.number, definition: appVersions.definition })
      .from(appVersions)
      .where(eq(appVersions.appId, app.id))
      .orderBy(desc(appVersions.number))
      .limit(1);
    // The sub-flows it enters are frozen first: an unchanged one keeps its number, so the comparison holds.
    const draftFrozen = await freezeSubflows(tx, draft, user.id, `${app.appName}`);
    // A deploy with nothing new would only add a copy of the live version to the history.
    if (last && isSameDefinition(draftFrozen, last.definition)) {
      throw conflict(`No changes since version ${last.number}`, { unchangedSince: last.number });
    }
    const number = (last?.number ?? 0) + 1;
    const definition = stampDefinition({ ...draftFrozen, versionId: `v${number}` });
    const [row] = await tx
      .insert(appVersions)
      .values({ appId: app.id, number, definition, warnings, createdBy: user.id, ...toNaming(naming) })
      .returning();
    await recordChangeByAdmin(tx, user, app.userId, 'app_deployed', app.id, { version: number });
    return toVersionInfo(row!, user.email, number, summarizeChanges(last?.definition ?? null, definition));
  });
  ctx.versions.invalidate(app.id);
  return info;
}

export async function findVersions(ctx: AppContext, user: AuthUser, appId: string): Promise<AppVersionInfo[]> {
  const app = await getOwnedApp(ctx, user, appId);
  const rows = await ctx.db
    .select({ version: appVersions, email: users.email })
    .from(appVersions)
    .leftJoin(users, eq(users.id, appVersions.createdBy))
    .where(eq(appVersions.appId, app.id))
    .orderBy(desc(appVersions.number));
  const liveNumber = rows[0]?.version.number ?? 0;
  // Each against the one below it in the list (numbers have no gaps: versions are never deleted); each read once.
  const definitions = rows.map((r) => readDefinition(r.version.definition));
  return rows.map((r, i) => {
    const [after, isFirst] = [definitions[i], i === rows.length - 1];
    const before = isFirst ? null : definitions[i + 1];
    // Null changes when either side cannot be read (a newer Dialflow deployed it).
    const changes = after && (isFirst || before) ? summarizeDiff(diffVersions(before ?? null, after)) : null;
    return toVersionInfo(r.version, r.email, liveNumber, changes);
  });
}

/**
 * One version, its menus, and what changed since `against`: another version's number, the draft, or by default
 * the version before it (none for version 1: every menu is added). 404 for a number the app does not have.
 */
export async function findVersion(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  version: number,
  against?: number | 'draft',
): Promise<VersionDetails> {
  const app = await getOwnedApp(ctx, user, appId);
  const find = async (number: number) => {
    const [row] = await ctx.db
      .select({ version: appVersions, email: users.email })
      .from(appVersions)
      .leftJoin(users, eq(users.id, appVersions.createdBy))
      .where(and(eq(appVersions.appId, app.id), eq(appVersions.number, number)));
    return row;
  };
  const row = await find(version);
  if (!row) throw notFound(`Version ${version} not found`);
  const definition = readStoredVersion(row.version.definition, version, 'opened');
  const baseNumber = against ?? (version > 1 ? version - 1 : null);
  let base: AppVersion | null = null;
  if (baseNumber === 'draft') base = await getDraftVersion(ctx.db, app);
  else if (baseNumber !== null) {
    const other = await find(baseNumber);
    if (!other) throw notFound(`Version ${baseNumber} not found`);
    base = readStoredVersion(other.version.definition, baseNumber, 'opened');
  }
  const liveNumber = (await findLiveVersionNumber(ctx.db, app.id)) ?? 0;
  // Against the draft, what the draft changes: the version is the older side.
  const diff = baseNumber === 'draft' ? diffVersions(definition, base!) : diffVersions(base, definition);
  return {
    info: toVersionInfo(row.version, row.email, liveNumber, summarizeDiff(diff)),
    definition,
    against: baseNumber,
    diff,
  };
}

/** An earlier version's definition, brought forward to be deployed anew or opened; refused when a newer Dialflow deployed it. */
function readStoredVersion(stored: unknown, version: number, use: 'rolled back to' | 'opened' = 'rolled back to'): AppVersion {
  try {
    return migrateDefinition(stored);
  } catch (err) {
    if (err instanceof SpecVersionError) throw invalid(`Version ${version} cannot be ${use}: ${err.message}`);
    throw err;
  }
}

/**
 * Rolls the live URL back by deploying an earlier version's frozen definition anew; history stays whole. The new
 * version records the rollback (`rolledBackFrom`, who, when) and carries the restored version's name: it serves
 * the same menus. `restored` names it for the reply's message.
 */
export async function rollbackVersion(
  ctx: AppContext,
  user: AuthUser,
  appId: string,
  version: number,
): Promise<AppVersionInfo & { restored: string }> {
  const app = await getOwnedApp(ctx, user, appId);
  // A rollback deploys an older version: refused while inactive, as a deploy is.
  await checkDeployAllowed(ctx, user);
  const info = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, app.id)).for('update');
    const [target] = await tx
      .select()
      .from(appVersions)
      .where(and(eq(appVersions.appId, app.id), eq(appVersions.number, version)));
    if (!target) throw notFound(`Version ${version} not found`);
    const [last] = await tx
      .select({ number: appVersions.number, definition: appVersions.definition })
      .from(appVersions)
      .where(eq(appVersions.appId, app.id))
      .orderBy(desc(appVersions.number))
      .limit(1);
    if (last!.number === version) throw invalid(`Version ${version} is already live.`);
    const number = last!.number + 1;
    const definition = stampDefinition({ ...readStoredVersion(target.definition, version), versionId: `v${number}` });
    const [row] = await tx
      .insert(appVersions)
      .values({
        appId: app.id,
        number,
        definition,
        warnings: target.warnings,
        rolledBackFrom: version,
        createdBy: user.id,
        name: target.name,
        note: null,
      })
      .returning();
    await recordChangeByAdmin(tx, user, app.userId, 'app_rolled_back', app.id, { version: number, rolledBackFrom: version });
    const info = toVersionInfo(row!, user.email, number, summarizeChanges(last!.definition, definition));
    return { ...info, restored: nameVersion(version, target.name) };
  });
  ctx.versions.invalidate(app.id);
  return info;
}
