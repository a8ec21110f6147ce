import { describe, expect, it } from 'vitest';
import { readAtMost, readLocation, toContactText, toShownMessage } from './connector-media';
import { MediaDownloadError } from './whatsapp-connector';

/** Chunks of `size` bytes, counting how many were pulled and whether the reader let go (cancelled) early. */
function countedChunks(count: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const chunks: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          if (seen.pulled >= count) return { done: true, value: undefined };
          seen.pulled += 1;
          return { done: false, value: new Uint8Array(size).fill(seen.pulled) };
        },
        async return() {
          seen.cancelled = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { chunks, seen };
}

describe('readAtMost', () => {
  it('gives every byte when they fit, up to exactly the limit', async () => {
    const { chunks, seen } = countedChunks(3, 4);
    const bytes = await readAtMost(chunks, 12, 'The file');
    expect([...bytes]).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    expect(seen).toEqual({ pulled: 3, cancelled: false });
  });

  it('stops at the first chunk past the limit and lets the stream go', async () => {
    const { chunks, seen } = countedChunks(1000, 4);
    const failed = await readAtMost(chunks, 10, 'The video').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(MediaDownloadError);
    expect(failed).toMatchObject({ reason: 'too_large', message: 'The video is larger than the 10 bytes allowed' });
    expect(seen).toEqual({ pulled: 3, cancelled: true });
  });
});

describe('readLocation', () => {
  it('reads a place on the globe, numbers or numeric strings, with its name and address when given', () => {
    expect(readLocation(5.6037, -0.187, ' Accra Mall ', '')).toEqual({
      kind: 'location',
      text: '',
      location: { latitude: 5.6037, longitude: -0.187, name: 'Accra Mall' },
    });
    expect(readLocation('-90', '180')).toEqual({ kind: 'location', text: '', location: { latitude: -90, longitude: 180 } });
  });

  it('reads a place off the globe, or no number at all, as unsupported, saying why', () => {
    for (const [latitude, longitude] of [
      [90.0001, 0],
      [0, -180.5],
      [Number.NaN, 0],
      [Number.POSITIVE_INFINITY, 0],
      ['', 0],
      [null, 0],
      [undefined, undefined],
      ['12abc', 3],
    ]) {
      const read = readLocation(latitude, longitude);
      expect(read).toEqual({
        kind: 'unsupported',
        text: '',
        unsupportedReason: expect.stringMatching(/^a location off the globe \(latitude /),
      });
    }
  });
});

describe('toContactText and toShownMessage', () => {
  it('writes shared cards as a name and a number a line, cards a blank line apart; a card without a name starts with its number', () => {
    expect(
      toContactText([
        { name: 'Kofi', phones: ['+233201112222', '+233302223333'] },
        { name: '', phones: ['+233244445555'] },
      ]),
    ).toBe('Kofi\n+233201112222\n+233302223333\n\n+233244445555');
  });

  it('sends what the connector shows as it is, and anything else as its text', () => {
    const shows = new Set(['text', 'media'] as const);
    const link = { type: 'link' as const, body: 'Pay here', button: 'Pay', url: 'https://pay.example/1' };
    expect(toShownMessage(link, shows)).toEqual({ type: 'text', text: 'Pay here\nPay: https://pay.example/1' });
    const text = { type: 'text' as const, text: 'Hi' };
    expect(toShownMessage(text, shows)).toBe(text);
  });
});
