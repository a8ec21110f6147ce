/**
 * Splitting a long screen into pages. A page that is not the last ends with `98. More`; typing 98
 * shows the next page. Lengths are counted as the network carries the screen (src/shared/ussd-encoding.ts).
 */
import { fitScreenUnits, gsmSeptets, measureScreen, type ScreenMeasure, type UssdEncoding } from '../shared/ussd-encoding';

export const NEXT_PAGE_INPUT = '98';
export const MORE_LINE = `${NEXT_PAGE_INPUT}. More`;

/** `98. Plus` for an app whose French `more` label is `Plus`. */
export const toMoreLine = (label: string) => `${NEXT_PAGE_INPUT}. ${label}`;

/**
 * How a screen's length is counted: `ussd` as the network carries it, `chat` in UTF-16 units (a WhatsApp message
 * carries any text, so it has no encoding to fit).
 */
export type ScreenCarrier = 'ussd' | 'chat';

/** A screen's measure: measureScreen's on USSD; UTF-16 units against the limit in a chat (no characters to blame). */
export function measureFor(text: string, limit: number, carrier: ScreenCarrier): ScreenMeasure {
  return carrier === 'ussd' ? measureScreen(text, limit) : { encoding: 'UCS-2', length: text.length, limit, nonGsm: [], lookAlikes: {} };
}

/** A text's length in a screen encoding's units (src/shared/ussd-encoding.ts). */
function unitsOf(text: string, encoding: UssdEncoding): number {
  if (encoding === 'UCS-2') return text.length;
  let septets = 0;
  for (const char of text) septets += gsmSeptets(char) || 1;
  return septets;
}

/**
 * Pages cut to the screen's encoding: a GSM-7 screen to the app's limit in septets (an extension character takes two),
 * a UCS-2 one (a letter outside GSM-7 anywhere in it) to the UCS-2 characters that limit holds, 70 for 160. Every page
 * of a screen keeps the screen's encoding: a page is never longer than the network carries.
 * @example paginateScreen('Pick:\n1. A\n2. B', 160) // ['Pick:\n1. A\n2. B']
 * paginateScreen(longText, 160) // ['...\n98. More', '...\n98. More', '...']
 * paginateScreen(longText, 160, toMoreLine('Plus')) // ['...\n98. Plus', ...]
 */
export function paginateScreen(text: string, limit: number, moreLine: string = MORE_LINE, carrier: ScreenCarrier = 'ussd'): string[] {
  const { encoding, length, limit: max } = measureFor(text, limit, carrier);
  if (length <= max) return [text];
  const budget = max - unitsOf(moreLine, encoding) - 1;
  const pages: string[] = [];
  let rest = text;
  while (unitsOf(rest, encoding) > max) {
    const cut = findPageCut(rest, fitScreenUnits(rest, budget, encoding));
    pages.push(`${rest.slice(0, cut).trimEnd()}\n${moreLine}`);
    rest = rest.slice(cut).replace(/^\n+/, '');
  }
  pages.push(rest);
  return pages;
}

/**
 * The end of the longest run of whole lines within `end` (the index the budget reaches); a single overlong line is
 * cut at a space, else at `end` (which never splits a surrogate pair).
 */
function findPageCut(text: string, end: number): number {
  const lineBreak = text.lastIndexOf('\n', end);
  if (lineBreak > 0) return lineBreak;
  const space = text.lastIndexOf(' ', end);
  if (space > end / 2) return space + 1;
  return end;
}

/** For an END screen, which cannot page: whole lines within the limit, else whole words, else a hard cut. */
export function truncateScreen(text: string, limit: number, carrier: ScreenCarrier = 'ussd'): string {
  const { encoding, length, limit: max } = measureFor(text, limit, carrier);
  if (length <= max) return text;
  const end = fitScreenUnits(text, max, encoding);
  const lineBreak = text.lastIndexOf('\n', end);
  if (lineBreak > end / 2) return text.slice(0, lineBreak).trimEnd();
  const space = text.lastIndexOf(' ', end);
  if (space > end / 2) return text.slice(0, space).trimEnd();
  return text.slice(0, end);
}
