/**
 * Reading a dial string. After the app's own code it carries either template-tag values
 * (`*920*{merchantCode}*{amount}#` dialled as `*920*12*50#` sets merchantCode=12, amount=50) or, when the
 * app's code has no tags, inputs to replay one by one (`*920*7#` dialled as `*920*7*1*2#` replays 1 then 2).
 */

type DialSegment = { literal: string } | { pattern: RegExp; names: string[] };

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
      source += escapeRegExp(part.slice(last, match.index)) + '(.*?)';
      names.push(match[1]);
      last = match.index + match[0].length;
    }
    if (names.length === 0) return { literal: part };
    return { pattern: new RegExp(`^${source}${escapeRegExp(part.slice(last))}$`), names };
  });
  return { segments, hasTags: segments.some((s) => 'pattern' in s) };
}

export interface DialReading {
  vars: Record<string, string>;
  inputs: string[];
}

export function readDialString(pattern: DialPattern, dialString: string | undefined, maxInputs: number): DialReading {
  const reading: DialReading = { vars: {}, inputs: [] };
  if (!dialString || pattern.segments.length === 0) return reading;
  const parts = splitDialString(dialString.slice(0, 1000), pattern.segments.length + maxInputs);
  for (let i = 0; i < pattern.segments.length; i++) {
    const segment = pattern.segments[i];
    const part = parts[i];
    if (part === undefined) return reading;
    if ('literal' in segment) {
      if (part !== segment.literal) return { vars: {}, inputs: [] };
      continue;
    }
    const match = segment.pattern.exec(part);
    if (!match) return { vars: {}, inputs: [] };
    segment.names.forEach((name, j) => {
      reading.vars[name] = match[j + 1].slice(0, MAX_TAG_VALUE);
    });
  }
  if (!pattern.hasTags) {
    reading.inputs = parts.slice(pattern.segments.length, pattern.segments.length + maxInputs).filter((p) => p !== '');
  }
  return reading;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
