import { describe, expect, it } from 'vitest';
import { makeJpeg, makePdf, makePng } from '../../../../tests/support/media-files';
import { normalizeMimeType, readImageDimensions, sniffMimeType } from './media-type';

/** The Compound File Binary signature the old Office formats share, and enough of a header after it. */
const compoundFile = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(1024)]);

describe('sniffMimeType', () => {
  it('reads the type from the bytes, and takes other names of it as the same claim', async () => {
    expect(await sniffMimeType(makePng(), 'image/png')).toEqual({ mimeType: 'image/png' });
    expect(await sniffMimeType(makeJpeg(), 'image/jpg')).toEqual({ mimeType: 'image/jpeg' });
    expect(await sniffMimeType(makePdf(), 'application/octet-stream')).toEqual({ mimeType: 'application/pdf' });
    expect(await sniffMimeType(makePdf())).toEqual({ mimeType: 'application/pdf' });
  });

  it('reports a claim the bytes contradict', async () => {
    expect(await sniffMimeType(makePng(), 'application/pdf')).toEqual({ forged: { claimed: 'application/pdf', actual: 'image/png' } });
    expect(await sniffMimeType(Buffer.from('plain words'), 'application/pdf')).toEqual({
      forged: { claimed: 'application/pdf', actual: 'text/plain' },
    });
  });

  it('takes text without a signature as text/plain, any text claim included, and nothing else without one', async () => {
    expect(await sniffMimeType(Buffer.from('name,total\nAma,10\n'), 'text/csv')).toEqual({ mimeType: 'text/plain' });
    expect(await sniffMimeType(Buffer.from('Akwaaba ✓\r\n\tbye'))).toEqual({ mimeType: 'text/plain' });
    expect(await sniffMimeType(Buffer.from([0x41, 0x00, 0x42]))).toEqual({ unknown: true });
    expect(await sniffMimeType(Buffer.from([0xc3, 0x28, 0x41]))).toEqual({ unknown: true });
  });

  it('names an old Office file by its claim or its extension, and refuses another claim for it', async () => {
    expect(await sniffMimeType(compoundFile, 'application/msword')).toEqual({ mimeType: 'application/msword' });
    expect(await sniffMimeType(compoundFile, undefined, 'Budget.XLS')).toEqual({ mimeType: 'application/vnd.ms-excel' });
    expect(await sniffMimeType(compoundFile, 'application/pdf')).toEqual({
      forged: { claimed: 'application/pdf', actual: 'application/x-cfb' },
    });
    expect(await sniffMimeType(compoundFile)).toEqual({ mimeType: 'application/x-cfb' });
  });
});

describe('normalizeMimeType', () => {
  it('drops parameters and case, resolves aliases, and reads an unknown claim as none', () => {
    expect(normalizeMimeType('Audio/OGG; codecs=opus')).toBe('audio/ogg');
    expect(normalizeMimeType('audio/x-m4a')).toBe('audio/mp4');
    expect(normalizeMimeType('application/octet-stream')).toBeNull();
    expect(normalizeMimeType(undefined)).toBeNull();
  });
});

describe('readImageDimensions', () => {
  it("reads the header's size without decoding, and null for a damaged header", () => {
    expect(readImageDimensions(makePng(300, 200))).toEqual({ width: 300, height: 200 });
    expect(readImageDimensions(makeJpeg(640, 480))).toEqual({ width: 640, height: 480 });
    expect(readImageDimensions(makePng().subarray(0, 12))).toBeNull();
  });
});
