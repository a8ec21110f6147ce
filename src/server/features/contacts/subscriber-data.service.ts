/**
 * A number's subscriber data on request (docs/security.md, "Subscriber data"): what one account (or, for an admin,
 * every account) keeps about one phone number across its apps and bots, counted per kind, exported as one JSON
 * file (read a page at a time, so a number with a million sessions never sits in memory), and erased by a job that
 * writes a bounded batch per transaction with its progress, then records who erased it, why and how many rows.
 */
import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, asc, count, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  actionResults,
  appLogLines,
  appLogs,
  apps,
  campaignMessages,
  contacts,
  inboxConversations,
  inboxMessages,
  mediaFiles,
  sessionInputs,
  sessionRecords,
  smsMessages,
  smsReplies,
  subscriberErasures,
  transactions,
  webhookDeliveries,
  whatsappFirstMessages,
  whatsappMessages,
  whatsappWindows,
} from '../../../db/schema';
import {
  emptySubscriberDataCounts,
  SUBSCRIBER_DATA_KINDS,
  SUBSCRIBER_DATA_MESSAGES,
  SUBSCRIBER_ERASURE_BATCH,
  type SubscriberDataBody,
  type SubscriberDataCounts,
  type SubscriberDataSummary,
  type SubscriberErasure,
  type SubscriberErasureBody,
} from '../../../shared/api/subscriber-data.schema';
import { conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import type { AppContext } from '../../context';
import { recordAdminAction } from '../../core/audit-log';
import type { AuthUser } from '../../core/auth-user';
import { toE164 } from '../../core/msisdn';
import { isUniqueViolation } from '../../core/unique-violation';
import { deleteErasedMedia, toMediaRef, withSignedUrl } from '../media/media.service';
import type { Runtime } from '../runtime/runtime.service';
import { EXPORT_LINK_TTL_SECONDS } from '../sessions/sessions.service';
import { countInputs, countLines, findInputsWhere } from '../../core/log-rows';
import { appsOf, ERASURE_STEPS, type ErasureStep, subscriberRowsOf, type SubscriberTarget, toSubscriberTarget } from './subscriber-erasure';

/** Whose data a call reaches: the signed-in account's (`ownerId`), or every account's (null: an admin's). */
export interface SubscriberScope {
  ownerId: string | null;
}

/** What the runtime tells about sessions running now (the live-session check). */
export type LiveSessions = Pick<Runtime, 'findActiveSessions' | 'flushEvents'>;

/** The number as E.164, or a clear 400. */
function toSubscriberMsisdn(body: SubscriberDataBody): string {
  const msisdn = toE164(body.msisdn, body.country ?? null);
  if (!msisdn) throw invalid(SUBSCRIBER_DATA_MESSAGES.badNumber, { field: 'msisdn' });
  return msisdn;
}

/** `+233241234567` -> `+233•••••••67`: what the audit log and a finished erasure keep of the number. */
export const maskMsisdn = (msisdn: string) => `${msisdn.slice(0, 4)}${'•'.repeat(Math.max(0, msisdn.length - 6))}${msisdn.slice(-2)}`;

/** The number's sessions running now in the scope's apps (USSD and bots): every app's live sessions, read from the store. */
async function countLiveSessions(ctx: AppContext, runtime: LiveSessions, scope: SubscriberScope, msisdn: string): Promise<number> {
  const rows = await ctx.db
    .select({ id: apps.id, country: apps.country })
    .from(apps)
    .where(scope.ownerId === null ? undefined : eq(apps.userId, scope.ownerId));
  let live = 0;
  for (const app of rows) {
    const states = await runtime.findActiveSessions(app.id);
    live += states.filter((s) => s.msisdn === msisdn || toE164(s.msisdn, app.country) === msisdn).length;
  }
  return live;
}

/** Rows of `table` the condition finds. */
const countRows = async (ctx: AppContext, table: PgTable, condition: SQL) =>
  Number((await ctx.db.select({ n: count() }).from(table).where(condition))[0]?.n ?? 0);

/** Rows of a per-session table (inputs, action results, log lines) that belong to the number's sessions. */
const ofNumberSessions = (table: { appId: PgColumn; sessionId: PgColumn }, sessions: SQL) =>
  sql`exists (select 1 from ${sessionRecords} where ${sessionRecords.appId} = ${table.appId} and ${sessionRecords.sessionId} = ${table.sessionId} and ${sessions})`;

/** What is kept about the number in the scope, counted per kind, and its sessions running now. */
export async function getSubscriberDataSummary(
  ctx: AppContext,
  runtime: LiveSessions,
  scope: SubscriberScope,
  body: SubscriberDataBody,
): Promise<SubscriberDataSummary> {
  const msisdn = toSubscriberMsisdn(body);
  const rows = subscriberRowsOf({ ownerId: scope.ownerId, msisdn });
  const tables: Record<Exclude<keyof SubscriberDataCounts, 'inputs' | 'actionResults' | 'logs'>, PgTable> = {
    contacts,
    sessions: sessionRecords,
    sms: smsMessages,
    smsReplies,
    whatsappMessages,
    firstMessages: whatsappFirstMessages,
    windows: whatsappWindows,
    inboxConversations,
    campaignMessages,
    media: mediaFiles,
    payments: transactions,
    webhookEvents: webhookDeliveries,
  };
  const counts = emptySubscriberDataCounts();
  for (const [kind, table] of Object.entries(tables))
    counts[kind as keyof typeof tables] = await countRows(ctx, table, rows[kind as keyof typeof tables]);
  // Inputs: rows of the old layout and those hops' rows hold; log lines: a hop's row counts its lines.
  const [hops] = await ctx.db
    .select({
      inputs: sql<number>`coalesce(sum(${countInputs(appLogs)}), 0)`.mapWith(Number),
      lines: sql<number>`coalesce(sum(${countLines(appLogs)}), 0)`.mapWith(Number),
    })
    .from(appLogs)
    .where(ofNumberSessions(appLogs, rows.sessions));
  counts.inputs = (await countRows(ctx, sessionInputs, ofNumberSessions(sessionInputs, rows.sessions))) + (hops?.inputs ?? 0);
  counts.actionResults = await countRows(ctx, actionResults, ofNumberSessions(actionResults, rows.sessions));
  counts.logs = hops?.lines ?? 0;
  return { msisdn, counts, liveSessions: await countLiveSessions(ctx, runtime, scope, msisdn) };
}

// ---------------------------------------------------------------------------------------------------------------
// Export

/** Rows the export reads at a time, per kind. */
const EXPORT_PAGE = 200;

const toTime = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Every row `condition` finds in `table`, a page at a time in key order (keyset on `key`, so memory stays flat
 * however many there are), each page turned into the file's objects by `toEntries`.
 */
async function* pagesOf<Row extends Record<string, unknown>, Key extends string | number>(
  ctx: AppContext,
  table: PgTable,
  key: PgColumn,
  condition: SQL,
  keyOf: (row: Row) => Key,
  toEntries: (rows: Row[]) => Promise<unknown[]> | unknown[],
): AsyncGenerator<unknown[]> {
  let after: Key | undefined;
  for (;;) {
    const rows = (await ctx.db
      .select()
      .from(table)
      .where(after === undefined ? condition : and(condition, gt(key, after)))
      .orderBy(asc(key))
      .limit(EXPORT_PAGE)) as Row[];
    if (rows.length === 0) return;
    yield await toEntries(rows);
    if (rows.length < EXPORT_PAGE) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** A JSON array written a page at a time: `"name": [ ... ]`. */
async function* jsonArray(name: string, pages: AsyncGenerator<unknown[]>, isFirst = false): AsyncGenerator<string> {
  yield `${isFirst ? '' : ',\n'}${JSON.stringify(name)}: [`;
  let written = 0;
  for await (const page of pages) {
    if (page.length === 0) continue;
    yield (written > 0 ? ',\n' : '\n') + page.map((entry) => JSON.stringify(entry)).join(',\n');
    written += page.length;
  }
  yield written > 0 ? '\n]' : ']';
}

type SessionRow = typeof sessionRecords.$inferSelect;
type MediaRow = typeof mediaFiles.$inferSelect;

/** A file's record as the export shows it: a signed link good for EXPORT_LINK_TTL_SECONDS while its bytes are kept. */
function toExportedFile(ctx: AppContext, row: MediaRow) {
  const ref = toMediaRef(row);
  return {
    ...(row.deletedAt ? ref : withSignedUrl(ctx, ref, EXPORT_LINK_TTL_SECONDS)),
    appId: row.appId,
    source: row.source,
    receivedAt: row.createdAt.toISOString(),
    bytesDeletedAt: toTime(row.deletedAt),
  };
}

/** A page of sessions with what each kept: its inputs as given, its action results and its log lines, in order. */
async function toExportedSessions(ctx: AppContext, rows: SessionRow[], appNames: Map<string, string>) {
  const keys = rows.map((r) => sql`(${r.appId}, ${r.sessionId})`);
  const ofPage = (table: { appId: PgColumn; sessionId: PgColumn }) =>
    sql`(${table.appId}, ${table.sessionId}) in (${sql.join(keys, sql`, `)})`;
  const [inputs, results, logs] = await Promise.all([
    findInputsWhere(ctx.db, { inputs: ofPage(sessionInputs), hops: ofPage(appLogs) }),
    ctx.db.select().from(actionResults).where(ofPage(actionResults)).orderBy(asc(actionResults.id)),
    ctx.db.select().from(appLogLines).where(ofPage(appLogLines)).orderBy(asc(appLogLines.id)),
  ]);
  const bySession = <T extends { appId: string; sessionId: string }>(list: T[]) => {
    const map = new Map<string, T[]>();
    for (const item of list) {
      const key = `${item.appId}\n${item.sessionId}`;
      const list = map.get(key);
      if (list) list.push(item);
      else map.set(key, [item]);
    }
    return (r: SessionRow) => map.get(`${r.appId}\n${r.sessionId}`) ?? [];
  };
  const inputsOf = bySession(inputs);
  const resultsOf = bySession(results);
  const logsOf = bySession(logs);
  return rows.map((r) => ({
    appId: r.appId,
    appName: appNames.get(r.appId) ?? null,
    sessionId: r.sessionId,
    environment: r.environment,
    gateway: r.gateway,
    mobile: r.mobile,
    network: r.network,
    serviceCode: r.serviceCode,
    status: r.status,
    endCause: r.endCause ?? null,
    lastMenu: r.lastMenu,
    hopCount: r.hopCount,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt.toISOString(),
    inputs: r.inputs,
    media: r.media,
    inputsGiven: inputsOf(r).map((i) => ({ field: i.fieldName, value: i.fieldValue, at: i.createdAt.toISOString() })),
    actionResults: resultsOf(r).map((a) => ({
      action: a.actionName,
      menu: a.menuName,
      plugin: a.plugin,
      isOk: a.isOk === 1,
      result: a.result,
      at: a.createdAt.toISOString(),
    })),
    logs: logsOf(r).map((l) => ({
      level: l.level,
      type: l.type,
      menu: l.menu,
      message: l.message,
      data: l.data,
      at: l.createdAt.toISOString(),
    })),
  }));
}

/**
 * Everything the scope keeps about the number, as one JSON document written a page at a time: its contacts, its
 * sessions (each with its inputs, action results and log lines), the SMS and WhatsApp messages, inbox
 * conversations with their messages, campaign messages, files (signed links good for EXPORT_LINK_TTL_SECONDS),
 * payments and webhook events. The export is recorded in the audit log (who, the masked number, the scope) before
 * the file's first byte; a bad number is refused before it.
 */
export async function* exportSubscriberData(
  ctx: AppContext,
  actor: AuthUser,
  scope: SubscriberScope,
  body: SubscriberDataBody,
): AsyncGenerator<string> {
  const msisdn = toSubscriberMsisdn(body);
  const rows = subscriberRowsOf({ ownerId: scope.ownerId, msisdn });
  await recordAdminAction(ctx.db, actor, 'subscriber_data_exported', scope.ownerId ?? 'platform', {
    msisdn: maskMsisdn(msisdn),
    scope: scope.ownerId === null ? 'platform' : 'account',
  });
  const appRows = await ctx.db
    .select({ id: apps.id, name: apps.appName })
    .from(apps)
    .where(sql`${apps.id} in (${appsOf(scope)})`);
  const appNames = new Map(appRows.map((a) => [a.id, a.name]));
  const now = ctx.now();
  yield `{\n"msisdn": ${JSON.stringify(msisdn)},\n"exportedAt": ${JSON.stringify(now.toISOString())},\n"scope": ${JSON.stringify(
    scope.ownerId === null ? 'platform' : 'account',
  )},\n"linksValidUntil": ${JSON.stringify(new Date(now.getTime() + EXPORT_LINK_TTL_SECONDS * 1000).toISOString())},\n`;
  const byId = (r: { id: string }) => r.id;
  const bySerial = (r: { id: number }) => r.id;
  const same = <T>(list: T[]) => list;
  yield* jsonArray('contacts', pagesOf(ctx, contacts, contacts.id, rows.contacts, byId, same), true);
  yield* jsonArray(
    'sessions',
    pagesOf(ctx, sessionRecords, sessionRecords.id, rows.sessions, bySerial, (page: SessionRow[]) =>
      toExportedSessions(ctx, page, appNames),
    ),
  );
  yield* jsonArray('sms', pagesOf(ctx, smsMessages, smsMessages.id, rows.sms, byId, same));
  yield* jsonArray('smsReplies', pagesOf(ctx, smsReplies, smsReplies.id, rows.smsReplies, byId, same));
  yield* jsonArray('whatsappMessages', pagesOf(ctx, whatsappMessages, whatsappMessages.id, rows.whatsappMessages, bySerial, same));
  yield* jsonArray('firstMessages', pagesOf(ctx, whatsappFirstMessages, whatsappFirstMessages.id, rows.firstMessages, byId, same));
  yield* jsonArray(
    'windows',
    pagesOf(ctx, whatsappWindows, whatsappWindows.linkId, rows.windows, (r: { linkId: string }) => r.linkId, same),
  );
  yield* jsonArray(
    'inboxConversations',
    pagesOf(ctx, inboxConversations, inboxConversations.id, rows.inboxConversations, byId, async (page: Array<{ id: string }>) => {
      const messages = await ctx.db
        .select()
        .from(inboxMessages)
        .where(
          inArray(
            inboxMessages.conversationId,
            page.map((c) => c.id),
          ),
        )
        .orderBy(asc(inboxMessages.seq));
      return page.map((c) => ({ ...c, messages: messages.filter((m) => m.conversationId === c.id) }));
    }),
  );
  yield* jsonArray('campaignMessages', pagesOf(ctx, campaignMessages, campaignMessages.id, rows.campaignMessages, byId, same));
  yield* jsonArray(
    'media',
    pagesOf(ctx, mediaFiles, mediaFiles.id, rows.media, byId, (page: MediaRow[]) => page.map((row) => toExportedFile(ctx, row))),
  );
  yield* jsonArray('payments', pagesOf(ctx, transactions, transactions.id, rows.payments, byId, same));
  yield* jsonArray('webhookEvents', pagesOf(ctx, webhookDeliveries, webhookDeliveries.id, rows.webhookEvents, byId, same));
  yield '\n}\n';
}

// ---------------------------------------------------------------------------------------------------------------
// Erasure

/** A running erasure not heard of for this long stopped with its server: the next look at it carries it on. */
const STALE_MS = 2 * 60_000;

type ErasureRow = typeof subscriberErasures.$inferSelect;

const isStale = (row: ErasureRow, now: Date) => row.status === 'running' && row.updatedAt.getTime() < now.getTime() - STALE_MS;

function toSubscriberErasure(row: ErasureRow): SubscriberErasure {
  return {
    erasureId: row.id,
    status: row.status as SubscriberErasure['status'],
    msisdn: row.status === 'running' ? maskMsisdn(row.msisdn) : row.msisdn,
    reason: row.reason,
    batches: row.batches,
    counts: { ...emptySubscriberDataCounts(), ...row.counts },
    failure: row.failure,
    startedAt: row.startedAt.toISOString(),
    finishedAt: toTime(row.finishedAt),
  };
}

/**
 * Starts erasing the number's subscriber data in the scope, and answers the job the console polls. Refused, with
 * nothing erased: a bad number (400), a session of the number running now (409: its record, written when it
 * ends, would carry what it was given), an erasure of the same number already running (409). This process's
 * buffered session records are written first, so a session that just ended is erased too.
 */
export async function startSubscriberErasure(
  ctx: AppContext,
  runtime: LiveSessions,
  actor: AuthUser,
  scope: SubscriberScope,
  body: SubscriberErasureBody,
): Promise<SubscriberErasure> {
  const msisdn = toSubscriberMsisdn(body);
  await runtime.flushEvents();
  if ((await countLiveSessions(ctx, runtime, scope, msisdn)) > 0) throw conflict(SUBSCRIBER_DATA_MESSAGES.liveSession);
  const target = toSubscriberTarget(scope.ownerId, msisdn);
  const now = ctx.now();
  let row: ErasureRow | undefined;
  try {
    [row] = await ctx.db
      .insert(subscriberErasures)
      .values({
        ownerId: scope.ownerId,
        actorId: actor.id,
        actorEmail: actor.email,
        msisdn,
        anonymous: target.anonymous,
        reason: body.reason,
        counts: emptySubscriberDataCounts(),
        startedAt: now,
        updatedAt: now,
      })
      .returning();
  } catch (err) {
    if (!isUniqueViolation(err, 'subscriber_erasures_running_idx')) throw err;
    // The number's erasure is running already: one whose server stopped is carried on here (and answered), one
    // still going is refused.
    const [running] = await ctx.db
      .select()
      .from(subscriberErasures)
      .where(and(ofScope(scope), eq(subscriberErasures.msisdn, msisdn), eq(subscriberErasures.status, 'running')));
    const resumed = running ? await resumeIfStale(ctx, running) : null;
    if (!resumed) throw conflict(SUBSCRIBER_DATA_MESSAGES.running);
    return toSubscriberErasure(resumed);
  }
  startInBackground(ctx, row!);
  return toSubscriberErasure(row!);
}

const ofScope = (scope: SubscriberScope) =>
  scope.ownerId === null ? isNull(subscriberErasures.ownerId) : eq(subscriberErasures.ownerId, scope.ownerId);

/**
 * Carries on a running erasure whose server stopped (no batch for STALE_MS) in this process, where it was: every
 * step finds what is left by the number, so nothing is erased twice or missed. Claimed by one caller only (the
 * row's time moves, so a second look finds it fresh); null when it is not stale or another caller took it.
 */
async function resumeIfStale(ctx: AppContext, row: ErasureRow): Promise<ErasureRow | null> {
  if (!isStale(row, ctx.now())) return null;
  const [claimed] = await ctx.db
    .update(subscriberErasures)
    .set({ updatedAt: ctx.now() })
    .where(and(eq(subscriberErasures.id, row.id), eq(subscriberErasures.updatedAt, row.updatedAt)))
    .returning();
  if (!claimed) return null;
  startInBackground(ctx, claimed);
  return claimed;
}

/**
 * An erasure of the scope (another account's, or an account's seen through the platform's routes, is 404). A
 * running one whose server stopped is carried on by this look at it (resumeIfStale).
 */
export async function getSubscriberErasure(ctx: AppContext, scope: SubscriberScope, erasureId: string): Promise<SubscriberErasure> {
  const [row] = isUuid(erasureId)
    ? await ctx.db
        .select()
        .from(subscriberErasures)
        .where(and(eq(subscriberErasures.id, erasureId), ofScope(scope)))
    : [];
  if (!row) throw notFound(SUBSCRIBER_DATA_MESSAGES.notFound);
  return toSubscriberErasure((await resumeIfStale(ctx, row)) ?? row);
}

/** The erasures running in this process (tests wait for them). */
const runningErasures = new Set<Promise<void>>();

/** Resolves when every erasure running in this process has finished. */
export async function waitForSubscriberErasures(): Promise<void> {
  while (runningErasures.size > 0) await Promise.all([...runningErasures]);
}

function startInBackground(ctx: AppContext, row: ErasureRow): void {
  const run = runErasure(ctx, row).catch(async (err: unknown) => {
    ctx.log.error({ err, erasureId: row.id }, 'subscriber data erasure failed');
    await ctx.db
      .update(subscriberErasures)
      .set({
        status: 'failed',
        msisdn: maskMsisdn(row.msisdn),
        failure: `The erasure stopped: ${toErrorMessage(err)}. Start it again to finish`,
        updatedAt: ctx.now(),
      })
      .where(eq(subscriberErasures.id, row.id))
      .catch((error: unknown) => ctx.log.error({ err: error, erasureId: row.id }, 'could not record the erasure as failed'));
  });
  runningErasures.add(run);
  void run.finally(() => runningErasures.delete(run));
}

/**
 * Runs every step a batch at a time (SUBSCRIBER_ERASURE_BATCH rows, one transaction each, with the job's counts),
 * yielding between batches so other requests run; the bytes of erased files go after each batch commits. Rows a
 * step finds while it runs (a session that ended meanwhile) are erased too: a step ends only when a batch finds
 * fewer than its limit. Then a second pass, SUBSCRIBER_ERASURE_SETTLE_MS later, each step from where it stopped:
 * a session of the number that ended on another process just before the erasure began may still be in that
 * process's event buffer (written within a quarter of a second while the database takes writes). Then, in one
 * transaction, the job is done (its number masked) and the audit log says who erased it, why and how many rows of
 * each kind.
 */
async function runErasure(ctx: AppContext, row: ErasureRow, batch = SUBSCRIBER_ERASURE_BATCH): Promise<void> {
  const target: SubscriberTarget = { ownerId: row.ownerId, msisdn: row.msisdn, anonymous: row.anonymous };
  const counts: SubscriberDataCounts = { ...emptySubscriberDataCounts(), ...row.counts };
  let batches = row.batches;
  /** Where each step stopped (the last row id it took, for the steps that walk a table in id order). */
  const cursors = new Map<ErasureStep, number | undefined>();
  for (const pass of [1, 2]) {
    if (pass === 2) await sleep(ctx.config.SUBSCRIBER_ERASURE_SETTLE_MS);
    for (const step of ERASURE_STEPS) {
      for (;;) {
        const erased = await ctx.db.transaction(async (tx) => {
          const result = await step.erase(tx, ctx.now(), target, batch, cursors.get(step));
          for (const [kind, n] of Object.entries(result.counts)) counts[kind as keyof SubscriberDataCounts] += n;
          batches++;
          await tx
            .update(subscriberErasures)
            .set({ counts, batches, updatedAt: ctx.now() })
            .where(and(eq(subscriberErasures.id, row.id), eq(subscriberErasures.status, 'running')));
          return result;
        });
        await deleteErasedMedia(ctx, erased.storageKeys);
        cursors.set(step, erased.after);
        await yieldToEventLoop();
        if (erased.found < batch) break;
      }
    }
  }
  await ctx.db.transaction(async (tx) => {
    const at = ctx.now();
    await tx
      .update(subscriberErasures)
      .set({ status: 'done', msisdn: maskMsisdn(row.msisdn), counts, batches, updatedAt: at, finishedAt: at })
      .where(eq(subscriberErasures.id, row.id));
    await recordAdminAction(tx, { id: row.actorId, email: row.actorEmail }, 'subscriber_data_erased', row.id, {
      msisdn: maskMsisdn(row.msisdn),
      scope: row.ownerId === null ? 'platform' : 'account',
      ...(row.ownerId ? { ownerId: row.ownerId } : {}),
      reason: row.reason,
      counts: Object.fromEntries(SUBSCRIBER_DATA_KINDS.map((kind) => [kind, counts[kind]])),
    });
  });
}
