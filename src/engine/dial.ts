/**
 * Reading a dial string. After the app's own code it carries either template-tag values
 * (`*920*{merchantCode}*{amount}#` dialled as `*920*12*50#` sets merchantCode=12, amount=50) or, when the
 * app's code has no tags, inputs to replay one by one (`*920*7#` dialled as `*920*7*1*2#` replays 1 then 2).
 */
import { compileOwnRegExp, quoteRegExp } from '../shared/app';

// RE2, not RegExp: a segment with several tags (`{a}0{b}0{c}`) is several lazy groups, which JavaScript's
// engine would backtrack through for seconds on a 1000-character part.
type DialSegment = { literal: string } | { pattern: ReturnType<typeof compileOwnRegExp>; names: string[] };

export interface DialPattern {
  segments: DialSegment[];
  hasTags: boolean;
}

const TAG = /\{([A-Za-z_$][A-Za-z0-9_$]*)\}/g;
/** A tag value is a short code, an amount, an account: never a document. */
const MAX_TAG_VALUE = 64;

function splitDialString(dial: string, maxParts: number): string[] {
  const body = dial.trim().replace(/^\*+/, '').replace(/#+$/, '');
  if (body === '') return [];
  // Bounded split: a thousand `*` must not become a thousand parts.
  return body.split('*', maxParts);
}

export function compileDialPattern(shortCode: string): DialPattern {
  const segments = splitDialString(shortCode, 50).map((part): DialSegment => {
    const names: string[] = [];
    let source = '';
    let last = 0;
    for (const match of part.matchAll(TAG)) {
      source += `${quoteRegExp(part.slice(last, match.index))}(.*?)`;
      names.push(match[1]);
      last = match.index + match[0].length;
    }
    if (names.length === 0) return { literal: part };
    return { pattern: compileOwnRegExp(`^${source}${quoteRegExp(part.slice(last))}$`), names };
  });
  return { segments, hasTags: segments.some((s) => 'pattern' in s) };
}

export interface DialReading {
  vars: Record<string, string>;
  inputs: string[];
}

/**
 * Matches the code's segments against a dial string's parts, in order, until the parts run out: the tag values
 * read and how many segments were dialled, or null when a dialled part is not the code's.
 */
function matchSegments(pattern: DialPattern, parts: string[]): { vars: Record<string, string>; dialled: number } | null {
  const vars: Record<string, string> = {};
  let dialled = 0;
  for (const segment of pattern.segments) {
    const part = parts[dialled];
    if (part === undefined) break;
    if ('literal' in segment) {
      if (part !== segment.literal) return null;
    } else {
      const match = segment.pattern.exec(part);
      if (!match) return null;
      segment.names.forEach((name, j) => {
        vars[name] = (match[j + 1] ?? '').slice(0, MAX_TAG_VALUE);
      });
    }
    dialled++;
  }
  return { vars, dialled };
}

export function readDialString(pattern: DialPattern, dialString: string | undefined, maxInputs: number): DialReading {
  const reading: DialReading = { vars: {}, inputs: [] };
  if (!dialString || pattern.segments.length === 0) return reading;
  const parts = splitDialString(dialString.slice(0, 1000), pattern.segments.length + maxInputs);
  const match = matchSegments(pattern, parts);
  if (!match) return reading;
  reading.vars = match.vars;
  if (!pattern.hasTags && match.dialled === pattern.segments.length) {
    reading.inputs = parts.slice(pattern.segments.length, pattern.segments.length + maxInputs).filter((p) => p !== '');
  }
  return reading;
}

/**
 * True when a dialled string reaches the app whose code compiled to `pattern`: every fixed part of the code is
 * dialled as written, each template tag's part (when dialled) fits its tag, and whatever follows is deep-dial
 * input. An app without a code answers to any string. For `*920*55#`: `*920*55#` and `*920*55*1*2#` are its,
 * `*920#`, `*920*5#` and `*1#` are not; for `*920*{merchant}*{amount}#`, `*920*12*50#` and `*920*12#` are.
 */
export function isDialOfApp(pattern: DialPattern, dialString: string): boolean {
  if (pattern.segments.length === 0) return true;
  const match = matchSegments(pattern, splitDialString(dialString.slice(0, 1000), pattern.segments.length));
  return match !== null && pattern.segments.slice(match.dialled).every((segment) => !('literal' in segment));
}

/**
 * The dial string an app would see had it been dialled on its own code, for traffic that reached it through
 * another code (a rented shortcode extension): `rest` is what was dialled after that code. The app's fixed parts
 * up to its first template tag stand in for the code that was dialled, so `rest` fills the tags in order and
 * anything after them is deep-dial input, exactly as on the app's own code.
 *
 * Example: app `*920*{merchant}*{amount}#`, rest ['12', '50'] -> `*920*12*50#` (merchant=12, amount=50);
 * app `*920*55#`, rest ['1', '2'] -> `*920*55*1*2#` (inputs 1 then 2); rest [] -> the app's own fixed parts.
 */
export function extendDialOfApp(pattern: DialPattern, rest: readonly string[]): string {
  const firstTag = pattern.segments.findIndex((segment) => !('literal' in segment));
  const fixed = pattern.segments.slice(0, firstTag === -1 ? pattern.segments.length : firstTag) as { literal: string }[];
  const parts = [...fixed.map((segment) => segment.literal), ...rest];
  return parts.length === 0 ? '' : `*${parts.join('*')}#`;
}
