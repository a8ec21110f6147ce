import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gte, inArray, max } from 'drizzle-orm';
import { apps, menus, sessionRecords, users } from '../../../db/schema';
import { USSD_GATEWAYS } from '../../../shared/gateway-profiles';
import type { Db } from '../../../db/client';
import {
  APP_COUNTRIES,
  APP_MESSAGES,
  resolveAppShortcode,
  type App,
  GATEWAY_TRAFFIC_DAYS,
  type CloneAppBody,
  type CreateAppBody,
  type GatewayTraffic,
  type UpdateAppBody,
} from '../../../shared/api/apps.schema';
import { MERCHANT_MESSAGES } from '../../../shared/api/merchants.schema';
import { hasAdminPermission } from '../../../shared/roles';
import { invalid } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { checkAppLimit } from '../billing/plan-limits';
import { createGatewayKey } from '../../core/gateway-access';
import { recordAdminAction, recordChangeByAdmin } from '../../core/audit-log';
import { getAccessibleMerchant } from '../../core/merchant-access';
import { checkCanBuildApps, checkIsUssdApp, createAppId, getOwnedApp, getReadableApp, isBuiltBy, type AppRow } from '../../core/app-access';
import { findLiveVersions, SUBFLOW_CHANNEL, toAppLanguages, toGatewayConnections, toSubflowInterface } from '../../core/app-versions';
import { checkDialString, findCloneDialString, findDialStringHold, withDialStringClaim } from './app-dial-strings';

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
    officeHours: row.officeHours ?? null,
    gatewayConnections: toGatewayConnections(row),
    flagIcon: row.flagIcon,
    isTemplate: row.isTemplate,
    channel: row.channel === 'whatsapp' ? 'whatsapp' : 'ussd',
    status: row.status === 'inactive' ? 'inactive' : 'active',
    ...(row.channel === SUBFLOW_CHANNEL ? { isSubflow: true as const, subflowInterface: toSubflowInterface(row) } : {}),
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

function checkAppFields(body: { appName: string; description: string; country: string }) {
  if (!body.appName || !body.description || !body.country) throw invalid(APP_MESSAGES.incomplete);
  if (!(APP_COUNTRIES as readonly string[]).includes(body.country)) throw invalid(APP_MESSAGES.unknownCountry, { field: 'country' });
}

function resolveShortcodeOrThrow(body: CreateAppBody): string {
  const result = resolveAppShortcode(body);
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
  const shortCode = resolveShortcodeOrThrow(body);
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
  if (!typed) throw invalid(APP_MESSAGES.noShortcode, { field: 'shortCode' });
  // The settings screen shows the provisioned shortcode read-only in new-shortcode mode: keep it as stored.
  const shortCode =
    body.connectionMode === 'new-shortcode' && body.shortCode === existing.shortCode ? existing.shortCode : resolveShortcodeOrThrow(body);
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
        officeHours: body.officeHours === undefined ? existing.officeHours : body.officeHours,
        gatewayConnections: body.gatewayConnections ?? existing.gatewayConnections,
        updatedAt: ctx.now(),
      })
      .where(eq(apps.id, existing.id))
      .returning(),
  );
  // The live URL's cached app carries the resume setting and office hours: a change applies from the next session.
  // Gateway connections are the draft's at once (the test URL, the designer) and the live URL's from the next deploy.
  ctx.versions.invalidate(existing.id);
  await recordChangeByAdmin(ctx.db, user, existing.userId, 'app_updated', existing.id, { appName: body.appName });
  return getApp(ctx, user, row!.id, origin);
}

/**
 * The USSD gateways that sent the app sessions (test or live URL) in the last GATEWAY_TRAFFIC_DAYS, busiest first:
 * App Settings offers to connect the ones the app is not connected to. Counts only, no caller's data.
 */
export async function findGatewayTraffic(ctx: AppContext, user: AuthUser, appId: string): Promise<GatewayTraffic[]> {
  const app = await getOwnedApp(ctx, user, appId);
  checkIsUssdApp(app);
  const since = new Date(ctx.now().getTime() - GATEWAY_TRAFFIC_DAYS * 24 * 60 * 60 * 1000);
  const sessions = count();
  const rows = await ctx.db
    .select({ gateway: sessionRecords.gateway, sessions, lastAt: max(sessionRecords.endedAt) })
    .from(sessionRecords)
    .where(and(eq(sessionRecords.appId, app.id), gte(sessionRecords.endedAt, since), inArray(sessionRecords.gateway, [...USSD_GATEWAYS])))
    .groupBy(sessionRecords.gateway)
    .orderBy(desc(sessions), asc(sessionRecords.gateway));
  return rows.map((r) => ({
    gateway: r.gateway as GatewayTraffic['gateway'],
    sessions: r.sessions,
    lastAt: (r.lastAt ?? since).toISOString(),
  }));
}

export async function deleteApp(ctx: AppContext, user: AuthUser, appId: string): Promise<void> {
  const row = await getOwnedApp(ctx, user, appId);
  // A sub-flow is deleted on its own screen, which refuses while an app uses it (docs/sub-flows.md).
  if (row.channel === SUBFLOW_CHANNEL) throw invalid(APP_MESSAGES.isSubflow);
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
    const check = resolveAppShortcode({ connectionMode: 'existing-shortcode', customShortCode: body.shortCode, useTemplateTag });
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
