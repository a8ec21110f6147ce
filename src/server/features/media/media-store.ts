import { AwsClient } from 'aws4fetch';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { mediaBytes, type MediaBackend } from '../../../db/schema';
import type { Config } from '../../config';

/**
 * Where media files' bytes live (docs/media.md, Storage), behind one interface: the database by default (every
 * process of a fleet already shares it), or an S3-compatible bucket. A key is written once and never replaced;
 * `get` of a key never written or deleted answers null; `delete` of a missing key does nothing. Any other failure
 * (the bucket unreachable, refused credentials) throws.
 */
export interface MediaStore {
  readonly backend: MediaBackend;
  put(key: string, bytes: Buffer, mimeType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
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
 * Bytes in `media_bytes`, one row per key. They go in by COPY, hex-encoded (Buffer's native hex), and come out as
 * base64 text that PostgreSQL encodes in C: PGlite's own bytea parameters and results are hex strings built and
 * parsed a byte at a time in JavaScript, some 6 s and a gigabyte of garbage for a 5 MB image, and even a text
 * parameter of that size costs it half a second more than COPY (bench/README.md, "Media files").
 */
export function createDatabaseMediaStore(database: Pick<Database, 'db' | 'copyRows'>): MediaStore {
  const { db } = database;
  return {
    backend: 'database',
    async put(key, bytes, mimeType) {
      if (!COPY_SAFE.test(key) || !COPY_SAFE.test(mimeType)) throw new Error(`media key or type not storable: ${key} ${mimeType}`);
      // COPY's text format unescapes the doubled backslash: the column gets bytea's \x hex prefix.
      await database.copyRows('media_bytes', ['key', 'bytes', 'mime_type'], `${key}\t\\\\x${bytes.toString('hex')}\t${mimeType}\n`);
    },
    async get(key) {
      const [row] = await db
        .select({ base64: sql<string>`encode(${mediaBytes.bytes}, 'base64')` })
        .from(mediaBytes)
        .where(eq(mediaBytes.key, key));
      // encode() breaks its base64 into lines; Buffer.from skips the line breaks.
      return row ? Buffer.from(row.base64, 'base64') : null;
    },
    async delete(key) {
      await db.delete(mediaBytes).where(eq(mediaBytes.key, key));
    },
  };
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
  const send = (key: string, init: RequestInit) => client.fetch(urlOf(key), { ...init, signal: AbortSignal.timeout(timeoutMs) });

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
    async get(key) {
      const response = await send(key, { method: 'GET' });
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) return fail(response, 'GET');
      return Buffer.from(await response.arrayBuffer());
    },
    async delete(key) {
      const response = await send(key, { method: 'DELETE' });
      if (!response.ok && response.status !== 404) await fail(response, 'DELETE');
      await response.body?.cancel();
    },
  };
}
