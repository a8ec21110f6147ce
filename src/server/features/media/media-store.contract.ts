import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { MEDIA_CHUNK_BYTES, type ByteRange, type MediaStore } from './media-store';

/**
 * What every media store does (media-store.ts), run against the database back end and the S3 back end
 * (media-store.int.test.ts). `getStore` is read in each test, so a store made in a hook can be passed.
 */
export function runMediaStoreContract(getStore: () => MediaStore) {
  const keyOf = () => `contract/${randomUUID()}`;
  /** The bytes `open` streams, and the size it answers; null for a missing key. */
  const read = async (key: string, range?: ByteRange) => {
    const opened = await getStore().open(key, range);
    return opened && { size: opened.size, bytes: Buffer.concat(await opened.stream.toArray()) };
  };

  it('keeps bytes under a key and gives the same bytes back', async () => {
    const store = getStore();
    const key = keyOf();
    // Every byte value, and more than one network packet's worth.
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(200_000)]);
    await store.put(key, bytes, 'application/pdf');
    const opened = await read(key);
    expect(opened?.size).toBe(bytes.length);
    expect(opened!.bytes.equals(bytes)).toBe(true);
  });

  it('gives back a file of several chunks, whole and by ranges across their boundaries', async () => {
    const store = getStore();
    const key = keyOf();
    // Three chunks and a part of one (the database back end's rows), random so that no shift goes unnoticed.
    const bytes = randomBytes(3 * MEDIA_CHUNK_BYTES + 12_345);
    await store.put(key, bytes, 'video/mp4');
    const whole = await read(key);
    expect(whole?.size).toBe(bytes.length);
    expect(whole!.bytes.equals(bytes)).toBe(true);

    const last = bytes.length - 1;
    const ranges: ByteRange[] = [
      { start: 0, end: 0 }, // the first byte
      { start: last, end: last }, // the last byte
      { start: MEDIA_CHUNK_BYTES - 1, end: MEDIA_CHUNK_BYTES }, // the two bytes either side of a boundary
      { start: MEDIA_CHUNK_BYTES, end: 2 * MEDIA_CHUNK_BYTES - 1 }, // exactly the second chunk
      { start: 100, end: 2 * MEDIA_CHUNK_BYTES + 100 }, // across two boundaries
      { start: 3 * MEDIA_CHUNK_BYTES - 7, end: last }, // into the short last chunk, to the end
      { start: 0, end: last },
    ];
    for (const range of ranges) {
      const part = await read(key, range);
      expect(part?.size, `${range.start}-${range.end}`).toBe(bytes.length);
      expect(part!.bytes.equals(bytes.subarray(range.start, range.end + 1)), `${range.start}-${range.end}`).toBe(true);
    }
  });

  it('keeps an empty file: it opens with no bytes', async () => {
    const key = keyOf();
    await getStore().put(key, Buffer.alloc(0), 'text/plain');
    expect(await read(key)).toEqual({ size: 0, bytes: Buffer.alloc(0) });
  });

  it('answers null for a key never written, whole or by a range', async () => {
    expect(await read(keyOf())).toBeNull();
    expect(await read(keyOf(), { start: 0, end: 0 })).toBeNull();
  });

  it('deletes a key, and deleting a missing key does nothing', async () => {
    const store = getStore();
    const key = keyOf();
    await store.put(key, Buffer.from('hello'), 'text/plain');
    await store.delete(key);
    expect(await read(key)).toBeNull();
    await store.delete(key);
    await store.delete(keyOf());
  });

  it('deletes every chunk of a file', async () => {
    const store = getStore();
    const key = keyOf();
    await store.put(key, randomBytes(2 * MEDIA_CHUNK_BYTES + 1), 'application/pdf');
    await store.delete(key);
    expect(await read(key)).toBeNull();
    expect(await read(key, { start: 2 * MEDIA_CHUNK_BYTES, end: 2 * MEDIA_CHUNK_BYTES })).toBeNull();
  });

  it('keeps keys apart', async () => {
    const store = getStore();
    const [a, b] = [keyOf(), keyOf()];
    await store.put(a, Buffer.from('first'), 'text/plain');
    await store.put(b, Buffer.from('second'), 'text/plain');
    await store.delete(a);
    expect((await read(b))?.bytes.toString()).toBe('second');
  });
}
