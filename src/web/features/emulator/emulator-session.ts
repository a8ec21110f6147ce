/**
 * Pure rules of an emulator session (spec 000 sections 4 and 9), kept apart from React so they are unit-tested.
 */

/** Spec section 9: log and debug polling. */
export const POLL_INTERVAL_MS = 2500;
/** Spec section 9: after a reply the menu display modal is hidden and shown again this long after. */
export const MODAL_REOPEN_DELAY_MS = 500;
/** Spec section 9: a Ghana-format msisdn when the user has not stored a `dialerMobile`. */
export const DEFAULT_MSISDN = '233241234567';
/** Spec section 9: the network sent with every emulator request. */
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
 * The emulator's session id: the local time formatted yyyyMMddHHmmss (spec section 4).
 * Example: `formatSessionId(new Date(2024, 0, 31, 9, 5, 7))` -> `'20240131090507'`.
 */
export function formatSessionId(date: Date): string {
  return `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
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

/** Spec section 8: what the modal shows, as an ended session, when the emulator call fails. */
export function toEmulatorErrorText(detail: string): string {
  return `Error making webservice call : ${detail}`;
}

/** The menu display modal shows the response text one line per row (spec: Menu display modal). */
export function splitMenuLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/**
 * The template route's returnUrl becomes the home link (spec section 2); an empty value when none is given.
 * Only a path on this site is accepted, so a crafted link cannot send the visitor elsewhere.
 */
export function toSafeReturnUrl(value: string | null): string {
  if (!value) return '';
  const trimmed = value.trim();
  if (!trimmed.startsWith('/') || trimmed.startsWith('//') || trimmed.includes('\\')) return '';
  return trimmed;
}

/** The msisdn typed in the debug panel: digits with an optional leading +. */
export function toMsisdn(value: string): string {
  const trimmed = value.trim();
  return (trimmed.startsWith('+') ? '+' : '') + trimmed.replace(/\D/g, '').slice(0, 15);
}
