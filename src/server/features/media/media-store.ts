import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { mediaBytes, type MediaBackend } from '../../../db/schema';
import type { Config } from '../../config';

/** Bytes `start` to `end` of a file, both included (as HTTP's Range counts them), within the file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file opened for reading: its whole size, and a stream of its bytes (of the range asked for). */
export interface OpenedMedia {
  size: number;
  stream: Readable;
}

/**
 * Where media files' bytes live (docs/media.md, Storage), behind one interface: the database by default (every
 * process of a fleet already shares it), or an S3-compatible bucket. A key is written once and never replaced;
 * `open` reads a file as a stream, whole or a range of it (a player seeking in a video), without holding it whole;
 * `open` of a key never written or deleted answers null; `delete` of a missing key does nothing. Any other failure
 * (the bucket unreachable, refused credentials) throws, from `open` or from its stream.
 */
export interface MediaStore {
  readonly backend: MediaBackend;
  put(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  open(key: string, range?: ByteRange): Promise<OpenedMedia | null>;
  delete(key: string): Promise<void>;
}

/** The store MEDIA_STORE names. */
export function createMediaStore(config: Config, database: Database): MediaStore {
  if (config.MEDIA_STORE === 'database') return createDatabaseMediaStore(database);
  return createS3MediaStore({
    endpoint: config.MEDIA_S3_ENDPOINT!,
    bucket: config.MEDIA_S3_BUCKET!,
    region: config.MEDIA_S3_REGION,
    accessKeyId: config.MEDIA_S3_ACCESS_KEY_ID!,
    secretAccessKey: config.MEDIA_S3_SECRET_ACCESS_KEY!,
  });
}

/** Keys and types are ours (`<accountId>/<mediaId>`, a sniffed type): never text that COPY would have to escape. */
const COPY_SAFE = /^[\x21-\x7E]+$/;

/**
 * The size of a file's rows in `media_bytes` (the last one shorter), and of the pieces read back. No statement
 * moves more than one through PGlite, whose WebAssembly heap grows to the largest it has held and never shrinks
 * again: a file in one row (as before chunks) took a 100 MB document's hex, 200 MB, through one COPY and left the
 * server some 1.7 GB larger. Measured on PGlite with a 100 MB file (bench/media-chunks.ts, bench/README.md "Media
 * files"): 1 MB stored and read it about as fast as 2 and 4 MB, faster than 512 and 256 KB (more statements), and
 * left the heap smaller than the larger sizes did.
 */
export const MEDIA_CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes in `media_bytes`, in rows of MEDIA_CHUNK_BYTES numbered by `seq`, written in one go (all or none:
 * Database.copyRowsInBatches). They go in by COPY, hex-encoded (Buffer's native hex), and come out as base64 text
 * that PostgreSQL encodes in C: PGlite's own bytea parameters and results are hex strings built and parsed a byte
 * at a time in JavaScript, some 6 s and a gigabyte of garbage for a 5 MB image, and even a text parameter of that
 * size costs it half a second more than COPY (bench/README.md, "Media files"). A file is read a piece at a time,
 * only the rows a range needs; a row stored before chunks (one row of any size) is read in pieces of the same size.
 */
export function createDatabaseMediaStore(
  database: Pick<Database, 'db' | 'copyRowsInBatches'>,
  /** Another size than MEDIA_CHUNK_BYTES: for the bench that picked it (bench/media-chunks.ts). */
  chunkBytes = MEDIA_CHUNK_BYTES,
): MediaStore {
  const { db } = database;

  /** The file's rows, in order, with their sizes (octet_length reads a stored value's size without its bytes). */
  const readRows = (key: string) =>
    db
      .select({ seq: mediaBytes.seq, size: sql<number>`octet_length(${mediaBytes.bytes})`.mapWith(Number) })
      .from(mediaBytes)
      .where(eq(mediaBytes.key, key))
      .orderBy(mediaBytes.seq);

  async function readPiece(key: string, seq: number, from: number, length: number): Promise<Buffer> {
    const [piece] = await db
      .select({ base64: sql<string>`encode(substring(${mediaBytes.bytes} from ${from + 1} for ${length}), 'base64')` })
      .from(mediaBytes)
      .where(and(eq(mediaBytes.key, key), eq(mediaBytes.seq, seq)));
    if (!piece) throw new Error(`media bytes deleted while read: ${key}`);
    // encode() breaks its base64 into lines; Buffer.from skips the line breaks.
    return Buffer.from(piece.base64, 'base64');
  }

  async function* readRange(key: string, rows: Array<{ seq: number; size: number }>, { start, end }: ByteRange) {
    let rowStart = 0;
    for (const row of rows) {
      const rowEnd = Math.min(rowStart + row.size, end + 1);
      for (let from = Math.max(start, rowStart); from < rowEnd; from += chunkBytes)
        yield await readPiece(key, row.seq, from - rowStart, Math.min(chunkBytes, rowEnd - from));
      rowStart += row.size;
      if (rowStart > end) return;
    }
  }

  return {
    backend: 'database',
    async put(key, bytes, mimeType) {
      if (!COPY_SAFE.test(key) || !COPY_SAFE.test(mimeType)) throw new Error(`media key or type not storable: ${key} ${mimeType}`);
      await database.copyRowsInBatches('media_bytes', ['key', 'seq', 'bytes', 'mime_type'], toChunkRows(key, bytes, mimeType, chunkBytes));
    },
    async open(key, range) {
      const rows = await readRows(key);
      if (rows.length === 0) return null;
      const size = rows.reduce((sum, row) => sum + row.size, 0);
      if (!range && size === 0) return { size, stream: Readable.from([]) };
      const wanted = range ?? { start: 0, end: size - 1 };
      checkRange(wanted, size);
      return { size, stream: Readable.from(readRange(key, rows, wanted), { objectMode: false }) };
    },
    async delete(key) {
      await db.delete(mediaBytes).where(eq(mediaBytes.key, key));
    },
  };
}

/**
 * A file's rows in COPY's text format, one chunk each, built as they are sent. An empty file is one empty row:
 * its key is still there to open.
 */
function* toChunkRows(key: string, bytes: Buffer, mimeType: string, chunkBytes: number): Generator<string> {
  let seq = 0;
  do {
    const chunk = bytes.subarray(seq * chunkBytes, (seq + 1) * chunkBytes);
    // COPY's text format unescapes the doubled backslash: the column gets bytea's \x hex prefix.
    yield `${key}\t${seq}\t\\\\x${chunk.toString('hex')}\t${mimeType}\n`;
    seq++;
  } while (seq * chunkBytes < bytes.length);
}

/** A range is the caller's to check against the file (the link's route answers 416): one past it is a bug. */
function checkRange({ start, end }: ByteRange, size: number): void {
  if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end < size))
    throw new RangeError(`bytes ${start}-${end} are not within a file of ${size}`);
}

export interface S3Settings {
  /** `https://s3.eu-west-1.amazonaws.com`, `http://127.0.0.1:9000` (MinIO): objects are addressed path-style under it. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** One request's limit; a bucket that does not answer in time is a failure like any other. */
  timeoutMs?: number;
}

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2, Spaces...), each request signed with Signature V4
 * (aws4fetch) and addressed path-style (`endpoint/bucket/key`), which every such service accepts. aws4fetch's
 * own retries are off: a store that is down is reported at once and the caller refuses the file.
 */
export function createS3MediaStore(settings: S3Settings): MediaStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: 's3',
    retries: 0,
  });
  const base = `${settings.endpoint.replace(/\/$/, '')}/${encodeURIComponent(settings.bucket)}/`;
  const urlOf = (key: string) => base + key.split('/').map(encodeURIComponent).join('/');
  const timeoutMs = settings.timeoutMs ?? 30_000;
  /**
   * A request that must be answered (its status and headers) within the timeout. The body of a file read is then
   * streamed at the pace of whoever reads it (a player seeking, a slow phone), without a deadline.
   */
  async function send(key: string, init: RequestInit): Promise<Response> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`S3 did not answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      return await client.fetch(urlOf(key), { ...init, signal: abort.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  async function fail(response: Response, what: string): Promise<never> {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
    throw new Error(`S3 ${what} answered ${response.status}${code ? ` ${code}` : ''}`);
  }

  return {
    backend: 's3',
    async put(key, bytes, mimeType) {
      const response = await send(key, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': mimeType } });
      if (!response.ok) await fail(response, 'PUT');
      await response.body?.cancel();
    },
    async open(key, range) {
      const response = await send(key, { method: 'GET', headers: range ? { range: `bytes=${range.start}-${range.end}` } : {} });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) return fail(response, 'GET');
      // A range's answer is 206 with the bytes sent and the whole size (`bytes 0-99/5000`); the whole file's, 200.
      const answered = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
      const size = Number(range ? answered?.[3] : response.headers.get('content-length'));
      try {
        if (!response.body || !Number.isSafeInteger(size)) throw new Error(`S3 GET answered ${response.status} without a size`);
        if (!range) return { size, stream: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) };
        checkRange(range, size);
        // Bytes from the start asked for, to its end or past it: s3rver (the tests' bucket) reads `bytes=0-0` as
        // the whole file. Any bucket answering more than asked is cut to the range.
        if (response.status !== 206 || Number(answered?.[1]) !== range.start || Number(answered?.[2]) < range.end)
          throw new Error(`S3 GET answered ${response.status} ${answered?.[0] ?? ''} for bytes ${range.start}-${range.end}`);
        const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
        return { size, stream: Readable.from(takeBytes(body, range.end - range.start + 1), { objectMode: false }) };
      } catch (err) {
        await response.body?.cancel();
        throw err;
      }
    },
    async delete(key) {
      const response = await send(key, { method: 'DELETE' });
      if (!response.ok && response.status !== 404) await fail(response, 'DELETE');
      await response.body?.cancel();
    },
  };
}

/** The first `length` bytes of a stream, which is then closed. */
async function* takeBytes(stream: Readable, length: number): AsyncGenerator<Buffer> {
  let left = length;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    yield chunk.subarray(0, left);
    left -= chunk.length;
    if (left <= 0) break;
  }
  stream.destroy();
}
