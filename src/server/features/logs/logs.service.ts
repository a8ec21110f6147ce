import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, sql, type Column, type SQL } from 'drizzle-orm';
import { isUuid } from '../../../shared/ids';
import { actionResults, appLogLines, appLogs, LINE_ID_SCALE, mediaFiles } from '../../../db/schema';
import type { SessionPath } from '../../../shared/api/monitoring.schema';
import type { MediaRef } from '../../../shared/media';
import { invalid, notAllowed } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { recordChangeByAdmin } from '../../core/audit-log';
import { getMonitoredApp, type AppRow } from '../../core/app-access';
import { getUserCaller } from '../runtime/emulator-caller';
import { toMediaRef, withSignedUrl } from '../media/media.service';
import { countLines, findInputsGiven } from '../../core/log-rows';

const STREAM_LIMIT = 500;
const SEARCH_LIMIT = 2000;
/** A session's path is read from at most this many of its lines (a session has a few per hop). */
const PATH_LIMIT = 5000;
/** How long after its row's time a hop's line can be: far longer than a hop runs (the engine's budget, engine/limits.ts). */
const MAX_HOP_SPAN_MS = 10 * 60_000;
/** How much later than its time a row can be written (the event writer held up by a database outage), and still be read. */
const LATE_ROW_MS = 86_400_000;
/** The earliest instant a Date holds. */
const EARLIEST_DATE_MS = -8.64e15;

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
  const conditions: SQL[] = [eq(appLogLines.appId, app.id), ...filterToOwnRuns(app, user, appLogLines.caller)];
  if (body.afterId !== undefined) {
    // The row's id bounds the read (its primary key); the line's id picks up within a row a limit cut.
    conditions.push(gte(appLogLines.rowId, Math.floor(body.afterId / LINE_ID_SCALE)), gt(appLogLines.id, body.afterId));
    // The last line's time, which the panel sends too, bounds the rows' times a day back (a row written later than
    // its time by a writer held up): on PostgreSQL the read then plans those days' partitions, not a year's.
    if (body.timeStamp !== undefined && body.timeStamp !== '') {
      const from = toDate(body.timeStamp).getTime() - MAX_HOP_SPAN_MS - LATE_ROW_MS;
      conditions.push(gt(appLogLines.rowCreatedAt, new Date(Math.max(from, EARLIEST_DATE_MS))));
    }
  } else {
    // A line is at most a hop's length after its row's time (the row's index serves the range).
    const after = toDate(body.timeStamp);
    const rowsFrom = new Date(Math.max(after.getTime() - MAX_HOP_SPAN_MS, EARLIEST_DATE_MS));
    conditions.push(gt(appLogLines.rowCreatedAt, rowsFrom), gt(appLogLines.createdAt, after));
  }
  if (body.sessionId) conditions.push(eq(appLogLines.sessionId, body.sessionId));
  const rows = await ctx.db
    .select()
    .from(appLogLines)
    .where(and(...conditions))
    .orderBy(asc(appLogLines.id))
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
  const conditions: SQL[] = [eq(appLogLines.appId, app.id)];
  if (body.filterByLevel && body.level) conditions.push(eq(appLogLines.level, body.level));
  if (body.filterByPlugin && body.plugin) conditions.push(eq(appLogLines.plugin, body.plugin));
  if (body.filterByMenu && body.menuId) conditions.push(eq(appLogLines.menuId, body.menuId));
  // Newest rows first by the row's (app, time) index, so the limit keeps the latest lines.
  const rows = await ctx.db
    .select()
    .from(appLogLines)
    .where(and(...conditions))
    .orderBy(desc(appLogLines.rowCreatedAt), desc(appLogLines.id))
    .limit(SEARCH_LIMIT);
  // Then in the order they happened, by the line's time (its id breaks a tie).
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  return rows.map((r) => ({
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
  // The lines go; the inputs hops' rows hold stay for the debugger's User Inputs, as inputs always outlived a clear.
  const lines = await ctx.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(appLogs)
      .where(and(eq(appLogs.appId, app.id), isNull(appLogs.inputs)))
      .returning({ lines: countLines(appLogs) });
    const ofKept = and(eq(appLogs.appId, app.id), isNotNull(appLogs.inputs), sql`${appLogs.lines} <> '[]'::jsonb`);
    const [kept] = await tx
      .select({ lines: sql<number>`coalesce(sum(${countLines(appLogs)}), 0)`.mapWith(Number) })
      .from(appLogs)
      .where(ofKept);
    await tx.update(appLogs).set({ lines: [] }).where(ofKept);
    return deleted.reduce((sum, row) => sum + row.lines, kept?.lines ?? 0);
  });
  await recordChangeByAdmin(ctx.db, user, app.userId, 'app_logs_cleared', app.id, { lines });
  return lines;
}

export async function findUserInputs(ctx: AppContext, user: AuthUser, appId: string, sessionId: string) {
  const app = await getMonitoredApp(ctx, user, appId, sessionId);
  const rows = await findInputsGiven(ctx.db, app.id, [sessionId], app.isTemplate ? getUserCaller(user.id) : undefined);
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
    .select({
      type: appLogLines.type,
      menuId: appLogLines.menuId,
      menu: appLogLines.menu,
      data: appLogLines.data,
      createdAt: appLogLines.createdAt,
    })
    .from(appLogLines)
    .where(
      and(
        eq(appLogLines.appId, app.id),
        eq(appLogLines.sessionId, sessionId),
        inArray(appLogLines.type, ['menu_shown', 'navigated', 'session_ended']),
        ...filterToOwnRuns(app, user, appLogLines.caller),
      ),
    )
    .orderBy(asc(appLogLines.id))
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
