import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaBytes } from '../../../db/schema';
import { createTestDatabase, describeDb, type TestDatabase } from '../../../../tests/support/test-db';
import { startS3Server, type TestS3Server } from '../../../../tests/support/s3-server';
import { runMediaStoreContract } from './media-store.contract';
import { createDatabaseMediaStore, createS3MediaStore, MEDIA_CHUNK_BYTES, type MediaStore } from './media-store';

const readAll = async (store: MediaStore, key: string, range?: { start: number; end: number }) => {
  const opened = await store.open(key, range);
  return opened && Buffer.concat(await opened.stream.toArray());
};

describeDb('the database media store', () => {
  let testDb: TestDatabase;
  let store: MediaStore;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    store = createDatabaseMediaStore(testDb.database);
  });
  afterAll(() => testDb?.close());
  runMediaStoreContract(() => store);

  it('keeps a file in rows of a chunk each, numbered in order', async () => {
    const bytes = randomBytes(2 * MEDIA_CHUNK_BYTES + 10);
    await store.put('chunks/rows', bytes, 'application/pdf');
    const rows = await testDb.database.db
      .select({ seq: mediaBytes.seq, bytes: mediaBytes.bytes })
      .from(mediaBytes)
      .where(eq(mediaBytes.key, 'chunks/rows'))
      .orderBy(mediaBytes.seq);
    expect(rows.map((row) => [row.seq, row.bytes.length])).toEqual([
      [0, MEDIA_CHUNK_BYTES],
      [1, MEDIA_CHUNK_BYTES],
      [2, 10],
    ]);
  });

  it('stores nothing of a file whose write fails part way', async () => {
    // A row already under the third chunk's place: the first two go in, the third is refused.
    await testDb.database.copyRows('media_bytes', ['key', 'seq', 'bytes', 'mime_type'], 'chunks/half\t2\t\\\\x00\ttext/plain\n');
    await expect(store.put('chunks/half', randomBytes(3 * MEDIA_CHUNK_BYTES), 'application/pdf')).rejects.toThrow();
    const rows = await testDb.database.db.select({ seq: mediaBytes.seq }).from(mediaBytes).where(eq(mediaBytes.key, 'chunks/half'));
    expect(rows).toEqual([{ seq: 2 }]);
  });

  it('reads a file stored in one row before chunks, whole and by a range, a chunk at a time', async () => {
    // As the store wrote it before chunks: one row, `seq` 0 (the migration's default), of any size.
    const bytes = randomBytes(2 * MEDIA_CHUNK_BYTES + 999);
    await testDb.database.copyRows(
      'media_bytes',
      ['key', 'bytes', 'mime_type'],
      `chunks/old\t\\\\x${bytes.toString('hex')}\tapplication/pdf\n`,
    );
    const opened = await store.open('chunks/old');
    expect(opened?.size).toBe(bytes.length);
    const pieces: Buffer[] = await opened!.stream.toArray();
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(MEDIA_CHUNK_BYTES);
    const range = { start: MEDIA_CHUNK_BYTES - 5, end: 2 * MEDIA_CHUNK_BYTES + 5 };
    expect((await readAll(store, 'chunks/old', range))!.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
  });

  it('refuses a range past the end of the file', async () => {
    await store.put('chunks/short', Buffer.from('12345'), 'text/plain');
    await expect(store.open('chunks/short', { start: 2, end: 5 })).rejects.toThrow(RangeError);
  });
});

describe('the S3 media store (against s3rver)', () => {
  let s3: TestS3Server;
  let store: MediaStore;
  beforeAll(async () => {
    s3 = await startS3Server();
    store = createS3MediaStore(s3.settings);
  });
  afterAll(() => s3?.close());
  runMediaStoreContract(() => store);

  it('throws when the server is down', async () => {
    const down = createS3MediaStore({ ...s3.settings, endpoint: 'http://127.0.0.1:1' });
    await expect(down.put('x/down', Buffer.from('a'), 'text/plain')).rejects.toThrow();
    await expect(down.open('x/down')).rejects.toThrow();
  });
});
