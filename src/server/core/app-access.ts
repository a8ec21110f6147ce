import { randomBytes } from 'node:crypto';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { apps, users } from '../../db/schema';
import { APP_MESSAGES } from '../../shared/api/apps.schema';
import type { TransactionApp } from '../../shared/api/merchants.schema';
import { canBuildApps, getPermissionScope, hasAdminPermission } from '../../shared/roles';
import { invalid, notAllowed, notFound, unauthenticated } from '../../shared/errors';
import type { AppContext } from '../context';
import type { AuthUser } from './auth-user';

/**
 * Who may reach an app, and how far: every feature that takes an app id from a user (menus, logs, sessions,
 * webhooks, payments, bots, the emulator) asks here, so the answer is one rule (src/shared/roles.ts).
 */

/** App ids are random 128-bit values: they are the unguessable part of the gateway URLs. */
export const createAppId = () => randomBytes(16).toString('hex');

export type AppRow = typeof apps.$inferSelect;

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
 * calls the app's actions: payments, SMS, its APIs, so reading the design is not enough). A deployed version
 * (`isVersion`, "Try in emulator") only for whoever may change the app, template or not.
 * The gateway URLs stay open (gateways do not sign in); their 128-bit app id is the secret there.
 */
export async function checkEmulatorAccess(ctx: AppContext, user: AuthUser | undefined, appId: string, isVersion = false): Promise<void> {
  if (user) {
    const { app, isBuilder } = await getReachableApp(ctx, user, appId, 'read');
    // A deployed version (isVersion) is its builder's to try, as its version list is: a template's too.
    if ((isVersion || !app.isTemplate) && !canReachApp(user, app, isBuilder, 'edit')) throw notFound('App not found');
    return;
  }
  const [row] = await ctx.db.select({ isTemplate: apps.isTemplate }).from(apps).where(eq(apps.id, appId));
  if (!row) throw notFound('App not found');
  if (isVersion || !row.isTemplate) throw unauthenticated('Please log in to test this app');
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
 * Refuses a new app (created, cloned, imported, or a bot) to an account that builds none: a merchant user who is
 * not a Developer (403, before anything is read or counted).
 */
export function checkCanBuildApps(user: AuthUser): void {
  if (!canBuildApps(user)) throw notAllowed(APP_MESSAGES.notAppBuilder);
}

/** A bot is an app too, but its settings and copies are the bots area's (features/bots): the USSD calls refuse it. */
export function checkIsUssdApp(row: AppRow): void {
  if (row.channel === 'subflow') throw invalid(APP_MESSAGES.isSubflow);
  if (row.channel !== 'ussd') throw invalid(APP_MESSAGES.isBot);
}
