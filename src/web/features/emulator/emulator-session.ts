/**
 * Pure rules of an emulator session (docs/product.md, Emulator), kept apart from React so they are unit-tested.
 */

/** Log and debug polling. */
export const POLL_INTERVAL_MS = 2500;
/** After a reply the menu display modal is hidden and shown again this long after. */
export const MODAL_REOPEN_DELAY_MS = 500;
/** A Ghana-format msisdn when the user has not stored a `dialerMobile`. */
export const DEFAULT_MSISDN = '233241234567';
/** The network sent with every emulator request. */
export const DEFAULT_NETWORK = 'MTN';
/** Longest string the number display takes; a USSD string is at most 182 characters, a dialled code far less. */
export const MAX_DIAL_LENGTH = 40;

/** The dial pad's keys in the order they are drawn, with the letters printed under 2-9. */
export const DIAL_KEYS = [
  { key: '1', letters: '' },
  { key: '2', letters: 'ABC' },
  { key: '3', letters: 'DEF' },
  { key: '4', letters: 'GHI' },
  { key: '5', letters: 'JKL' },
  { key: '6', letters: 'MNO' },
  { key: '7', letters: 'PQRS' },
  { key: '8', letters: 'TUV' },
  { key: '9', letters: 'WXYZ' },
  { key: '*', letters: '' },
  { key: '0', letters: '' },
  { key: '#', letters: '' },
] as const;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The local time formatted yyyyMMddHHmmss: the readable start of a session id.
 * Example: `formatSessionId(new Date(2024, 0, 31, 9, 5, 7))` -> `'20240131090507'`.
 */
export function formatSessionId(date: Date): string {
  return `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/**
 * A new emulator session id: the dial's local time then 128 random bits (base64url), so the id
 * still says when it was dialled but cannot be guessed from the time. (The server also binds each session to
 * its caller, so even a known id reaches nothing of anyone else's.)
 * Example: `createSessionId(new Date(2024, 0, 31, 9, 5, 7))` -> `'20240131090507-q3V0xYbK2m9dT1fZrA8LwQ'`.
 */
export function createSessionId(date: Date, random: Uint8Array = crypto.getRandomValues(new Uint8Array(16))): string {
  const base64 = btoa(String.fromCharCode(...random));
  return `${formatSessionId(date)}-${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** The characters a dial pad can type: digits, * and #. `toDialDigits(' *920*13# ')` -> `'*920*13#'`. */
export function toDialDigits(value: string): string {
  return value.replace(/[^0-9*#]/g, '').slice(0, MAX_DIAL_LENGTH);
}

export const isDialKey = (key: string) => /^[0-9*#]$/.test(key);

/** A USSD string: starts with *, ends with #, digits and * between (deep dials such as `*920*55*1#` too). */
export function isUssdCode(value: string): boolean {
  return /^\*[0-9*]*[0-9][0-9*]*#$/.test(value);
}

/** What the modal shows, as an ended session, when the emulator call fails. */
export function toEmulatorErrorText(detail: string): string {
  return `Error making webservice call : ${detail}`;
}

/** The menu display modal shows the response text one line per row. */
export function splitMenuLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** The msisdn typed in the debug panel: digits with an optional leading +. */
export function toMsisdn(value: string): string {
  const trimmed = value.trim();
  return (trimmed.startsWith('+') ? '+' : '') + trimmed.replace(/\D/g, '').slice(0, 15);
}
