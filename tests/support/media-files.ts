import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * Real files of each kind, built byte by byte for tests and benches (no fixtures in the repository): a PNG any
 * viewer opens, a baseline JPEG header, a PDF, and a PNG whose header claims more pixels than it holds.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return pngChunk('IHDR', ihdr);
}

/**
 * A valid RGB PNG of `width` × `height`, black, or every channel `fill` (0-255). `noise` fills it with
 * pseudo-random pixels, which deflate cannot shrink: a 1290 × 1290 noisy PNG is about 5 MB, the most WhatsApp
 * takes of an image.
 */
export function makePng(width = 1, height = 1, options: { noise?: boolean; fill?: number } = {}): Buffer {
  const row = 1 + width * 3;
  const raw = options.noise ? randomBytes(row * height) : Buffer.alloc(row * height, options.fill ?? 0);
  // Each row's filter byte: 0 (none).
  for (let i = 0; i < raw.length; i += row) raw[i] = 0;
  return Buffer.concat([PNG_SIGNATURE, pngHeader(width, height), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A PNG header claiming `width` × `height` pixels with a few bytes of data: a decompression bomb's shape. */
export function makePngBomb(width = 100_000, height = 100_000): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    pngHeader(width, height),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A baseline JPEG's start: SOI, a JFIF APP0 segment and a frame header (SOF0) for `width` × `height`, then EOI. */
export function makeJpeg(width = 2, height = 2): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof0 = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
}

/** A one-page PDF with one line of text. */
export function makePdf(text = 'Receipt'): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R >> endobj',
      `4 0 obj << /Length ${text.length + 30} >> stream`,
      `BT /F1 12 Tf 10 50 Td (${text}) Tj ET`,
      'endstream endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n'),
  );
}
