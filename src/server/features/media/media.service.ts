import { isUuid } from '../../../shared/ids';
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { apps, mediaFiles, users, type MediaSource } from '../../../db/schema';
import { formatBytes } from '../../../actions/javascript/limits';
import type { MediaRefusalCode } from '../../../shared/api/media.schema';
import { AppError, type ErrorKind, notFound } from '../../../shared/errors';
import type { TemplateScope } from '../../../shared/actions/runner';
import { isPlainObject } from '../../../shared/json';
import { isMediaRef } from '../../../engine';
import { MEDIA_KINDS, MEDIA_TYPES, mediaKindOf, type MediaKind, type MediaRef } from '../../../shared/media';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { isBuiltBy } from '../../core/app-access';
import type { AuthUser } from '../../core/auth-user';
import { DAY_MS } from '../../core/dates';
import { sumLiveBytes } from '../../core/media-usage';
import { toE164 } from '../../core/msisdn';
import { getMediaQuota } from '../billing/plan-limits';
import { signMediaPath } from './media-links';
import type { ByteRange, OpenedMedia } from './media-store';
import { readImageDimensions, sniffMimeType } from './media-type';

/**
 * Media files (docs/media.md): stored after every check, read back by the account that owns them, handed out
 * as a MediaRef with a signed link. The connectors (a file a user sent), the console (an upload), the engine and
 * actions (a file to send) all come here; none of them sees the bytes' storage.
 */

/**
 * A file refused, and why: `code` for a program (the engine picks a menu's own message by it), the sentence for a
 * person. Nothing is stored when it is thrown. The error handler answers it like any AppError, with `code` in
 * the envelope.
 * @example new MediaRefusal('tooLarge', 'The file is larger than 5 MB, the most an image may be.')
 */
export class MediaRefusal extends AppError {
  readonly code: MediaRefusalCode;

  constructor(code: MediaRefusalCode, message: string) {
    super(KIND_OF_REFUSAL[code], message, { extra: { code } });
    this.name = 'MediaRefusal';
    this.code = code;
  }
}

const KIND_OF_REFUSAL: Record<MediaRefusalCode, ErrorKind> = {
  empty: 'invalid',
  tooLarge: 'invalid',
  typeNotAllowed: 'invalid',
  unknownType: 'invalid',
  forgedType: 'invalid',
  unreadableImage: 'invalid',
  imageTooLarge: 'invalid',
  quotaReached: 'limitReached',
  unavailable: 'unavailable',
  lengthRequired: 'invalid',
  stalled: 'requestTimeout',
  tooManyUploads: 'tooManyRequests',
  serverBusy: 'unavailable',
};

/** Each kind as a sentence names it, and the types it takes as a person reads them. */
const KIND_NAMES: Record<MediaKind, string> = { image: 'an image', document: 'a document', audio: 'an audio file', video: 'a video' };
const ACCEPTED: Record<MediaKind, string> = {
  image: 'JPEG or PNG',
  document: 'PDF, text, Word, Excel or PowerPoint',
  audio: 'AAC, AMR, MP3, MP4 audio or Ogg (Opus)',
  video: 'MP4 or 3GPP',
};

/** The largest file of any kind: what is read before the kind is known. */
const LARGEST_FILE = Math.max(...MEDIA_KINDS.map((kind) => MEDIA_TYPES[kind].maxBytes));

export const MEDIA_MESSAGES = {
  empty: 'The file is empty.',
  tooLargeForKind: (kind: MediaKind) =>
    `The file is larger than ${formatBytes(MEDIA_TYPES[kind].maxBytes)}, the most ${KIND_NAMES[kind]} may be.`,
  tooLargeForMenu: (maxBytes: number) => `The file is larger than ${formatBytes(maxBytes)}, the most accepted here.`,
  tooLarge: `The file is larger than ${formatBytes(LARGEST_FILE)}, the most any file may be.`,
  unknownType: 'The type of the file could not be recognised from its contents.',
  forgedType: (claimed: string, actual: string) => `The file is sent as ${claimed} but its contents are ${actual}.`,
  typeNotAccepted: (mimeType: string) =>
    `Files of type ${mimeType} are not accepted: send an image (${ACCEPTED.image}), a document (${ACCEPTED.document}), audio or video.`,
  wrongKind: (expected: MediaKind, actual: MediaKind, mimeType: string) =>
    `The file is ${KIND_NAMES[actual]} (${mimeType}); ${KIND_NAMES[expected]} is asked for (${ACCEPTED[expected]}).`,
  unreadableImage: 'The image could not be read: its header is damaged.',
  imageTooLarge: (width: number, height: number, maxPixels: number) =>
    `The image is ${width} × ${height} pixels; the most accepted is ${formatMegapixels(maxPixels)} megapixels.`,
  quotaReached: (limit: number, planTitle: string) =>
    `The account's storage for files is full (${formatBytes(limit)} on the ${planTitle} plan): older files free their space after the retention period, or upgrade the plan.`,
  unavailable: 'The file could not be stored right now. Please try again in a few minutes.',
  lengthMismatch: 'The file is not as long as its Content-Length says.',
  lengthRequired: 'Send the file with its size (a Content-Length header): a body of unknown length is not received.',
  stalled: (idleMs: number) =>
    `The file stopped arriving: nothing was received for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}. Please send it again.`,
  tooManyUploads: (perAccount: number) =>
    `${perAccount === 1 ? 'A file' : `${perAccount} files`} of this account ${perAccount === 1 ? 'is' : 'are'} already being uploaded: wait for ${perAccount === 1 ? 'it' : 'one'} to finish, then try again.`,
  serverBusy: 'The server is receiving too many files right now. Please try again in a minute.',
  uploadRate: (max: number) => `Too many files uploaded: at most ${max} a minute for one account. Please wait a minute and try again.`,
  uploadAddressRate: (max: number) =>
    `Too many files uploaded from this address: at most ${max} a minute. Please wait a minute and try again.`,
  notFound: 'File not found',
  gone: 'This file was deleted after the retention period (or at its sender’s request); only its record is kept.',
} as const;

const formatMegapixels = (pixels: number) => String(Math.round((pixels / 1_000_000) * 10) / 10);

export interface StoreMediaInput {
  /** The account that owns the file: the app owner's for a file a bot received or sent. */
  accountId: string;
  appId?: string;
  bytes: Buffer;
  /** The type the sender gave (a Content-Type, a provider's `mime_type`): checked against the bytes, never stored. */
  claimedMimeType?: string;
  fileName?: string;
  caption?: string;
  /** The kind a menu asks for: a file of another kind is refused. */
  expectedKind?: MediaKind;
  /** A smaller limit than the kind's (a menu's validation). */
  maxBytes?: number;
  source: MediaSource;
  /**
   * The number a file came from (inbound: `+233241234567`, `233241234567` or a WhatsApp JID), kept in E.164 form so
   * erasing the number's data (a contact's deletion) finds it.
   */
  phone?: string;
  /** The https address a `url` file was fetched from (kept so the same address is not fetched again soon). */
  sourceUrl?: string;
}

/**
 * Checks a file and stores it; answers its MediaRef (without a link: see {@link withSignedUrl}). Throws a
 * {@link MediaRefusal} for a file refused, in this order: empty; larger than any file (or the menu's limit);
 * a type its bytes do not show, or one they contradict; a kind WhatsApp does not take, or not the kind asked
 * for; larger than its kind allows; an image whose header claims more pixels than MEDIA_MAX_PIXELS (read
 * before anything decodes it); past the account's quota; the store failing (`unavailable`). Nothing is stored
 * half: the bytes go first, then the record; a record that cannot be written takes its bytes back out.
 */
export async function storeMedia(ctx: AppContext, input: StoreMediaInput): Promise<MediaRef> {
  const { bytes, expectedKind } = input;
  if (bytes.length === 0) throw new MediaRefusal('empty', MEDIA_MESSAGES.empty);
  checkMediaSize(bytes.length, expectedKind ?? null, input.maxBytes);

  const sniffed = await sniffMimeType(bytes, input.claimedMimeType, input.fileName);
  if ('unknown' in sniffed) throw new MediaRefusal('unknownType', MEDIA_MESSAGES.unknownType);
  if ('forged' in sniffed) throw new MediaRefusal('forgedType', MEDIA_MESSAGES.forgedType(sniffed.forged.claimed, sniffed.forged.actual));
  const { mimeType } = sniffed;
  const kind = mediaKindOf(mimeType);
  if (!kind) throw new MediaRefusal('typeNotAllowed', MEDIA_MESSAGES.typeNotAccepted(mimeType));
  if (expectedKind && kind !== expectedKind)
    throw new MediaRefusal('typeNotAllowed', MEDIA_MESSAGES.wrongKind(expectedKind, kind, mimeType));
  checkMediaSize(bytes.length, kind, input.maxBytes);
  if (kind === 'image') checkImageDimensions(ctx, bytes);

  // A quick refusal before the bytes travel; the record's insert counts again, locked.
  const quota = await checkMediaQuota(ctx, input.accountId, bytes.length);

  const id = randomUUID();
  const storageKey = `${input.accountId}/${id}`;
  try {
    await ctx.mediaStore.put(storageKey, bytes, mimeType);
  } catch (err) {
    ctx.log.error({ err, backend: ctx.mediaStore.backend, accountId: input.accountId }, 'media store refused a file');
    throw new MediaRefusal('unavailable', MEDIA_MESSAGES.unavailable);
  }
  const row = {
    id,
    ownerId: input.accountId,
    appId: input.appId ?? null,
    kind,
    mimeType,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    fileName: cleanFileName(input.fileName),
    caption: input.caption || null,
    source: input.source,
    backend: ctx.mediaStore.backend,
    storageKey,
    msisdn: input.phone ? (toE164(input.phone) ?? input.phone) : null,
    sourceUrl: input.sourceUrl ?? null,
    createdAt: ctx.now(),
  };
  try {
    await ctx.db.transaction(async (tx) => {
      if (quota) {
        // One account's files count and insert one at a time, so parallel uploads cannot pass the quota together.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, input.accountId)).for('no key update');
        await checkQuota(tx, input.accountId, bytes.length, quota);
      }
      await tx.insert(mediaFiles).values(row);
    });
  } catch (err) {
    await ctx.mediaStore
      .delete(storageKey)
      .catch((deleteErr: unknown) => ctx.log.error({ err: deleteErr, storageKey }, 'media bytes left behind by a refused record'));
    if (err instanceof MediaRefusal) throw err;
    ctx.log.error({ err, accountId: input.accountId }, 'media record not written');
    throw new MediaRefusal('unavailable', MEDIA_MESSAGES.unavailable);
  }
  return toMediaRef(row);
}

/**
 * Refuses a size larger than the kind allows (any kind's largest when it is not known yet), or than a menu's own
 * smaller limit: before the type is read, and for an upload before its body is (its Content-Length).
 */
export function checkMediaSize(size: number, kind: MediaKind | null, menuMax?: number): void {
  const kindMax = kind ? MEDIA_TYPES[kind].maxBytes : LARGEST_FILE;
  if (menuMax !== undefined && menuMax < kindMax && size > menuMax)
    throw new MediaRefusal('tooLarge', MEDIA_MESSAGES.tooLargeForMenu(menuMax));
  if (size > kindMax) throw new MediaRefusal('tooLarge', kind ? MEDIA_MESSAGES.tooLargeForKind(kind) : MEDIA_MESSAGES.tooLarge);
}

function checkImageDimensions(ctx: AppContext, bytes: Buffer): void {
  const dimensions = readImageDimensions(bytes);
  if (!dimensions) throw new MediaRefusal('unreadableImage', MEDIA_MESSAGES.unreadableImage);
  const maxPixels = ctx.config.MEDIA_MAX_PIXELS;
  if (dimensions.width * dimensions.height > maxPixels)
    throw new MediaRefusal('imageTooLarge', MEDIA_MESSAGES.imageTooLarge(dimensions.width, dimensions.height, maxPixels));
}

/**
 * Refuses (`quotaReached`) a file of `size` bytes the account's storage has no room for: before an upload's body is
 * read (its Content-Length), and before a file's bytes go to the store. Answers the account's quota (null: none).
 */
export async function checkMediaQuota(
  ctx: AppContext,
  accountId: string,
  size: number,
): Promise<{ limit: number; planTitle: string } | null> {
  const quota = await getMediaQuota(ctx, accountId);
  if (quota) await checkQuota(ctx.db, accountId, size, quota);
  return quota;
}

async function checkQuota(db: Db, accountId: string, adding: number, quota: { limit: number; planTitle: string }): Promise<void> {
  if (adding + (await sumLiveBytes(db, accountId)) > quota.limit)
    throw new MediaRefusal('quotaReached', MEDIA_MESSAGES.quotaReached(quota.limit, quota.planTitle));
}

/** A sender's file name as kept: its last path segment, without control characters, at most 255 characters. */
function cleanFileName(fileName: string | undefined): string | null {
  const cleaned = (fileName ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001F\u007F]/g, '')
    .trim()
    .slice(0, 255);
  return cleaned || null;
}

type MediaRow = typeof mediaFiles.$inferSelect;

export function toMediaRef(row: Pick<MediaRow, 'id' | 'kind' | 'mimeType' | 'size' | 'fileName' | 'caption'>): MediaRef {
  return {
    mediaId: row.id,
    kind: row.kind,
    mimeType: row.mimeType,
    size: row.size,
    ...(row.fileName ? { fileName: row.fileName } : {}),
    ...(row.caption ? { caption: row.caption } : {}),
  };
}

/** The reference with a fresh signed link to its bytes, good for MEDIA_URL_TTL_SECONDS (or `ttlSeconds`). */
export function withSignedUrl(ctx: AppContext, ref: MediaRef, ttlSeconds = ctx.config.MEDIA_URL_TTL_SECONDS): MediaRef {
  const expiresAt = new Date(ctx.now().getTime() + ttlSeconds * 1000);
  return { ...ref, url: getPublicOrigin(ctx.config) + signMediaPath(ctx.getMediaUrlKey(), ref.mediaId, expiresAt) };
}

/** The file's record if `accountId` owns it; not found otherwise (another account's id included). */
export async function getMediaRecord(ctx: AppContext, mediaId: string, accountId: string): Promise<MediaRow> {
  if (!isUuid(mediaId)) throw notFound(MEDIA_MESSAGES.notFound);
  const [row] = await ctx.db
    .select()
    .from(mediaFiles)
    .where(and(eq(mediaFiles.id, mediaId), eq(mediaFiles.ownerId, accountId)));
  if (!row) throw notFound(MEDIA_MESSAGES.notFound);
  return row;
}

/**
 * A file's bytes and reference, for the account that owns it (the runtime passes the app owner's): not found
 * for another account's id, 410 gone once the retention period (or an erasure) removed the bytes, `unavailable`
 * when the store does not answer.
 */
export async function readMedia(ctx: AppContext, mediaId: string, accountId: string): Promise<{ bytes: Buffer; ref: MediaRef }> {
  return readStoredBytes(ctx, await getMediaRecord(ctx, mediaId, accountId));
}

/** The bytes of a record already found (the signed link's route finds it by id alone), whole. */
export async function readStoredBytes(ctx: AppContext, row: MediaRow): Promise<{ bytes: Buffer; ref: MediaRef }> {
  const { stream } = await openStoredBytes(ctx, row);
  try {
    return { bytes: Buffer.concat(await stream.toArray()), ref: toMediaRef(row) };
  } catch (err) {
    throw unreadable(ctx, row, err);
  }
}

/**
 * The bytes of a record already found, as a stream (the signed link's route serves them so), whole or `range` of
 * them: 410 gone once the retention period (or an erasure) removed them, `unavailable` when the store does not
 * answer. A store failing later, while the stream is read, fails the stream.
 */
export async function openStoredBytes(ctx: AppContext, row: MediaRow, range?: ByteRange): Promise<OpenedMedia> {
  if (row.deletedAt) throw new AppError('gone', MEDIA_MESSAGES.gone);
  let opened: OpenedMedia | null;
  try {
    opened = await ctx.mediaStore.open(row.storageKey, range);
  } catch (err) {
    throw unreadable(ctx, row, err);
  }
  // Bytes gone from under a live record (removed by hand from the bucket): as gone as retention makes them.
  if (!opened) throw new AppError('gone', MEDIA_MESSAGES.gone);
  return opened;
}

function unreadable(ctx: AppContext, row: MediaRow, err: unknown): MediaRefusal {
  ctx.log.error({ err, mediaId: row.id }, 'media store did not answer');
  return new MediaRefusal('unavailable', 'The file cannot be read right now. Please try again in a few minutes.');
}

/** A file by id alone, for a signed link (whose signature already names the file); not found when there is none. */
export async function findMediaById(ctx: AppContext, mediaId: string): Promise<MediaRow> {
  const [row] = await ctx.db.select().from(mediaFiles).where(eq(mediaFiles.id, mediaId));
  if (!row) throw notFound(MEDIA_MESSAGES.notFound);
  return row;
}

/**
 * A file the signed-in account may read: its own, or one for an app it builds (a merchant's developer reads
 * the files of the apps they build). Anything else is not found.
 */
export async function getReadableMedia(ctx: AppContext, user: AuthUser, mediaId: string): Promise<MediaRow> {
  if (!isUuid(mediaId)) throw notFound(MEDIA_MESSAGES.notFound);
  const [row] = await ctx.db
    .select({ file: mediaFiles })
    .from(mediaFiles)
    .leftJoin(apps, eq(apps.id, mediaFiles.appId))
    .where(
      and(eq(mediaFiles.id, mediaId), sql`(${mediaFiles.ownerId} = ${user.id} or (${apps.id} is not null and ${isBuiltBy(ctx, user)}))`),
    );
  if (!row) throw notFound(MEDIA_MESSAGES.notFound);
  return row.file;
}

/** How many files one sweep removes at most; the next run takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Removes the bytes of files past their retention, keeping their records (marked `deleted_at`, so a link answers 410
 * and a session log still shows a file was there): past MEDIA_RETENTION_DAYS for every account, and past `cutoff`
 * for each group of accounts that keeps media for fewer days (their plan's or their own figure,
 * features/retention/retention-terms.ts). Each file's bytes go first, then its mark: a store that fails leaves the
 * file for the next run. Answers how many files were swept.
 */
export async function sweepExpiredMedia(
  ctx: AppContext,
  groups: ReadonlyArray<{ cutoff: Date; ownerIds: string[] }> = [],
): Promise<number> {
  const days = ctx.config.MEDIA_RETENTION_DAYS;
  const bounds = [
    ...(days > 0 ? [{ cutoff: new Date(ctx.now().getTime() - days * DAY_MS), ownerIds: null }] : []),
    ...groups.filter((g) => g.ownerIds.length > 0),
  ];
  const found = new Map<string, { id: string; storageKey: string }>();
  for (const { cutoff, ownerIds } of bounds) {
    if (found.size >= SWEEP_BATCH) break;
    const rows = await ctx.db
      .select({ id: mediaFiles.id, storageKey: mediaFiles.storageKey })
      .from(mediaFiles)
      .where(
        and(isNull(mediaFiles.deletedAt), lt(mediaFiles.createdAt, cutoff), ownerIds ? inArray(mediaFiles.ownerId, ownerIds) : undefined),
      )
      .orderBy(mediaFiles.createdAt)
      .limit(SWEEP_BATCH - found.size);
    for (const row of rows) found.set(row.id, row);
  }
  const due = [...found.values()];
  let swept = 0;
  for (const file of due) {
    try {
      await ctx.mediaStore.delete(file.storageKey);
    } catch (err) {
      ctx.log.warn({ err, mediaId: file.id }, 'media retention: the store did not delete a file; tried again next run');
      continue;
    }
    await ctx.db.update(mediaFiles).set({ deletedAt: ctx.now() }).where(eq(mediaFiles.id, file.id));
    swept++;
  }
  if (swept > 0) ctx.log.info({ swept }, 'media retention: files past the retention period deleted');
  return swept;
}

/**
 * Erasing a number's subscriber data (contacts/subscriber-erasure.ts): inside the erasure's transaction, the files
 * `condition` finds (those the number sent) lose their number, name and caption and are marked deleted; answers their
 * storage keys, whose bytes {@link deleteErasedMedia} removes once the transaction has committed.
 */
export async function eraseMediaOf(tx: Pick<Db, 'update'>, now: Date, condition: SQL): Promise<string[]> {
  const rows = await tx
    .update(mediaFiles)
    .set({
      msisdn: null,
      fileName: null,
      caption: null,
      deletedAt: sql`coalesce(${mediaFiles.deletedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(condition)
    .returning({ storageKey: mediaFiles.storageKey });
  return rows.map((r) => r.storageKey);
}

/**
 * Deleting accounts (an admin, a merchant's users): inside the deletion's transaction, before the users' rows go
 * (their files' records go with them, by the foreign key), the storage keys of the files whose bytes are still
 * stored; {@link deleteErasedMedia} removes the bytes once the transaction has committed. Without this the bytes
 * would stay in the store with no record to find them by.
 */
export async function findAccountsMediaKeys(tx: Pick<Db, 'select'>, accountIds: readonly string[]): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx
    .select({ storageKey: mediaFiles.storageKey })
    .from(mediaFiles)
    .where(and(inArray(mediaFiles.ownerId, [...accountIds]), isNull(mediaFiles.deletedAt)));
  return rows.map((r) => r.storageKey);
}

/** The bytes of erased files ({@link eraseMediaOf}) or deleted accounts' ({@link findAccountsMediaKeys}); a store that fails is logged with the keys left behind. */
export async function deleteErasedMedia(ctx: AppContext, storageKeys: readonly string[]): Promise<void> {
  for (const key of storageKeys) {
    await ctx.mediaStore.delete(key).catch((err: unknown) => ctx.log.error({ err, storageKey: key }, 'erased media bytes not deleted'));
  }
}

/**
 * Makes the links of the files an action is about to read fresh (a link expires after MEDIA_URL_TTL_SECONDS, and a
 * session may hold a file for longer): `session.media.<menu>`, `inRequest.media` and an action result's `file`,
 * each re-signed when `accountId` owns it (a reference a script made up is left as it was, never signed). Replaces
 * those parts of `scope` in place: the action's templates render over this very object. One query, and only when
 * the scope holds a file.
 */
export async function refreshMediaLinks(ctx: AppContext, accountId: string, scope: TemplateScope): Promise<void> {
  const media = scope.session.media ?? {};
  const results = scope.actions;
  const refs: MediaRef[] = [];
  for (const value of Object.values(media)) if (isMediaRef(value)) refs.push(value);
  if (isMediaRef(scope.inRequest.media)) refs.push(scope.inRequest.media);
  for (const result of Object.values(results)) if (isPlainObject(result) && isMediaRef(result.file)) refs.push(result.file);
  const ids = [...new Set(refs.map((ref) => ref.mediaId).filter(isUuid))];
  if (ids.length === 0) return;
  const owned = new Set(
    (
      await ctx.db
        .select({ id: mediaFiles.id })
        .from(mediaFiles)
        .where(and(eq(mediaFiles.ownerId, accountId), inArray(mediaFiles.id, ids), isNull(mediaFiles.deletedAt)))
    ).map((row) => row.id),
  );
  const fresh = <T>(value: T): T => (isMediaRef(value) && owned.has(value.mediaId) ? (withSignedUrl(ctx, value) as T) : value);
  scope.session.media = Object.fromEntries(Object.entries(media).map(([menu, value]) => [menu, fresh(value)]));
  if (scope.inRequest.media) scope.inRequest.media = fresh(scope.inRequest.media);
  scope.actions = Object.fromEntries(
    Object.entries(results).map(([name, result]) => [
      name,
      isPlainObject(result) && isMediaRef(result.file) ? { ...result, file: fresh(result.file) } : result,
    ]),
  );
}
