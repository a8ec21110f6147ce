import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, max, sql, type SQL } from 'drizzle-orm';
import { apps, appVersions, menus, users } from '../../../db/schema';
import type { Db } from '../../../db/client';
import {
  APP_COUNTRIES,
  APP_MESSAGES,
  resolveAppShortCode,
  type App,
  type CloneAppBody,
  type CreateAppBody,
  type UpdateAppBody,
} from '../../../shared/api/apps.schema';
import { MERCHANT_MESSAGES, type TransactionApp } from '../../../shared/api/merchants.schema';
import { appLanguagesSchema, type AppLanguages } from '../../../shared/app';
import { canBuildApps, getPermissionScope, hasAdminPermission } from '../../../shared/roles';
import { invalid, notAllowed, notFound, unauthenticated } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../auth/auth.service';
import { checkAppLimit } from '../billing/plan-limits';
import { createGatewayKey } from '../runtime/gateway-access';
import { recordAdminAction, recordChangeByAdmin } from '../admins/audit-log';
import { getAccessibleMerchant } from '../merchants/merchant-access';
import { checkDialString, findCloneDialString, findDialStringHold, withDialStringClaim } from './app-dial-strings';

export type AppRow = typeof apps.$inferSelect;

/** App ids are random 128-bit values: they are the unguessable part of the gateway URLs. */
export const createAppId = () => randomBytes(16).toString('hex');

/** The app's gateway URLs; with its gateway key on, the key is their last part (docs/runtime.md, "Gateway keys"). */
export function getGatewayUrls(origin: string, appId: string, gatewayKey: string | null = null) {
  const key = gatewayKey ? `/${gatewayKey}` : '';
  return { testUrl: `${origin}/ussd/${appId}/test${key}`, productionUrl: `${origin}/ussd/${appId}/live${key}` };
}

/**
 * `showKey`: whoever may change the app sees its gateway key (and the URLs that hold it); anyone else reading it
 * (a featured template) sees the bare URLs and no key.
 */
function toApp(
  row: AppRow,
  origin: string,
  owner: { companyName: string; email: string } | null,
  liveVersion: number | null,
  showKey = true,
): App {
  const gatewayKey = showKey ? row.gatewayKey : null;
  return {
    appId: row.id,
    appName: row.appName,
    description: row.description,
    country: row.country,
    useTemplateTag: row.useTemplateTag,
    shortCode: row.shortCode,
    connectionMode: row.connectionMode,
    baseShortCode: row.baseShortCode,
    customShortCode: row.customShortCode,
    screenLimit: row.screenLimit,
    resumeOnRedial: row.resumeOnRedial,
    resumeWindowMinutes: row.resumeWindowMinutes,
    languages: toAppLanguages(row),
    flagIcon: row.flagIcon,
    isTemplate: row.isTemplate,
    channel: row.channel === 'whatsapp' ? 'whatsapp' : 'ussd',
    status: row.status === 'inactive' ? 'inactive' : 'active',
    ...getGatewayUrls(origin, row.id, gatewayKey),
    hasGatewayKey: row.gatewayKey !== null,
    gatewayKey,
    companyName: owner?.companyName ?? '',
    userEmail: owner?.email ?? '',
    liveVersion,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The app's stored languages, or null for an app in one language (or a value no longer valid). */
export function toAppLanguages(row: Pick<AppRow, 'languages'>): AppLanguages | null {
  if (row.languages === null) return null;
  const parsed = appLanguagesSchema.safeParse(row.languages);
  return parsed.success ? parsed.data : null;
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

async function toApps(
  db: Db,
  rows: Array<{ app: AppRow; owner: { companyName: string; email: string } | null }>,
  origin: string,
  showKey = true,
) {
  const live = await findLiveVersions(
    db,
    rows.map((r) => r.app.id),
  );
  return rows.map((r) => toApp(r.app, origin, r.owner, live.get(r.app.id) ?? null, showKey));
}

/**
 * The apps a user builds: their own and, for a merchant user marked Developer (the role table's
 * `merchantApp.build`, src/shared/roles.ts), every app of their merchant's users. A merchant user who is not a
 * Developer builds none, not even an app an admin cloned into the merchant's account under their name.
 */
export function isBuiltBy(ctx: AppContext, user: AuthUser): SQL {
  if (!canBuildApps(user)) return sql`false`;
  if (user.merchantId && getPermissionScope(user, 'merchantApp.build') === 'own')
    return inArray(apps.userId, ctx.db.select({ id: users.id }).from(users).where(eq(users.merchantId, user.merchantId)));
  return eq(apps.userId, user.id);
}

/** An app by id, and whether the user builds it (see {@link isBuiltBy}). */
async function findAppOfUser(ctx: AppContext, user: AuthUser, appId: string): Promise<{ app: AppRow; isBuilder: boolean } | undefined> {
  const [row] = await ctx.db
    .select({ app: apps, isBuilder: sql<boolean>`${isBuiltBy(ctx, user)}` })
    .from(apps)
    .where(eq(apps.id, appId));
  return row;
}

/**
 * Whether the user may `read` an app (its design) or `edit` it (change, deploy, delete). Its builder may do
 * both; anyone reads a featured template, and only an admin with `template.edit` changes one (never an API key,
 * whose account carries no admin role, even the templates' owner's); any other app is reached by an admin's
 * `tenantApp.read` or `tenantApp.edit` (src/shared/roles.ts).
 */
function canReachApp(user: AuthUser, app: Pick<AppRow, 'isTemplate'>, isBuilder: boolean, need: 'read' | 'edit'): boolean {
  if (app.isTemplate) return need === 'read' || hasAdminPermission(user, 'template.edit');
  return isBuilder || hasAdminPermission(user, need === 'read' ? 'tenantApp.read' : 'tenantApp.edit');
}

async function getReachableApp(ctx: AppContext, user: AuthUser, appId: string, need: 'read' | 'edit') {
  const found = await findAppOfUser(ctx, user, appId);
  if (!found || !canReachApp(user, found.app, found.isBuilder, need)) throw notFound('App not found');
  return found;
}

/**
 * Apps named in a list of something else (a merchant's transactions), by id: their names, and whether the user
 * may open each (read it, as {@link getReadableApp}). A deleted app is not in the map.
 */
export async function findAppLabels(ctx: AppContext, user: AuthUser, appIds: readonly string[]): Promise<Map<string, TransactionApp>> {
  const ids = [...new Set(appIds)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      appId: apps.id,
      appName: apps.appName,
      channel: apps.channel,
      isTemplate: apps.isTemplate,
      isBuilder: sql<boolean>`${isBuiltBy(ctx, user)}`,
    })
    .from(apps)
    .where(inArray(apps.id, ids));
  return new Map(
    rows.map((row) => [
      row.appId,
      {
        appId: row.appId,
        appName: row.appName,
        channel: row.channel === 'whatsapp' ? 'whatsapp' : 'ussd',
        canOpen: canReachApp(user, row, Boolean(row.isBuilder), 'read'),
      },
    ]),
  );
}

/**
 * The app if the user may change it (its builder, or an admin whose roles reach it); else not found, never the
 * object. An admin's change to an app of another account is recorded with {@link recordChangeByAdmin}.
 */
export async function getOwnedApp(ctx: AppContext, user: AuthUser, appId: string): Promise<AppRow> {
  return (await getReachableApp(ctx, user, appId, 'edit')).app;
}

/** The app if the user may read it: built by them, a featured template anyone may run and clone, or any for `tenantApp.read`. */
export async function getReadableApp(ctx: AppContext, user: AuthUser, appId: string): Promise<AppRow> {
  return (await getReachableApp(ctx, user, appId, 'read')).app;
}

/**
 * Refuses a new app (created, cloned, imported, or a bot) to an account that builds none: a merchant user who is
 * not a Developer (403, before anything is read or counted).
 */
export function checkCanBuildApps(user: AuthUser): void {
  if (!canBuildApps(user)) throw notAllowed(APP_MESSAGES.notAppBuilder);
}

/** A bot is an app too, but its settings and copies are the bots area's (features/bots): the USSD calls refuse it. */
export function checkIsUssdApp(row: AppRow): void {
  if (row.channel !== 'ussd') throw invalid(APP_MESSAGES.isBot);
}

function checkAppFields(body: { appName: string; description: string; country: string }) {
  if (!body.appName || !body.description || !body.country) throw invalid(APP_MESSAGES.incomplete);
  if (!(APP_COUNTRIES as readonly string[]).includes(body.country)) throw invalid(APP_MESSAGES.unknownCountry, { field: 'country' });
}

function resolveShortCodeOrThrow(body: CreateAppBody): string {
  const result = resolveAppShortCode(body);
  if (!result.ok) throw invalid(result.message, { field: result.field });
  return result.shortCode;
}

/** The columns the create and settings forms set; `baseShortCode` is kept in new-shortcode mode only. */
function toAppColumns(body: CreateAppBody, shortCode: string, baseShortCode: string) {
  return {
    appName: body.appName,
    description: body.description,
    country: body.country,
    useTemplateTag: body.useTemplateTag,
    shortCode,
    connectionMode: body.connectionMode,
    baseShortCode: body.connectionMode === 'new-shortcode' ? baseShortCode : '',
    customShortCode: body.connectionMode === 'existing-shortcode' ? shortCode : '',
  };
}

export async function createApp(ctx: AppContext, user: AuthUser, body: CreateAppBody, origin: string): Promise<App> {
  checkCanBuildApps(user);
  checkAppFields(body);
  const shortCode = resolveShortCodeOrThrow(body);
  await checkDialString(ctx.db, user.id, shortCode, ctx.now());
  // Counted and inserted with the account locked, so parallel creations cannot all pass the limit.
  const row = await withDialStringClaim(shortCode, () =>
    ctx.db.transaction(async (tx) => {
      await checkAppLimit(ctx, user, tx);
      const [inserted] = await tx
        .insert(apps)
        .values({ id: createAppId(), userId: user.id, ...toAppColumns(body, shortCode, body.baseShortCode) })
        .returning();
      return inserted!;
    }),
  );
  return toApp(row, origin, null, null);
}

/**
 * Own apps (a merchant developer's: the merchant's), newest first; admins with `tenantApp.read` see every
 * account's apps with the owner's company and email.
 */
export async function findApps(ctx: AppContext, user: AuthUser, origin: string): Promise<App[]> {
  const isAdmin = hasAdminPermission(user, 'tenantApp.read');
  const rows = await ctx.db
    .select({ app: apps, owner: { companyName: users.companyName, email: users.email } })
    .from(apps)
    .innerJoin(users, eq(users.id, apps.userId))
    .where(
      isAdmin
        ? and(eq(apps.isTemplate, false), eq(apps.channel, 'ussd'))
        : and(isBuiltBy(ctx, user), eq(apps.isTemplate, false), eq(apps.channel, 'ussd')),
    )
    .orderBy(desc(apps.createdAt));
  return toApps(ctx.db, rows, origin);
}

export async function getApp(ctx: AppContext, user: AuthUser, appId: string, origin: string): Promise<App> {
  const row = await getReadableApp(ctx, user, appId);
  const [owner] = await ctx.db.select({ companyName: users.companyName, email: users.email }).from(users).where(eq(users.id, row.userId));
  // A readable app is the user's own (or an admin's view) unless it is a featured template.
  const showKey = !row.isTemplate || hasAdminPermission(user, 'template.edit');
  const app = (await toApps(ctx.db, [{ app: row, owner: owner ?? null }], origin, showKey))[0]!;
  return { ...app, dialStringHold: row.isTemplate ? null : await findDialStringHold(ctx.db, row, ctx.now()) };
}

/**
 * Turns the app's gateway key on with a new one, or replaces it (docs/runtime.md, "Gateway keys"): from the next
 * request the old key, and the URL without a key, are refused in every process.
 */
export async function rotateAppGatewayKey(ctx: AppContext, user: AuthUser, appId: string, origin: string): Promise<App> {
  return setAppGatewayKey(ctx, user, appId, createGatewayKey(), origin);
}

/** Turns the app's gateway key off: its bare URLs are served again. */
export async function removeAppGatewayKey(ctx: AppContext, user: AuthUser, appId: string, origin: string): Promise<App> {
  return setAppGatewayKey(ctx, user, appId, null, origin);
}

async function setAppGatewayKey(ctx: AppContext, user: AuthUser, appId: string, gatewayKey: string | null, origin: string): Promise<App> {
  const existing = await getOwnedApp(ctx, user, appId);
  checkIsUssdApp(existing);
  await ctx.db.update(apps).set({ gatewayKey, updatedAt: ctx.now() }).where(eq(apps.id, existing.id));
  ctx.gatewayAccess.invalidate(`app/${existing.id}`);
  return getApp(ctx, user, existing.id, origin);
}

export async function updateApp(ctx: AppContext, user: AuthUser, body: UpdateAppBody, origin: string): Promise<App> {
  const existing = await getOwnedApp(ctx, user, body.appId);
  checkIsUssdApp(existing);
  checkAppFields(body);
  const typed = body.connectionMode === 'existing-shortcode' ? body.customShortCode || body.shortCode : body.shortCode;
  if (!typed) throw invalid(APP_MESSAGES.noShortCode, { field: 'shortCode' });
  // The settings screen shows the provisioned shortcode read-only in new-shortcode mode: keep it as stored.
  const shortCode =
    body.connectionMode === 'new-shortcode' && body.shortCode === existing.shortCode ? existing.shortCode : resolveShortCodeOrThrow(body);
  await checkDialString(ctx.db, existing.userId, shortCode, ctx.now(), existing.id);
  const [row] = await withDialStringClaim(shortCode, () =>
    ctx.db
      .update(apps)
      .set({
        ...toAppColumns(body, shortCode, body.baseShortCode || existing.baseShortCode),
        screenLimit: body.screenLimit ?? existing.screenLimit,
        resumeOnRedial: body.resumeOnRedial ?? existing.resumeOnRedial,
        resumeWindowMinutes: body.resumeWindowMinutes ?? existing.resumeWindowMinutes,
        languages: body.languages === undefined ? existing.languages : body.languages,
        updatedAt: ctx.now(),
      })
      .where(eq(apps.id, existing.id))
      .returning(),
  );
  // The live URL's cached app carries the resume setting: a change applies from the next session.
  ctx.versions.invalidate(existing.id);
  await recordChangeByAdmin(ctx.db, user, existing.userId, 'app_updated', existing.id, { appName: body.appName });
  return getApp(ctx, user, row!.id, origin);
}

export async function deleteApp(ctx: AppContext, user: AuthUser, appId: string): Promise<void> {
  const row = await getOwnedApp(ctx, user, appId);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(apps).where(eq(apps.id, row.id));
    await recordChangeByAdmin(tx, user, row.userId, 'app_deleted', row.id, { appName: row.appName });
  });
  ctx.versions.invalidate(row.id);
}

/**
 * Copies an app and its draft menus into a new app, remapping menu ids inside navigation targets and parents
 * so the copy's gotos point at the copy's menus. Admins may clone into a merchant's account.
 */
export async function cloneApp(ctx: AppContext, user: AuthUser, body: CloneAppBody, origin: string): Promise<App> {
  checkCanBuildApps(user);
  const source = await getReadableApp(ctx, user, body.appId);
  checkIsUssdApp(source);
  if (!body.appName || !body.description) throw invalid(APP_MESSAGES.incomplete);
  let ownerId = user.id;
  let merchant: { id: string; companyName: string } | undefined;
  if (body.merchantUuid) {
    // The role table (src/shared/roles.ts) says into which merchants' accounts the caller may clone.
    merchant = await getAccessibleMerchant(ctx, user, 'app.cloneIntoMerchant', body.merchantUuid);
    const [merchantUser] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.merchantId, merchant.id))
      .orderBy(asc(users.createdAt))
      .limit(1);
    if (!merchantUser) throw invalid(MERCHANT_MESSAGES.merchantHasNoUsers, { field: 'merchantUuid' });
    ownerId = merchantUser.id;
  }
  // An admin's clone into a merchant's account is the admin's decision, not the merchant's plan's.
  if (ownerId === user.id) await checkAppLimit(ctx, user);
  const useTemplateTag = body.useTemplateTag ?? source.useTemplateTag;
  let shortCode: string;
  if (body.shortCode) {
    const check = resolveAppShortCode({ connectionMode: 'existing-shortcode', customShortCode: body.shortCode, useTemplateTag });
    if (!check.ok) throw invalid(check.message, { field: 'shortCode' });
    shortCode = check.shortCode;
    await checkDialString(ctx.db, ownerId, shortCode, ctx.now());
  } else {
    // The copy keeps the source's dial string only when it is free for its owner: else it has none until one is typed.
    shortCode = await findCloneDialString(ctx.db, ownerId, source.shortCode, ctx.now());
  }
  const keepsSourceCode = !body.shortCode && shortCode !== '';

  const sourceMenus = await ctx.db.select().from(menus).where(eq(menus.appId, source.id)).orderBy(asc(menus.position));
  const idMap = new Map(sourceMenus.map((m) => [m.id, randomUUID()]));
  const remap = (id: string | null) => (id && idMap.get(id)) || id;
  const newId = createAppId();

  await withDialStringClaim(shortCode, () =>
    ctx.db.transaction(async (tx) => {
      // Counted again with the account locked: parallel clones (and creations) take turns at the limit.
      if (ownerId === user.id) await checkAppLimit(ctx, user, tx);
      await tx.insert(apps).values({
        ...source,
        id: newId,
        userId: ownerId,
        appName: body.appName,
        description: body.description,
        useTemplateTag,
        shortCode,
        connectionMode: keepsSourceCode ? source.connectionMode : 'existing-shortcode',
        baseShortCode: keepsSourceCode ? source.baseShortCode : '',
        customShortCode: keepsSourceCode ? source.customShortCode : shortCode,
        isTemplate: false,
        // A copy gets no gateway key: a key is one app's own, turned on by its owner.
        gatewayKey: null,
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      });
      if (sourceMenus.length > 0) {
        await tx.insert(menus).values(
          sourceMenus.map((m) => ({
            ...m,
            id: idMap.get(m.id)!,
            appId: newId,
            parentMenuId: remap(m.parentMenuId),
            switchOperations: (m.switchOperations as Array<{ actionParam?: string; action?: string }>).map((op) =>
              op.action === 'goto' && op.actionParam ? { ...op, actionParam: remap(op.actionParam) } : op,
            ),
            createdAt: ctx.now(),
            updatedAt: ctx.now(),
          })),
        );
      }
      if (merchant)
        await recordAdminAction(tx, user, 'app_cloned_into_merchant', newId, {
          sourceAppId: source.id,
          merchantUuid: merchant.id,
          companyName: merchant.companyName,
        });
    }),
  );
  return getApp(ctx, { ...user, id: ownerId }, newId, origin);
}

/** Featured templates for the public and logged-in galleries. */
export async function findFeaturedTemplates(ctx: AppContext, origin: string): Promise<App[]> {
  const rows = await ctx.db.select().from(apps).where(eq(apps.isTemplate, true)).orderBy(asc(apps.createdAt));
  return toApps(
    ctx.db,
    rows.map((app) => ({ app, owner: null })),
    origin,
  );
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

/**
 * The app whose logs, debug data and sessions the user may read: one they build, or any for an admin with
 * `tenantSession.read` (callers' inputs are personal data: `tenantApp.read` is not enough). Anyone may test-run
 * a featured template, so others read its data one session at a time, and only sessions they ran themselves
 * (logs.service filters a template's rows by caller); admins with `template.edit` read a template's as a whole.
 */
export async function getMonitoredApp(ctx: AppContext, user: AuthUser, appId: string, sessionId?: string): Promise<AppRow> {
  const { app, isBuilder } = await getReachableApp(ctx, user, appId, 'read');
  const readsAll = app.isTemplate ? hasAdminPermission(user, 'template.edit') : isBuilder || hasAdminPermission(user, 'tenantSession.read');
  if (!readsAll && !(app.isTemplate && sessionId)) throw notFound('App not found');
  return app;
}

/**
 * Who may run an app in the emulator: anyone for a featured template; otherwise whoever may change it (a run
 * calls the app's actions: payments, SMS, its APIs, so reading the design is not enough).
 * The gateway URLs stay open (gateways do not sign in); their 128-bit app id is the secret there.
 */
export async function checkEmulatorAccess(ctx: AppContext, user: AuthUser | undefined, appId: string): Promise<void> {
  if (user) {
    const { app, isBuilder } = await getReachableApp(ctx, user, appId, 'read');
    if (!app.isTemplate && !canReachApp(user, app, isBuilder, 'edit')) throw notFound('App not found');
    return;
  }
  const [row] = await ctx.db.select({ isTemplate: apps.isTemplate }).from(apps).where(eq(apps.id, appId));
  if (!row) throw notFound('App not found');
  if (!row.isTemplate) throw unauthenticated('Please log in to test this app');
}
