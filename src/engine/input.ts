/**
 * A user's input is untrusted: a gateway may pass a megabyte, broken UTF-8 (U+FFFD or lone surrogates),
 * control characters or a thousand `*`. It is cleaned and cut before anything else reads it.
 */

// Lone surrogates (what broken UTF-16 decodes to), C0/C1 control characters, DEL and U+FFFD (what broken
// UTF-8 decodes to). Newlines go too: an input is one line.
const JUNK = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u001F\u007F-\u009F\uFFFD]/g;

export interface CleanInput {
  value: string;
  /** True when something was cut off (not when junk characters were only removed). */
  isTruncated: boolean;
}

/** @example cleanInput('  1\u0000 ', 512) // { value: '1', isTruncated: false } */
export function cleanInput(raw: unknown, maxLength: number): CleanInput {
  if (typeof raw !== 'string') return { value: '', isTruncated: false };
  // Cut first so a 1 MB input costs no more than a short one; keep some slack for removed junk.
  const head = raw.length > maxLength * 2 ? raw.slice(0, maxLength * 2) : raw;
  let value = head.replace(JUNK, '').trim();
  let isTruncated = head.length < raw.length;
  if (value.length > maxLength) {
    const code = value.charCodeAt(maxLength - 1);
    value = value.slice(0, code >= 0xd800 && code <= 0xdbff ? maxLength - 1 : maxLength);
    isTruncated = true;
  }
  return { value, isTruncated };
}

/**
 * The text of the option line the input picked, for `session.inputs.<identifier>Label`.
 * @example findOptionLabel('Buy:\n1. Airtime\n2) Data', '2') // 'Data'
 */
export function findOptionLabel(screen: string, input: string): string | null {
  if (input === '' || input.length > 10) return null;
  for (const line of screen.split('\n')) {
    const text = line.trimStart();
    if (!text.startsWith(input)) continue;
    const rest = text.slice(input.length);
    const match = /^\s*[.)]\s*(.+)$/.exec(rest);
    if (match) return match[1].trim();
  }
  return null;
}
