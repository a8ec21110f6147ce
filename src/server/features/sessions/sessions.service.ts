import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import { mediaFiles, sessionRecords } from '../../../db/schema';
import type { SearchBody, SessionMedia } from '../../../shared/api/monitoring.schema';
import type { LocationRef, MediaRef } from '../../../shared/media';
import { toMediaRef, withSignedUrl } from '../media/media.service';
import { invalid } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getMonitoredApp } from '../../core/app-access';
import { toCsvLine, toXmlCell } from '../../../shared/table-file';
import { describeNetwork } from '../../../shared/mobile-networks';
import { getSessionSource, SESSION_SOURCE_LABELS } from '../../../shared/session-source';
import type { EndCause } from '../../../shared/session-ends';

const LIST_LIMIT = 1000;
/** The sessions lists look this far back first (findSessions). */
const RECENT_LIST_MS = 7 * 86_400_000;
export const SEARCH_LIMIT = 5000;

type SessionRecordRow = typeof sessionRecords.$inferSelect;

/** How long an exported file's links to media work: the file is read outside the console, later than a page is. */
export const EXPORT_LINK_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * The files and locations of `rows`' sessions as the console shows them: each file read again from the store's
 * records of the app owner's account (another account's id, in a forged or imported record, gets no link) and
 * given a fresh signed link unless its bytes were deleted (retention, erasure). Answers a lookup by record.
 */
async function signSessionMedia(
  ctx: AppContext,
  ownerId: string,
  rows: readonly SessionRecordRow[],
  ttlSeconds = ctx.config.MEDIA_URL_TTL_SECONDS,
): Promise<(row: SessionRecordRow) => SessionMedia | undefined> {
  const stored = (row: SessionRecordRow) => (row.media ?? {}) as Record<string, MediaRef | LocationRef>;
  const ids = [
    ...new Set(rows.flatMap((row) => Object.values(stored(row)).flatMap((m) => ('mediaId' in m && isUuid(m.mediaId) ? [m.mediaId] : [])))),
  ];
  const files =
    ids.length === 0
      ? []
      : await ctx.db
          .select()
          .from(mediaFiles)
          .where(and(eq(mediaFiles.ownerId, ownerId), inArray(mediaFiles.id, ids)));
  const held = new Map(files.map((file) => [file.id, file]));
  // The caption sent with the file in the chat is the session's; an erased file keeps none of what it was.
  const toShown = (stored: MediaRef): MediaRef => {
    const file = held.get(stored.mediaId);
    const { url: _expired, ...unsigned } = stored;
    if (!file) return unsigned;
    if (file.deletedAt) return toMediaRef(file);
    const ref = toMediaRef(file);
    return withSignedUrl(ctx, stored.caption ? { ...ref, caption: stored.caption } : ref, ttlSeconds);
  };
  return (row) => {
    if (!row.media) return undefined;
    return Object.fromEntries(
      Object.entries(stored(row)).map(([identifier, received]) => {
        return [identifier, 'mediaId' in received ? toShown(received) : received];
      }),
    );
  };
}

function toSessionRow(r: SessionRecordRow, media?: SessionMedia) {
  return {
    id: r.id,
    sessionId: r.sessionId,
    mobile: r.mobile,
    network: r.network,
    createdAt: r.endedAt.toISOString(),
    inputs: r.inputs as Record<string, string>,
    ...(media ? { media } : {}),
    lastMenu: r.lastMenu,
    status: r.status,
    endCause: r.endCause ?? null,
    gatewayDurationMs: r.gatewayDurationMs,
    gatewayCost: r.gatewayCost,
    gatewayWords: r.gatewayWords,
    environment: r.environment,
    gateway: r.gateway,
  };
}

/**
 * Completed (the app ended them) or abandoned (timed out, released by the gateway) sessions, newest first; of one
 * end cause only when `cause` is given (records kept from before causes have none, so never match one).
 */
export async function findSessions(ctx: AppContext, user: AuthUser, appId: string, status: 'completed' | 'abandoned', cause?: EndCause) {
  const app = await getMonitoredApp(ctx, user, appId);
  const newest = (since?: Date) =>
    ctx.db
      .select()
      .from(sessionRecords)
      .where(
        and(
          eq(sessionRecords.appId, app.id),
          eq(sessionRecords.status, status),
          cause ? eq(sessionRecords.endCause, cause) : undefined,
          since ? gte(sessionRecords.endedAt, since) : undefined,
        ),
      )
      .orderBy(desc(sessionRecords.endedAt))
      .limit(LIST_LIMIT);
  // The last week first: when it holds a whole list, those are the newest, and on PostgreSQL the read plans that
  // week's day partitions rather than a year's (docs/operations.md, "Day partitions on PostgreSQL"); else all.
  const recent = await newest(new Date(ctx.now().getTime() - RECENT_LIST_MS));
  const rows = recent.length === LIST_LIMIT ? recent : await newest();
  const mediaOf = await signSessionMedia(ctx, app.userId, rows);
  return rows.map((r) => toSessionRow(r, mediaOf(r)));
}

function parseDate(value: string, endOfDay: boolean): Date {
  // A date without a time (the picker's) covers the whole day.
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${endOfDay ? '23:59:59.999' : '00:00:00'}Z` : value);
  if (Number.isNaN(date.getTime())) throw invalid('Please select a date range');
  return date;
}

/** The search's conditions: the app, and a date range or a word in the mobile number or any input. */
function getSearchConditions(appId: string, body: SearchBody): SQL[] {
  const conditions: SQL[] = [eq(sessionRecords.appId, appId)];
  if (body.searchBy === 'date') {
    conditions.push(
      gte(sessionRecords.endedAt, parseDate(body.startDate, false)),
      lte(sessionRecords.endedAt, parseDate(body.endDate, true)),
    );
  } else {
    const pattern = `%${body.searchQuery.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // The same expression as the trigram index (migration 0004), so the index answers it.
    conditions.push(sql`(${sessionRecords.mobile} || ' ' || ${sessionRecords.inputs}::text) ilike ${pattern}`);
  }
  return conditions;
}

/**
 * The columns a flat search and an exported file start with, before one column per input: the network as
 * people name it, then the code the gateway sent (empty when it sent a name), and where the session came from.
 */
const BASE_COLUMNS = ['mobile', 'network', 'networkCode', 'date', 'source'] as const;
const isBaseColumn = (name: string) => (BASE_COLUMNS as readonly string[]).includes(name);

/**
 * A session as one row of a flat table: the base columns, then each input (empty when the session has none). A
 * file's input is its signed link where `media` gives one (an export), else its media id.
 */
function toFlatCells(r: SessionRecordRow, inputNames: string[], media?: SessionMedia): string[] {
  const inputs = r.inputs as Record<string, string>;
  const linkOf = (name: string) => {
    const received = media?.[name];
    return received && 'mediaId' in received ? received.url : undefined;
  };
  const network = describeNetwork(r.network);
  return [
    r.mobile,
    network.name,
    network.code,
    r.endedAt.toISOString(),
    SESSION_SOURCE_LABELS[getSessionSource(r.environment, r.gateway)],
    ...inputNames.map((name) => linkOf(name) ?? String(inputs[name] ?? '')),
  ];
}

/** Finished sessions by date range or by a word in the mobile number or any input. */
export async function searchSessions(ctx: AppContext, user: AuthUser, body: SearchBody) {
  const app = await getMonitoredApp(ctx, user, body.appId);
  const conditions = getSearchConditions(app.id, body);
  const rows = await ctx.db
    .select()
    .from(sessionRecords)
    .where(and(...conditions))
    .orderBy(desc(sessionRecords.endedAt))
    .limit(SEARCH_LIMIT);
  if (!body.flatResults) {
    const mediaOf = await signSessionMedia(ctx, app.userId, rows);
    return rows.map((r) => ({
      mobile: r.mobile,
      network: r.network,
      date: r.endedAt.toISOString(),
      inputs: r.inputs as Record<string, string>,
      ...(r.media ? { media: mediaOf(r) } : {}),
      environment: r.environment,
      gateway: r.gateway,
    }));
  }
  const inputNames = [...new Set(rows.flatMap((r) => Object.keys(r.inputs as Record<string, string>)))]
    .filter((n) => !isBaseColumn(n))
    .sort();
  const mediaOf = await signSessionMedia(ctx, app.userId, rows);
  return {
    headers: [...BASE_COLUMNS, ...inputNames],
    rows: rows.map((r) => {
      const cells = toFlatCells(r, inputNames, mediaOf(r));
      return Object.fromEntries([...BASE_COLUMNS, ...inputNames].map((column, i) => [column, cells[i]!]));
    }),
  };
}

const EXPORT_PAGE = 2000;

/**
 * Every session the search matches (no 5,000 cap), as CSV or an Excel 2003 XML workbook, produced page by page
 * (keyset on id) so memory stays flat however many rows there are. Columns: those of a flat search (BASE_COLUMNS,
 * then every input name found in the matching sessions).
 */
export async function* exportSessions(ctx: AppContext, user: AuthUser, body: SearchBody, format: 'csv' | 'xls'): AsyncGenerator<string> {
  const app = await getMonitoredApp(ctx, user, body.appId);
  const conditions = getSearchConditions(app.id, body);
  const keys = await ctx.db.execute(
    sql`select distinct jsonb_object_keys(${sessionRecords.inputs}) as key from ${sessionRecords} where ${and(...conditions)} order by 1`,
  );
  // PGlite and node-postgres both answer { rows }.
  const inputNames = (keys as unknown as { rows: Array<{ key: string }> }).rows.map((r) => r.key).filter((k) => !isBaseColumn(k));
  const headers = [...BASE_COLUMNS, ...inputNames];
  const line = (cells: string[]) => (format === 'csv' ? toCsvLine(cells) : `<Row>${cells.map(toXmlCell).join('')}</Row>\n`);

  yield format === 'csv'
    ? '\uFEFF'
    : '<?xml version="1.0" encoding="UTF-8"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">\n<Worksheet ss:Name="Sessions"><Table>\n';
  yield line(headers);
  let lastId: number | undefined;
  for (;;) {
    const where = lastId === undefined ? and(...conditions) : and(...conditions, lt(sessionRecords.id, lastId));
    const rows = await ctx.db.select().from(sessionRecords).where(where).orderBy(desc(sessionRecords.id)).limit(EXPORT_PAGE);
    if (rows.length === 0) break;
    // A file's cell is a signed link that outlives the console's (EXPORT_LINK_TTL_SECONDS): docs/media.md, "In the console".
    const mediaOf = await signSessionMedia(ctx, app.userId, rows, EXPORT_LINK_TTL_SECONDS);
    let chunk = '';
    for (const r of rows) chunk += line(toFlatCells(r, inputNames, mediaOf(r)));
    yield chunk;
    lastId = rows[rows.length - 1]!.id;
    if (rows.length < EXPORT_PAGE) break;
  }
  if (format === 'xls') yield '</Table></Worksheet>\n</Workbook>\n';
}
