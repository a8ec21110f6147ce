/**
 * What every connector does the same way with files, places and contact cards (docs/whatsapp-connectors.md,
 * "Media"): read a download no further than its limit, read a shared location (refusing one off the globe), write
 * a shared contact card as text, and send a message the connector cannot show as its text.
 */
import { isValidLocation, type ContactCard, type LocationRef } from '../../shared/media';
import { toPlainText, type ChatMessageRead, type WhatsAppMessage } from '../../shared/whatsapp';
import { MediaDownloadError, type WhatsAppMessageType } from './whatsapp-connector';

/**
 * The bytes of a download, at most `maxBytes` of them: past that it rejects with `too_large` and stops reading (the
 * stream is cancelled at the first chunk over the limit, so no more than one chunk past it is ever read).
 * @example await readAtMost(response.body, 5 * 1024 * 1024, 'The image') // a 6 MB body rejects after 5 MB and a chunk
 */
export async function readAtMost(chunks: AsyncIterable<Uint8Array>, maxBytes: number, what: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    // Leaving the loop by a throw calls the iterator's return(): the stream is cancelled, nothing more is read.
    if (size > maxBytes) throw tooLarge(what, maxBytes);
    parts.push(chunk);
  }
  return Buffer.concat(parts, size);
}

/** The error of a file over its limit, for a connector that knows the size before reading (and then reads nothing). */
export function tooLarge(what: string, maxBytes: number): MediaDownloadError {
  return new MediaDownloadError('too_large', `${what} is larger than the ${maxBytes} bytes allowed`);
}

/** What a shared location reads as: the place, or, off the globe (latitude past ±90, longitude past ±180), unsupported. */
export type LocationRead = Pick<ChatMessageRead, 'kind' | 'text' | 'location' | 'unsupportedReason'>;

/**
 * A location a user shared, from the numbers its connector gave. Coordinates that are not numbers on the globe make
 * the message unsupported (the server logs why and answers it without the bot): never a place a rule would read.
 * @example readLocation(5.6037, -0.187, 'Accra Mall') -> { kind: 'location', text: '', location: { latitude: 5.6037, longitude: -0.187, name: 'Accra Mall' } }
 * @example readLocation(91, 0) -> { kind: 'unsupported', text: '', unsupportedReason: 'a location off the globe (latitude 91, longitude 0)' }
 */
export function readLocation(latitude: unknown, longitude: unknown, name?: unknown, address?: unknown): LocationRead {
  const place = { latitude: toCoordinate(latitude), longitude: toCoordinate(longitude) };
  if (!isValidLocation(place)) {
    const reason = `a location off the globe (latitude ${String(latitude)}, longitude ${String(longitude)})`;
    return { kind: 'unsupported', text: '', unsupportedReason: reason };
  }
  const location: LocationRef = { ...place };
  if (typeof name === 'string' && name.trim()) location.name = name.trim();
  if (typeof address === 'string' && address.trim()) location.address = address.trim();
  return { kind: 'location', text: '', location };
}

/** Coordinates come as numbers (Cloud API, Baileys) or numeric strings; anything else is not a coordinate. */
function toCoordinate(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/**
 * Contact cards a user shared, as the text a menu reads: each card as a card the bot sends is written for a screen
 * without cards (its name, then one number a line), cards a blank line apart. A menu asking for a number gets one.
 */
export function toContactText(cards: ContactCard[]): string {
  return cards.map((contact) => toPlainText({ type: 'contact', contact }).trim()).join('\n\n');
}

/** The message as the connector sends it: as it is when it shows that kind, else as its text. */
export function toShownMessage(message: WhatsAppMessage, nativeTypes: ReadonlySet<WhatsAppMessageType>): WhatsAppMessage {
  return nativeTypes.has(message.type) ? message : { type: 'text', text: toPlainText(message) };
}
