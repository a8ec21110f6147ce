import { and, asc, desc, eq, gt, inArray, type Column, type SQL } from 'drizzle-orm';
import { isUuid } from '../../../shared/ids';
import { actionResults, appLogs, mediaFiles, sessionInputs } from '../../../db/schema';
import type { SessionPath } from '../../../shared/api/monitoring.schema';
import type { MediaRef } from '../../../shared/media';
import { invalid, notAllowed } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { recordChangeByAdmin } from '../../core/audit-log';
import { getMonitoredApp, type AppRow } from '../../core/app-access';
import { getUserCaller } from '../runtime/emulator-caller';
import { toMediaRef, withSignedUrl } from '../media/media.service';

const STREAM_LIMIT = 500;
const SEARCH_LIMIT = 2000;
/** A session's path is read from at most this many of its lines (a session has a few per hop). */
const PATH_LIMIT = 5000;

function toDate(instant: number | string | undefined): Date {
  if (instant === undefined || instant === '') return new Date(0);
  const date = typeof instant === 'number' || /^\d+$/.test(instant) ? new Date(Number(instant)) : new Date(instant);
  if (Number.isNaN(date.getTime())) throw invalid('timeStamp must be a time in milliseconds or an ISO date');
  return date;
}

/**
 * A featured template is run by anyone: its sessions' lines, inputs and action results are read back only by
 * the user who ran them (the caller their emulator rows carry), whatever session id is asked for.
 */
function filterToOwnRuns(app: AppRow, user: AuthUser, callerColumn: Column): SQL[] {
  return app.isTemplate ? [eq(callerColumn, getUserCaller(user.id))] : [];
}

/** New log lines since `timeStamp` or `afterId` (the emulator's polling), in the order they were written. */
export async function streamLogs(
  ctx: AppContext,
  user: AuthUser,
  body: { appId: string; timeStamp?: number | string; afterId?: number; sessionId?: string },
) {
  const app = await getMonitoredApp(ctx, user, body.appId, body.sessionId);
  const conditions: SQL[] = [
    eq(appLogs.appId, app.id),
    body.afterId !== undefined ? gt(appLogs.id, body.afterId) : gt(appLogs.createdAt, toDate(body.timeStamp)),
    ...filterToOwnRuns(app, user, appLogs.caller),
  ];
  if (body.sessionId) conditions.push(eq(appLogs.sessionId, body.sessionId));
  const rows = await ctx.db
    .select()
    .from(appLogs)
    .where(and(...conditions))
    .orderBy(asc(appLogs.id))
    .limit(STREAM_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    logLevel: r.level,
    message: r.message,
    timestamp: r.createdAt.toISOString(),
    sessionId: r.sessionId,
    menu: r.menu,
    plugin: r.plugin,
    action: r.action,
    data: r.data ?? null,
  }));
}

/**
 * The Application Logs screen: the newest lines matching the filters, oldest first, as they happened (a line's
 * id breaks a tie between lines written in the same millisecond: a session's start before its end). The Table
 * View orders these by level itself; the Log View reads them as they come.
 */
export async function searchLogs(
  ctx: AppContext,
  user: AuthUser,
  body: {
    appId: string;
    filterByMenu: boolean;
    filterByLevel: boolean;
    filterByPlugin: boolean;
    level: string;
    menuId: string;
    plugin: string;
  },
) {
  const app = await getMonitoredApp(ctx, user, body.appId);
  const conditions: SQL[] = [eq(appLogs.appId, app.id)];
  if (body.filterByLevel && body.level) conditions.push(eq(appLogs.level, body.level));
  if (body.filterByPlugin && body.plugin) conditions.push(eq(appLogs.plugin, body.plugin));
  if (body.filterByMenu && body.menuId) conditions.push(eq(appLogs.menuId, body.menuId));
  const rows = await ctx.db
    .select()
    .from(appLogs)
    .where(and(...conditions))
    .orderBy(desc(appLogs.createdAt), desc(appLogs.id))
    .limit(SEARCH_LIMIT);
  // Read newest first so the limit keeps the latest lines, then answer them in the order they happened.
  return rows.reverse().map((r) => ({
    id: r.id,
    time: r.createdAt.toISOString(),
    logLevel: r.level,
    pluginActionMenu: `${r.plugin ?? '-'}:${r.action ?? '-'}:${r.menu ?? '-'}`,
    message: r.message,
    data: r.data ?? null,
  }));
}

export async function clearLogs(ctx: AppContext, user: AuthUser, appId: string): Promise<number> {
  const app = await getMonitoredApp(ctx, user, appId);
  if (app.isTemplate) throw notAllowed('The logs of a featured template cannot be cleared');
  const deleted = await ctx.db.delete(appLogs).where(eq(appLogs.appId, app.id)).returning({ id: appLogs.id });
  await recordChangeByAdmin(ctx.db, user, app.userId, 'app_logs_cleared', app.id, { lines: deleted.length });
  return deleted.length;
}

export async function findUserInputs(ctx: AppContext, user: AuthUser, appId: string, sessionId: string) {
  const app = await getMonitoredApp(ctx, user, appId, sessionId);
  const rows = await ctx.db
    .select()
    .from(sessionInputs)
    .where(
      and(eq(sessionInputs.appId, app.id), eq(sessionInputs.sessionId, sessionId), ...filterToOwnRuns(app, user, sessionInputs.caller)),
    )
    .orderBy(asc(sessionInputs.id));
  const files = await findInputFiles(
    ctx,
    app.userId,
    rows.map((r) => r.fieldValue),
  );
  return rows.map((r) => {
    const media = files.get(r.fieldValue);
    return { fieldName: r.fieldName, fieldValue: r.fieldValue, time: r.createdAt.toISOString(), ...(media ? { media } : {}) };
  });
}

/**
 * The files among a session's input values (a bot's photo or document input is kept as its media id): each of the
 * app owner's files with a fresh signed link, none once its bytes were deleted. An id of another account's file
 * (typed by a caller) stays plain text.
 */
async function findInputFiles(ctx: AppContext, ownerId: string, values: string[]): Promise<Map<string, MediaRef>> {
  const ids = [...new Set(values.filter(isUuid))];
  if (ids.length === 0) return new Map();
  const files = await ctx.db
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.ownerId, ownerId), inArray(mediaFiles.id, ids)));
  return new Map(files.map((file) => [file.id, file.deletedAt ? toMediaRef(file) : withSignedUrl(ctx, toMediaRef(file))]));
}

/** The menus a session was shown and the rules it took, from its log lines (menu_shown, navigated, session_ended). */
export async function findSessionPath(ctx: AppContext, user: AuthUser, appId: string, sessionId: string): Promise<SessionPath> {
  const app = await getMonitoredApp(ctx, user, appId, sessionId);
  const rows = await ctx.db
    .select({ type: appLogs.type, menuId: appLogs.menuId, menu: appLogs.menu, data: appLogs.data, createdAt: appLogs.createdAt })
    .from(appLogs)
    .where(
      and(
        eq(appLogs.appId, app.id),
        eq(appLogs.sessionId, sessionId),
        inArray(appLogs.type, ['menu_shown', 'navigated', 'session_ended']),
        ...filterToOwnRuns(app, user, appLogs.caller),
      ),
    )
    .orderBy(asc(appLogs.id))
    .limit(PATH_LIMIT);
  const path: SessionPath = { steps: [], rules: [], ended: false };
  for (const row of rows) {
    if (row.type === 'session_ended') path.ended = true;
    if (!row.menuId) continue;
    // A terminating menu's screen ends the session: its step is the end line (a Terminate rule's is its own menu's).
    const isClosingMenu = row.type === 'session_ended' && path.steps.at(-1)?.menuId !== row.menuId;
    if (row.type === 'menu_shown' || isClosingMenu) {
      // The next page of the same screen is not another step.
      const page = (row.data as { page?: number } | null)?.page ?? 1;
      if (page > 1 && path.steps.at(-1)?.menuId === row.menuId) continue;
      path.steps.push({ menuId: row.menuId, menu: row.menu ?? '', time: row.createdAt.toISOString() });
    } else if (row.type === 'navigated') {
      const data = row.data as { rule?: number; toId?: string } | null;
      if (typeof data?.rule === 'number') path.rules.push({ menuId: row.menuId, rule: data.rule, toId: data.toId ?? null });
    }
  }
  return path;
}

export async function findActionResults(ctx: AppContext, user: AuthUser, appId: string, sessionId: string) {
  const app = await getMonitoredApp(ctx, user, appId, sessionId);
  const rows = await ctx.db
    .select()
    .from(actionResults)
    .where(
      and(eq(actionResults.appId, app.id), eq(actionResults.sessionId, sessionId), ...filterToOwnRuns(app, user, actionResults.caller)),
    )
    .orderBy(asc(actionResults.id));
  return rows.map((r) => ({
    actionName: r.actionName,
    menuName: r.menuName,
    actionResult: r.result ?? null,
    isOk: r.isOk === 1,
    time: r.createdAt.toISOString(),
  }));
}
