/**
 * A builder's regular expression (a `regexp`/`notRegexp` rule or validation) runs on the thread that
 * answers every hop, so it runs on RE2 (re2js, a pure JavaScript port that also runs in the browser):
 * matching time grows linearly with the input whatever the pattern, where JavaScript's backtracking
 * engine took 10 s for `^(\w|\d)*$` against 31 characters. The price is RE2's syntax: no backreferences,
 * no lookahead or lookbehind. Linear is not free, so a pattern is also bounded in length and in the size
 * of the program it compiles to (counted repetitions are expanded: `\w{1000}` is a thousand steps), and
 * the patterns of one menu share a size budget, since one input is matched against all of them.
 *
 * One function compiles a pattern for the designer form, the server (refusing a menu) and the engine.
 */
import { RE2JS, RE2JSSyntaxException, RE2Set } from 're2js';
import { toErrorMessage } from '../errors';

export const REGEXP_LIMITS = {
  /** Characters in a pattern (without the `/.../flags` around a literal). */
  maxLength: 500,
  /** RE2 program size of one pattern (instructions, repetitions expanded). */
  maxSize: 500,
  /** RE2 program size of all the regexp rules and validations of one menu together. */
  maxMenuSize: 1000,
  /**
   * Bytes of RE2's lazily built automaton kept per pattern. Past it RE2 starts the cache again or
   * matches with its NFA, still in linear time; the bound keeps thousands of patterns from holding 8 MB each.
   */
  automatonBytes: 64 * 1024,
} as const;

export const REGEXP_MESSAGES = {
  tooLong: `A regular expression may be at most ${REGEXP_LIMITS.maxLength} characters.`,
  tooLarge: (size: number) =>
    `This regular expression is too large: its repetitions expand to about ${size} steps (at most ${REGEXP_LIMITS.maxSize}). Use smaller counts, e.g. {1,20} rather than {1,500}.`,
  menuTooLarge: (size: number) =>
    `The regular expressions of this menu are too large together: about ${size} steps (at most ${REGEXP_LIMITS.maxMenuSize}). Simplify or remove one.`,
  backreference:
    'Backreferences (\\1, \\k<name>) are not supported: patterns run on RE2, which matches in linear time and cannot refer back to a group.',
  lookahead:
    'Lookahead ((?=...), (?!...)) is not supported: patterns run on RE2, which matches in linear time. Match the text itself instead.',
  lookbehind:
    'Lookbehind ((?<=...), (?<!...)) is not supported: patterns run on RE2, which matches in linear time. Match the text itself instead.',
  unicodeEscape: 'Write a character by its code as \\x{00E9}, not \\u00E9 (RE2 syntax).',
} as const;

/** A compiled pattern: `size` is what it costs against the menu's budget. */
export interface CompiledRegExp {
  test(text: string): boolean;
  size: number;
}

/** What the patterns of one menu may still spend; one per menu, passed to each compile in order. */
export interface RegExpBudget {
  remaining: number;
}

export function createMenuRegExpBudget(): RegExpBudget {
  return { remaining: REGEXP_LIMITS.maxMenuSize };
}

/** A compare value written as /pattern/flags; stateful flags (g, y) are not flags (`/a/g` is plain text). */
const REGEXP_LITERAL = /^\/([\s\S]+)\/([imsu]*)$/;

/** `u` is accepted for JavaScript habits: RE2 always matches by code point. */
const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/**
 * Compiles a builder's pattern: the whole text (`^\d{4}$`) or a literal with flags i, m, s, u (`/^yes$/i`).
 * `budget`, when given, is the menu's: the pattern's size is taken from it, or refused past it.
 * @example compileRegExp('^(\\w|\\d)*$') // { test, size: 8 }; matching 512 characters takes well under a millisecond
 * @example compileRegExp('(a)\\1') // { error: 'Backreferences (\\1, \\k<name>) are not supported: ...' }
 */
export function compileRegExp(compareVal: string, budget?: RegExpBudget): CompiledRegExp | { error: string } {
  const literal = REGEXP_LITERAL.exec(compareVal);
  const source = literal ? literal[1]! : compareVal;
  let flags = 0;
  for (const flag of literal ? literal[2]! : '') flags |= FLAG_BITS[flag]!;
  if (source.length > REGEXP_LIMITS.maxLength) return { error: REGEXP_MESSAGES.tooLong };
  // RE2 expands counted repetitions while it compiles (a 500-character pattern can take 200 ms and
  // 70,000 steps), so an estimate from the text refuses those before RE2 spends the time; the estimate is
  // within a factor of two of RE2's count, hence the slack.
  const estimate = estimateRegExpSize(source);
  if (estimate > REGEXP_LIMITS.maxSize * 4) return { error: REGEXP_MESSAGES.tooLarge(estimate) };
  const set = new RE2Set(RE2Set.UNANCHORED, flags, REGEXP_LIMITS.automatonBytes);
  try {
    set.add(source);
    set.compile();
  } catch (err) {
    return { error: describeSyntaxError(err) };
  }
  const size = set.prog.numInst();
  if (size > REGEXP_LIMITS.maxSize) return { error: REGEXP_MESSAGES.tooLarge(size) };
  if (budget) {
    if (size > budget.remaining) return { error: REGEXP_MESSAGES.menuTooLarge(REGEXP_LIMITS.maxMenuSize - budget.remaining + size) };
    budget.remaining -= size;
  }
  return { test: (text) => set.match(text).length > 0, size };
}

/** RE2's parse errors, with the ones a JavaScript habit causes said plainly. */
function describeSyntaxError(err: unknown): string {
  if (!(err instanceof RE2JSSyntaxException)) return `Invalid regular expression: ${toErrorMessage(err)}`;
  const input = err.input ?? '';
  if (err.error === 'invalid escape sequence' && /^\\([1-9]|k)/.test(input)) return REGEXP_MESSAGES.backreference;
  if (err.error === 'invalid escape sequence' && input.startsWith('\\u')) return REGEXP_MESSAGES.unicodeEscape;
  if (input.startsWith('(?=') || input.startsWith('(?!')) return REGEXP_MESSAGES.lookahead;
  if (input.startsWith('(?<=') || input.startsWith('(?<!')) return REGEXP_MESSAGES.lookbehind;
  return `Invalid regular expression: ${err.message.replace(/^error parsing regexp: /, '')}`;
}

const REPEAT = /^\{(\d+)(,(\d*))?\}/;

/**
 * An estimate, from the text alone, of the RE2 program a pattern compiles to: an atom costs 1, a group
 * what it holds plus 2, `*` `+` `?` 1 more, `x{n,m}` n copies of x and m-n optional ones, `|` 1. It only has to be near RE2's count (compileRegExp checks the real size afterwards) and cheap
 * for any 500 characters; odd syntax it misreads makes RE2 refuse the pattern anyway.
 */
export function estimateRegExpSize(source: string): number {
  // One frame per open group: `sum` holds what is complete, `last` the atom a quantifier would repeat.
  const frames: Array<{ sum: number; last: number }> = [{ sum: 0, last: 0 }];
  let frame = frames[0]!;
  const addAtom = (size: number) => {
    frame.sum += frame.last;
    frame.last = size;
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'Q') {
        // \Q...\E: literal text, each character an atom.
        const end = source.indexOf('\\E', i + 2);
        const stop = end === -1 ? source.length : end;
        addAtom(stop - (i + 2));
        i = end === -1 ? source.length : end + 2;
        continue;
      }
      i += 2;
      // \p{Greek}, \x{263a}: the braces belong to the escape, not to a repetition.
      if ((next === 'p' || next === 'P' || next === 'x') && source[i] === '{') {
        const close = source.indexOf('}', i);
        i = close === -1 ? source.length : close + 1;
      }
      addAtom(1);
    } else if (ch === '[') {
      i = skipCharClass(source, i);
      addAtom(1);
    } else if (ch === '(') {
      frame = { sum: 0, last: 0 };
      frames.push(frame);
      i += 1;
    } else if (ch === ')') {
      if (frames.length > 1) {
        const inner = frame.sum + frame.last + 2;
        frames.pop();
        frame = frames[frames.length - 1]!;
        addAtom(inner);
      }
      i += 1;
    } else if (ch === '|') {
      frame.sum += frame.last + 1;
      frame.last = 0;
      i += 1;
    } else if (ch === '*' || ch === '+' || ch === '?') {
      frame.last += 1;
      i += 1;
    } else if (ch === '{' && REPEAT.test(source.slice(i, i + 12))) {
      const [text, low, comma, high] = REPEAT.exec(source.slice(i, i + 12))!;
      const min = Number(low);
      // x{n,m} is n copies of x and m-n optional ones (a step each); x{n,} is n copies and x*.
      const optional = comma === undefined ? 0 : high === '' ? 1 : Math.max(0, Number(high) - min);
      // Capped so absurd counts stay finite; RE2 refuses counts over 1000 itself.
      frame.last = Math.min(min * frame.last + optional * (frame.last + 1), 1e9);
      i += text.length;
    } else {
      addAtom(1);
      i += 1;
    }
  }
  let size = 0;
  for (let f = frames.length - 1; f >= 0; f--) size = frames[f]!.sum + frames[f]!.last + size;
  return size;
}

/** The index just past a character class `[...]` starting at `start` (`[]a]` and `[[:alpha:]]` included). */
function skipCharClass(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i += 1;
  if (source[i] === ']') i += 1;
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '\\') i += 2;
    else if (source.startsWith('[:', i)) {
      const close = source.indexOf(':]', i + 2);
      i = close === -1 ? i + 1 : close + 2;
    } else i += 1;
  }
  return i + 1;
}

/**
 * Compiles a pattern the code assembles itself from escaped text (the dial-string reader's tag
 * segments), with capture groups: RE2 too, so several lazy groups cannot backtrack.
 * @example compileOwnRegExp(`^M(.*?)$`).exec('M77') // ['M77', '77']
 */
export function compileOwnRegExp(source: string): { exec(text: string): Array<string | undefined> | null } {
  const compiled = RE2JS.compile(source);
  return { exec: (text) => compiled.exec(text) };
}

/** Escapes text for compileOwnRegExp. */
export function quoteRegExp(text: string): string {
  return RE2JS.quote(text);
}
