import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { downloadMedia, getMapTiles, getMedia, uploadMedia } from '../../../shared/api/media.calls';
import { uploadMediaQuerySchema } from '../../../shared/api/media.schema';
import { AppError, notAllowed } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { getOwnedApp } from '../../core/app-access';
import { createLimit, readAddress } from '../../core/rate-limits';
import { registerCall } from '../../core/register-call';
import { ok } from '../../http';
import { getSignedInUser, type Guard } from '../../plugins/guard';
import { checkMediaLink } from './media-links';
import type { ByteRange } from './media-store';
import { readUploadBody } from './media-uploads';
import { getAccountId, type AuthUser } from '../../core/auth-user';
import {
  checkMediaQuota,
  checkMediaSize,
  findMediaById,
  getReadableMedia,
  MEDIA_MESSAGES,
  MediaRefusal,
  openStoredBytes,
  storeMedia,
  toMediaRef,
  withSignedUrl,
} from './media.service';

/**
 * An upload's size as its Content-Length declares it, checked and admitted before the body is read
 * (docs/media.md, "Limits on uploads"): too large for the kind asked for (or any kind), for another account's app,
 * or past the storage left is refused without reading it; past the account's uploads at once, or the process's
 * bytes in flight, it is refused at once. A chunked body (no Content-Length) is refused: its size is not known
 * until it has been read. The admission is released when the answer has gone or the connection closed (`close`
 * comes in both cases), whatever the answer was.
 */
async function admitUpload(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const declared = req.headers['content-length'];
  if (declared === undefined && req.headers['transfer-encoding'] !== undefined)
    throw new MediaRefusal('lengthRequired', MEDIA_MESSAGES.lengthRequired);
  const size = readDeclaredSize(req);
  // The query is validated after the body is read: what is checked here is taken only when it is well formed.
  const query = uploadMediaQuerySchema.safeParse(req.query);
  const { kind, appId } = query.success ? query.data : {};
  checkMediaSize(size, kind ?? null);
  const user = getSignedInUser(req);
  // Another account's app is not found, and a full storage refused, before a byte of the file is read.
  if (size > 0) await checkMediaQuota(ctx, await getUploadAccountId(ctx, user, appId), size);
  const release = ctx.mediaUploads.admit(user.id, size);
  reply.raw.once('close', release);
}

/**
 * The account an upload's file belongs to: the app owner's for a file for an app (it counts against their storage,
 * as the files its bot receives do); not found for an app the user does not build. An inbox agent's file (a reply
 * with a file, docs/inbox.md) is their owner's account's; an agent builds no app, so one named is not found.
 */
async function getUploadAccountId(ctx: AppContext, user: AuthUser, appId: string | undefined): Promise<string> {
  return appId ? (await getOwnedApp(ctx, user, appId)).userId : getAccountId(user);
}

/** An upload's Content-Length: Node's parser has checked it is a number; no header and no chunks is no body. */
const readDeclaredSize = (req: FastifyRequest) => Number(req.headers['content-length'] ?? 0);

/** A file name in Content-Disposition: an ASCII fallback, and the name itself encoded (RFC 6266, RFC 5987). */
function toContentDisposition(type: 'inline' | 'attachment', fileName: string | null): string {
  if (!fileName) return type;
  const fallback = fileName.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The one byte range a request asks for in a file of `size` bytes (RFC 9110, 14.2): `bytes=0-499`, `bytes=500-`
 * (to the end), `bytes=-500` (the last 500), an end past the file cut to it. Null serves the whole file: no Range,
 * another unit, several ranges (players ask for one; several would need a multipart answer), a header that does
 * not parse, or an If-Range that is not the file's ETag (the file changed since the client read part of it, which
 * a file never does, but a validator not ours says nothing). Unsatisfiable is a range starting past the end.
 */
export function readByteRange(
  headers: { range?: string; 'if-range'?: string },
  size: number,
  etag: string,
): ByteRange | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(headers.range?.trim() ?? '');
  if (!match || (!match[1] && !match[2])) return null;
  if (headers['if-range'] !== undefined && headers['if-range'] !== etag) return null;
  if (!match[1]) {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : Infinity;
  if (end < start) return null;
  return start >= size ? 'unsatisfiable' : { start, end: Math.min(end, size - 1) };
}

/**
 * A stored file's bytes by signed link (docs/media.md, Links), in every MODE: no sign-in, the link is the
 * credential. The type is the one read from the bytes, never guessed again by the browser (nosniff), and the
 * bytes run no script even opened directly (a sandboxed CSP); documents download rather than open. The bytes are
 * streamed from the store, never held whole, and a Range asks for part of them (a player seeking in a video).
 */
export function registerMediaFileRoute(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, downloadMedia, {
    tags: ['media'],
    summary: "A file's bytes, for a signed link that has not expired",
    handler: async (req, reply) => {
      const { mediaId } = req.params;
      const check = checkMediaLink(ctx.getMediaUrlKey(), mediaId, req.query.expires, req.query.signature, ctx.now());
      if (check === 'forged') throw notAllowed('This link to a file is not valid.');
      if (check === 'expired') throw notAllowed('This link to a file has expired: ask for a new one.');
      const row = await findMediaById(ctx, mediaId);
      if (row.deletedAt) throw new AppError('gone', MEDIA_MESSAGES.gone);
      // A file's bytes never change: their hash is a strong validator.
      const etag = `"${row.sha256}"`;
      const range = readByteRange(req.headers, row.size, etag);
      // The store is read before any header is set: a store that fails answers its error alone. A HEAD asks for the
      // headers alone: the store is not read (Fastify would read a stream to its end to drop it).
      const opened =
        range === 'unsatisfiable'
          ? null
          : req.method === 'HEAD'
            ? { size: row.size, stream: Readable.from([]) }
            : await openStoredBytes(ctx, row, range ?? undefined);
      reply
        .header('content-type', row.mimeType)
        .header('content-disposition', toContentDisposition(row.kind === 'document' ? 'attachment' : 'inline', row.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=300')
        .header('accept-ranges', 'bytes')
        .header('etag', etag);
      if (!opened || range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${row.size}`).send();
      const { size, stream } = opened;
      if (!range) return reply.header('content-length', size).send(stream);
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(stream);
    },
  });
}

/** The console's calls: one of the account's files with a fresh link, and an upload. */
export function registerMediaRoutes(app: FastifyInstance, ctx: AppContext, guard: Guard): void {
  const tags = ['media'];
  // The operator's setting and nothing of any account: public, for the simulated phone's location form too.
  const mapTiles = { tileUrl: ctx.config.MAP_TILE_URL, attribution: ctx.config.MAP_TILE_ATTRIBUTION };
  registerCall(app, getMapTiles, {
    tags,
    summary: "Where the location form's map takes its tiles from (empty: no map)",
    handler: async () => ok('OK', mapTiles),
  });
  registerCall(app, getMedia, {
    tags,
    summary: "One of the account's files, with a signed link to its bytes",
    onRequest: guard(),
    handler: async (req) => {
      const row = await getReadableMedia(ctx, getSignedInUser(req), req.params.mediaId);
      const ref = toMediaRef(row);
      // A file whose bytes are gone keeps its record, without a link that would only answer 410.
      return ok('OK', row.deletedAt ? ref : withSignedUrl(ctx, ref));
    },
  });

  // Each upload holds its whole body in memory and writes it to the store: a builder uploading by hand never meets
  // these limits, a script looping over uploads (from one account or many free ones) does. Counted after the guard
  // and before the body is read, successful or not; then admitted by size (admitUpload).
  const uploadLimits = [
    createLimit(
      app,
      'media-upload-account',
      ctx.config.MEDIA_UPLOAD_RATE_LIMIT,
      (req) => getSignedInUser(req).id,
      MEDIA_MESSAGES.uploadRate(ctx.config.MEDIA_UPLOAD_RATE_LIMIT),
    ),
    createLimit(
      app,
      'media-upload-address',
      ctx.config.MEDIA_UPLOAD_ADDRESS_RATE_LIMIT,
      readAddress,
      MEDIA_MESSAGES.uploadAddressRate(ctx.config.MEDIA_UPLOAD_ADDRESS_RATE_LIMIT),
    ),
  ];

  // The body is the file itself: its own scope reads any type as bytes.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // The size was checked (at most the largest file any kind allows, 100 MB) and admitted before (admitUpload):
    // the body is read into a buffer of that size, and no further.
    scope.addContentTypeParser('*', (req: FastifyRequest, payload: Readable) =>
      readUploadBody(payload, readDeclaredSize(req), ctx.config.MEDIA_UPLOAD_IDLE_MS),
    );
    registerCall(scope, uploadMedia, {
      tags,
      summary: 'Stores the request body as a file (Content-Type: the type claimed); answers its reference',
      // Inbox agents upload the files they reply with, for their owner's account (getUploadAccountId).
      onRequest: [guard('everyone', 'agent'), ...uploadLimits, (req, reply) => admitUpload(ctx, req, reply)],
      handler: async (req) => {
        const user = getSignedInUser(req);
        const { appId, kind, fileName, caption } = req.query;
        const ref = await storeMedia(ctx, {
          accountId: await getUploadAccountId(ctx, user, appId),
          appId,
          // No body at all is an empty file, refused as one.
          bytes: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          claimedMimeType: req.headers['content-type'],
          fileName,
          caption,
          expectedKind: kind,
          source: 'upload',
        });
        return ok('File stored', withSignedUrl(ctx, ref));
      },
    });
  });
}
