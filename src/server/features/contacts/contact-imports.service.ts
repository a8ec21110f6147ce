/**
 * CSV import of an account's contacts (docs/contacts.md, "Importing a CSV"): a preview that writes nothing, then
 * a job that reads the file a row at a time and upserts its contacts in batches, yielding between batches so one
 * account's large import does not hold up others' requests. One import runs at a time per account.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { isUuid } from '../../../shared/ids';
import { type Db, isDataRefusal } from '../../../db/client';
import { contactImports } from '../../../db/schema';
import {
  CONTACT_IMPORT_LIMITS,
  CONTACT_IMPORT_MESSAGES,
  type ContactImport,
  type ContactImportBody,
  type ContactImportPreview,
  type ContactImportPreviewBody,
  type ImportRowError,
} from '../../../shared/api/contact-imports.schema';
import type { ContactConsentMap } from '../../../shared/contact-consent';
import { conflict, invalid, notFound, toErrorMessage } from '../../../shared/errors';
import { toCsvLine } from '../../../shared/table-file';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { type ImportRow, openImportFile } from './contact-import-file';
import { isUniqueViolation } from '../../core/unique-violation';

/** Rows upserted in one statement. */
const BATCH_ROWS = 1000;
/** A running import not heard of for this long stopped with its server; a new import may start. */
const STALE_MS = 10 * 60_000;

type ImportRecord = typeof contactImports.$inferSelect;

function toContactImport(r: ImportRecord): ContactImport {
  return {
    importId: r.id,
    status: r.status as ContactImport['status'],
    rowCount: r.rowCount,
    processed: r.processed,
    created: r.created,
    updated: r.updated,
    skipped: r.skipped,
    failure: r.failure,
    consentSource: r.consentSource,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

const toRowError = (r: ImportRow): ImportRowError => ({ row: r.row, value: r.value, message: r.errors.join('; ') });

/** The file's columns, its first rows as read and its first per-row errors; nothing is written. */
export function previewContactImport(body: ContactImportPreviewBody): ContactImportPreview {
  const file = openImportFile(body.csv, body.defaultCountry);
  const preview: ContactImportPreview = {
    columns: file.columns,
    rowCount: file.rowCount,
    errorCount: 0,
    hasConsent: file.hasConsent,
    rows: [],
    errors: [],
  };
  for (const row of file.rows()) {
    if (preview.rows.length < CONTACT_IMPORT_LIMITS.previewRows)
      preview.rows.push({ row: row.row, cells: row.cells, msisdn: row.msisdn, errors: row.errors });
    if (row.errors.length === 0) continue;
    preview.errorCount++;
    if (preview.errors.length < CONTACT_IMPORT_LIMITS.previewErrors) preview.errors.push(toRowError(row));
  }
  return preview;
}

/**
 * Starts importing the file: refuses a file that cannot be read whole (and changes nothing), a file with consent
 * columns but no consent source, and a second import while one runs; then answers the job, which the console
 * polls, and imports in the background.
 */
export async function startContactImport(ctx: AppContext, user: AuthUser, body: ContactImportBody): Promise<ContactImport> {
  const file = openImportFile(body.csv, body.defaultCountry);
  const columnErrors = file.columns.flatMap((c) => (c.error ? [c.error] : []));
  if (columnErrors.length > 0) throw invalid(`The file cannot be imported: ${columnErrors.join('; ')}`);
  const consentSource = body.consentSource || null;
  if (file.hasConsent && !consentSource) throw invalid(CONTACT_IMPORT_MESSAGES.consentSourceRequired, { field: 'consentSource' });

  const now = ctx.now();
  // An import left running by a server that stopped holds the account's slot no longer.
  await ctx.db
    .update(contactImports)
    .set({ status: 'failed', failure: 'The server stopped during the import', finishedAt: now })
    .where(
      and(
        eq(contactImports.ownerId, user.id),
        eq(contactImports.status, 'running'),
        lt(contactImports.updatedAt, new Date(now.getTime() - STALE_MS)),
      ),
    );
  let job: ImportRecord | undefined;
  try {
    [job] = await ctx.db
      .insert(contactImports)
      .values({ ownerId: user.id, rowCount: file.rowCount, consentSource, startedAt: now, updatedAt: now })
      .returning();
  } catch (err) {
    if (isRunningClash(err)) throw conflict(CONTACT_IMPORT_MESSAGES.running);
    throw err;
  }
  const started = job!;
  const tag = body.tag ? { key: body.tag.slice(0, body.tag.indexOf('=')), value: body.tag.slice(body.tag.indexOf('=') + 1) } : null;
  const rows = tag ? withTag(file.rows(), tag) : file.rows();
  const run = runImport(ctx, user.id, started.id, rows, consentSource).catch(async (err: unknown) => {
    ctx.log.error({ err, importId: started.id }, 'contact import failed');
    await markImportFailed(ctx, started.id, describeImportFailure(err));
  });
  runningImports.add(run);
  void run.finally(() => runningImports.delete(run));
  return toContactImport(started);
}

/**
 * Why an import stopped, in words for its page: the database's own words for a row it refused, else that the
 * database went away. Never the failed statement (Drizzle's message carries the batch's numbers as parameters).
 */
function describeImportFailure(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause !== undefined && !(cause as { code?: unknown }).code) cause = cause.cause;
  if (isDataRefusal(cause)) return `The import stopped: ${toErrorMessage(cause)}`;
  return `The import stopped: ${CONTACT_IMPORT_MESSAGES.databaseAway}`;
}

/** Waits before each new try at recording that an import failed (the database it failed on may be blinking). */
const MARK_FAILED_BACKOFF_MS = [0, 500, 2000, 5000, 15_000];

/**
 * Records that an import stopped, trying again while the database that stopped it is away. Never throws: when
 * every try fails the job stays `running` until it is stale (STALE_MS), and its process carries on.
 */
async function markImportFailed(ctx: AppContext, importId: string, failure: string): Promise<void> {
  for (const wait of MARK_FAILED_BACKOFF_MS) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      await ctx.db
        .update(contactImports)
        .set({ status: 'failed', failure, finishedAt: ctx.now(), updatedAt: ctx.now() })
        .where(eq(contactImports.id, importId));
      return;
    } catch (err) {
      ctx.log.warn({ err, importId }, 'could not record the contact import as failed; trying again');
    }
  }
  ctx.log.error({ importId }, 'could not record the contact import as failed; it will be marked stale');
}

/** The imports running in this process (tests and a graceful stop wait for them). */
const runningImports = new Set<Promise<void>>();

/** Resolves when every import running in this process has finished. */
export async function waitForContactImports(): Promise<void> {
  while (runningImports.size > 0) await Promise.all([...runningImports]);
}

const isRunningClash = (err: unknown) => isUniqueViolation(err, 'contact_imports_one_running_idx');

/** Each row with the import's tag among its attributes (the tag wins over a column of the same key). */
function* withTag(rows: Generator<ImportRow>, tag: { key: string; value: string }): Generator<ImportRow> {
  for (const row of rows) yield { ...row, attributes: { ...row.attributes, [tag.key]: tag.value } };
}

async function runImport(
  ctx: AppContext,
  ownerId: string,
  importId: string,
  rows: Generator<ImportRow>,
  consentSource: string | null,
): Promise<void> {
  const counts = { processed: 0, created: 0, updated: 0, skipped: 0 };
  let batch: ImportRow[] = [];
  let errors: ImportRowError[] = [];
  let keptErrors = 0;
  const flush = async (status: 'running' | 'done') => {
    // A batch and the job's counts are written together: a database that goes away between the two leaves
    // neither, so the counts of a failed import are exactly the contacts it wrote.
    const next = { ...counts };
    await ctx.db.transaction(async (tx) => {
      if (batch.length > 0) {
        const written = await upsertContacts(tx, ctx.now(), ownerId, batch, consentSource);
        next.created += written.created;
        next.updated += written.total - written.created;
      }
      const at = ctx.now();
      await tx
        .update(contactImports)
        .set({
          ...next,
          status,
          updatedAt: at,
          ...(status === 'done' ? { finishedAt: at } : {}),
          ...(errors.length > 0 ? { errors: sql`${contactImports.errors} || ${JSON.stringify(errors)}::jsonb` } : {}),
        })
        .where(eq(contactImports.id, importId));
    });
    Object.assign(counts, next);
    batch = [];
    errors = [];
    // Let other requests (other accounts') run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (const row of rows) {
    counts.processed++;
    if (row.errors.length > 0) {
      counts.skipped++;
      if (keptErrors < CONTACT_IMPORT_LIMITS.keptErrors) {
        errors.push(toRowError(row));
        keptErrors++;
      }
    } else batch.push(row);
    if (batch.length >= BATCH_ROWS || counts.processed % BATCH_ROWS === 0) await flush('running');
  }
  await flush('done');
}

/**
 * Upserts a batch of rows in one statement (its rows one JSON parameter, jsonb_to_recordset, as the runtime's
 * contact writes): a new number is a new contact; an existing one keeps what the file leaves empty, its attributes
 * merged with the file's and its consent replaced only on the channels the file names.
 */
async function upsertContacts(
  db: Pick<Db, 'execute'>,
  now: Date,
  ownerId: string,
  rows: ImportRow[],
  consentSource: string | null,
): Promise<{ created: number; total: number }> {
  const at = now.toISOString();
  const records = rows.map((r) => {
    const consent: ContactConsentMap = {};
    for (const [channel, status] of Object.entries(r.consent))
      consent[channel as keyof ContactConsentMap] = { status, at, source: 'import', detail: consentSource };
    return { msisdn: r.msisdn, name: r.name, language: r.language, attributes: r.attributes, consent };
  });
  const result = await db.execute(sql`
    with written as (
      insert into contacts (owner_id, msisdn, name, language, attributes, consent, created_at, updated_at)
      select ${ownerId}::uuid, r.msisdn, r.name, r.language, r.attributes, r.consent, ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(msisdn text, name text, language text, attributes jsonb, consent jsonb)
      on conflict (owner_id, msisdn) do update set
        name = coalesce(excluded.name, contacts.name),
        language = coalesce(excluded.language, contacts.language),
        attributes = contacts.attributes || excluded.attributes,
        consent = contacts.consent || excluded.consent,
        updated_at = excluded.updated_at
      returning (xmax = 0) as created
    )
    select count(*) filter (where created)::int as created, count(*)::int as total from written`);
  // PGlite and node-postgres both answer { rows }.
  const [counts] = (result as unknown as { rows: Array<{ created: number; total: number }> }).rows;
  return { created: Number(counts?.created ?? 0), total: Number(counts?.total ?? 0) };
}

async function getOwnImport(ctx: AppContext, user: AuthUser, importId: string): Promise<ImportRecord> {
  const [row] = isUuid(importId)
    ? await ctx.db
        .select()
        .from(contactImports)
        .where(and(eq(contactImports.id, importId), eq(contactImports.ownerId, user.id)))
    : [];
  if (!row) throw notFound(CONTACT_IMPORT_MESSAGES.notFound);
  return row;
}

export async function getContactImport(ctx: AppContext, user: AuthUser, importId: string): Promise<ContactImport> {
  return toContactImport(await getOwnImport(ctx, user, importId));
}

/** The import's kept per-row errors as CSV lines: row, the phone cell, the errors. */
export async function* exportContactImportErrors(ctx: AppContext, user: AuthUser, importId: string): AsyncGenerator<string> {
  const job = await getOwnImport(ctx, user, importId);
  yield '\uFEFF';
  yield toCsvLine(['row', 'phone', 'error']);
  let chunk = '';
  for (const e of job.errors) chunk += toCsvLine([String(e.row), e.value, e.message]);
  yield chunk;
}
