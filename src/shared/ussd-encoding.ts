/**
 * How a USSD screen travels: in the GSM 7-bit alphabet when every character is in it (an app's screen limit, 160
 * by default and at most 182, counts its septets; the extension characters `^{}\[~]|€` take two), else the whole
 * screen goes as UCS-2, two octets a character, which holds less than half as much: the limit's octets
 * (limit x 7 / 8) over two, 70 for 160 and 80 for 182. One letter of Twi, Ewe, Ga, Yoruba, Hausa or Igbo outside
 * the alphabet (ɛ, ɔ, ŋ, ƙ, ɗ, ẹ, ṣ, ₦), a curly quote or an emoji switches a screen. The engine's pagination and
 * lint, the designer's counter and the flow map measure with this one function (GSM 03.38 / 3GPP TS 23.038).
 */

/** GSM 03.38's default alphabet: one septet each. */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** Its extension table: an escape and the character, two septets each. */
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

/**
 * GSM look-alikes a builder may choose instead of a character that forces UCS-2 (the words change: offered, never
 * applied on their own).
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  ɛ: 'e',
  Ɛ: 'E',
  ɔ: 'o',
  Ɔ: 'O',
  ŋ: 'n',
  Ŋ: 'N',
  ƙ: 'k',
  Ƙ: 'K',
  ɗ: 'd',
  Ɗ: 'D',
  ɓ: 'b',
  Ɓ: 'B',
  ƴ: 'y',
  ẹ: 'e',
  Ẹ: 'E',
  ọ: 'o',
  Ọ: 'O',
  ṣ: 's',
  Ṣ: 'S',
  ń: 'n',
  á: 'a',
  í: 'i',
  ó: 'o',
  ú: 'u',
  â: 'a',
  ê: 'e',
  ô: 'o',
  ū: 'u',
  '₦': 'N',
  '₵': 'GHS',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '…': '...',
  '\u00a0': ' ',
};

export type UssdEncoding = 'GSM-7' | 'UCS-2';

export interface ScreenMeasure {
  encoding: UssdEncoding;
  /** The screen's length as its encoding counts it: septets in GSM-7, UTF-16 units (two octets each) in UCS-2. */
  length: number;
  /** The limit that applies in that encoding. */
  limit: number;
  /** The characters that made it UCS-2, each once, in order of appearance (none for GSM-7). */
  nonGsm: string[];
  /** For those of them that have one, a GSM look-alike. */
  lookAlikes: Record<string, string>;
}

/** The UCS-2 characters a screen limit (in septets) holds: its octets over two. */
export const toUcs2Limit = (septetLimit: number): number => Math.floor(Math.floor((septetLimit * 7) / 8) / 2);

/** The septets a GSM-7 character takes: 1, 2 for an extension character, 0 for one outside the alphabet. */
export function gsmSeptets(char: string): number {
  if (GSM_BASIC.has(char)) return 1;
  return GSM_EXTENSION.has(char) ? 2 : 0;
}

/**
 * A screen's encoding, length and the limit that applies, for an app's screen limit (septets).
 * @example measureScreen('Akwaaba! Pick:\n1. Balance', 160) // { encoding: 'GSM-7', length: 25, limit: 160, ... }
 * @example measureScreen('Wo ho yɛ?', 160) // { encoding: 'UCS-2', length: 9, limit: 70, nonGsm: ['ɛ'], lookAlikes: { ɛ: 'e' } }
 */
export function measureScreen(text: string, septetLimit: number): ScreenMeasure {
  let septets = 0;
  const nonGsm: string[] = [];
  // By code point: an emoji is one character to show, two UTF-16 units to send.
  for (const char of text) {
    const weight = gsmSeptets(char);
    if (weight === 0) {
      if (!nonGsm.includes(char)) nonGsm.push(char);
    } else septets += weight;
  }
  if (nonGsm.length === 0) return { encoding: 'GSM-7', length: septets, limit: septetLimit, nonGsm, lookAlikes: {} };
  const lookAlikes: Record<string, string> = {};
  for (const char of nonGsm) if (LOOK_ALIKES[char] !== undefined) lookAlikes[char] = LOOK_ALIKES[char]!;
  return { encoding: 'UCS-2', length: text.length, limit: toUcs2Limit(septetLimit), nonGsm, lookAlikes };
}

/**
 * How much of `text` fits `budget` units of the screen's encoding, from its start: the number of UTF-16 units to
 * take (never half a surrogate pair). GSM-7 counts an extension character as two; UCS-2 counts UTF-16 units.
 */
export function fitScreenUnits(text: string, budget: number, encoding: UssdEncoding): number {
  if (encoding === 'UCS-2') {
    if (text.length <= budget) return text.length;
    const code = text.charCodeAt(budget - 1);
    return code >= 0xd800 && code <= 0xdbff ? budget - 1 : budget;
  }
  let used = 0;
  let index = 0;
  for (const char of text) {
    const weight = gsmSeptets(char) || 1;
    if (used + weight > budget) break;
    used += weight;
    index += char.length;
  }
  return index;
}

/**
 * A UCS-2 screen's reasons in words, for the lint and the designer: the characters that forced it, quoted (at most
 * `most`, then "and N more"), and the look-alikes offered ('ɛ → e, ɔ → o'; '' when none).
 */
export function describeNonGsm(measure: Pick<ScreenMeasure, 'nonGsm' | 'lookAlikes'>, most = Number.POSITIVE_INFINITY) {
  const { nonGsm, lookAlikes } = measure;
  const shown = nonGsm.slice(0, most).map((c) => JSON.stringify(c));
  const because = `${shown.join(', ')}${nonGsm.length > most ? ` and ${nonGsm.length - most} more` : ''}`;
  const swaps = Object.entries(lookAlikes)
    .map(([from, to]) => `${from} → ${to}`)
    .join(', ');
  return { because, swaps };
}

/**
 * `text` with the look-alikes a builder chose put in place of the characters they stand for (the designer's "Use GSM
 * look-alikes"). Only those given change; a character with no look-alike (a combining tone mark, an emoji) stays.
 * @example applyLookAlikes('Wo ho yɛ? ₦50', { ɛ: 'e', '₦': 'N' }) // 'Wo ho ye? N50'
 */
export function applyLookAlikes(text: string, lookAlikes: Readonly<Record<string, string>>): string {
  let out = '';
  for (const char of text) out += lookAlikes[char] ?? char;
  return out;
}
