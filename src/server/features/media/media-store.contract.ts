import { randomBytes, randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { MediaStore } from './media-store';

/**
 * What every media store does (media-store.ts), run against the database back end and the S3 back end
 * (media-store.int.test.ts). `getStore` is read in each test, so a store made in a hook can be passed.
 */
export function runMediaStoreContract(getStore: () => MediaStore) {
  const keyOf = () => `contract/${randomUUID()}`;

  it('keeps bytes under a key and gives the same bytes back', async () => {
    const store = getStore();
    const key = keyOf();
    // Every byte value, and more than one network packet's worth.
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(200_000)]);
    await store.put(key, bytes, 'application/pdf');
    const read = await store.get(key);
    expect(read).toBeInstanceOf(Buffer);
    expect(read!.equals(bytes)).toBe(true);
  });

  it('answers null for a key never written', async () => {
    expect(await getStore().get(keyOf())).toBeNull();
  });

  it('deletes a key, and deleting a missing key does nothing', async () => {
    const store = getStore();
    const key = keyOf();
    await store.put(key, Buffer.from('hello'), 'text/plain');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key);
    await store.delete(keyOf());
  });

  it('keeps keys apart', async () => {
    const store = getStore();
    const [a, b] = [keyOf(), keyOf()];
    await store.put(a, Buffer.from('first'), 'text/plain');
    await store.put(b, Buffer.from('second'), 'text/plain');
    await store.delete(a);
    expect((await store.get(b))?.toString()).toBe('second');
  });
}
