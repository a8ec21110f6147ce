import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';

/**
 * What a file is, read from its bytes (docs/media.md, Types): never what its sender says. file-type knows each
 * format by its signature; two cases have none it can read, and are decided here:
 *
 * - Text has no signature. Bytes with none are taken as `text/plain` when they are UTF-8 with no control
 *   characters but tab, line breaks and form feed; anything else without a signature is not recognised.
 * - The old Office formats (.doc, .xls, .ppt) are all one container (Compound File Binary): its signature says
 *   "an Office file" but not which. The sender's claim (or the file name's extension) picks one of the three; a
 *   claim of any other type for such a file is a forgery like any other.
 */

/** Other names senders and file-type give WhatsApp's types (`image/jpg`, `audio/x-m4a`, Opus in Ogg). */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/mp3': 'audio/mpeg',
  'audio/opus': 'audio/ogg',
  'audio/x-aac': 'audio/aac',
  'application/vnd.ms-word': 'application/msword',
};

/** The claims that say nothing: a sender that does not know the type. */
const UNKNOWN_CLAIMS = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

const COMPOUND_FILE = 'application/x-cfb';
const OFFICE_COMPOUND_TYPES: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** A MIME type as compared: lower case, parameters dropped, aliases resolved; null for a claim that says nothing. */
export function normalizeMimeType(mimeType: string | undefined): string | null {
  const bare = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (UNKNOWN_CLAIMS.has(bare)) return null;
  return ALIASES[bare] ?? bare;
}

export type SniffResult =
  /** `mimeType` is what the bytes are. */
  | { mimeType: string }
  /** The bytes are a type other than the one claimed. */
  | { forged: { claimed: string; actual: string } }
  /** No signature, and not text. */
  | { unknown: true };

/** What `bytes` are, checked against what the sender claimed (`claimed`) and the file's name. */
export async function sniffMimeType(bytes: Buffer, claimedMimeType?: string, fileName?: string): Promise<SniffResult> {
  const claimed = normalizeMimeType(claimedMimeType);
  const detected = await fileTypeFromBuffer(bytes);
  let actual: string;
  if (!detected) {
    if (!isPlainText(bytes)) return { unknown: true };
    actual = 'text/plain';
    // Any text claim (text/csv, text/markdown) is text; a claim of a binary type is not.
    if (claimed?.startsWith('text/')) return { mimeType: actual };
  } else if (detected.mime === COMPOUND_FILE) {
    const officeTypes = Object.values(OFFICE_COMPOUND_TYPES);
    if (claimed && officeTypes.includes(claimed)) return { mimeType: claimed };
    const extension = fileName?.split('.').pop()?.toLowerCase() ?? '';
    const byName = OFFICE_COMPOUND_TYPES[extension];
    if (!claimed && byName) return { mimeType: byName };
    actual = COMPOUND_FILE;
  } else {
    actual = normalizeMimeType(detected.mime) ?? detected.mime;
  }
  if (claimed && claimed !== actual) return { forged: { claimed, actual } };
  return { mimeType: actual };
}

/** UTF-8 with no control characters but tab, line feed, carriage return and form feed. */
function isPlainText(bytes: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
}

/**
 * An image's width and height from its header alone, before anything decodes it (the decompression-bomb check:
 * a few KB of PNG can claim 100000 × 100000 pixels, 40 GB once decoded). Null when the header cannot be read.
 */
export function readImageDimensions(bytes: Buffer): { width: number; height: number } | null {
  try {
    const { width, height } = imageSize(bytes);
    return Number.isFinite(width) && Number.isFinite(height) ? { width, height } : null;
  } catch {
    return null;
  }
}
