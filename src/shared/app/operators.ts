/**
 * The comparison rules shared by navigation (switch operations) and input validation.
 *
 * One implementation serves the menu form (is this compare value usable?), the server (refuse a bad
 * menu) and the engine (does this input match?). A comparison is compiled once, when an app version is
 * compiled, so the hot path never re-parses a number list or a regular expression.
 *
 * Common rule: numbers compare as numbers when both sides are numeric ("10" > "9"); otherwise text
 * compares as text, code point by code point, case-sensitively. Inputs and compare values are trimmed.
 */
import { compileRegExp, type RegExpBudget } from './regexp';

export const NAVIGATION_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'valueIn',
  'valueNotIn',
  'startsWith',
  'endsWith',
  'contains',
  'regexp',
  'notRegexp',
  'between',
  'notBetween',
  'isSet',
  'isEmpty',
] as const;
export type NavigationOperator = (typeof NAVIGATION_OPERATORS)[number];

/** The Always goto rule is stored as a switch operation with this operator. */
export const ALWAYS_OPERATOR = 'always';
export const SWITCH_OPERATORS = [...NAVIGATION_OPERATORS, ALWAYS_OPERATOR] as const;
export type SwitchOperator = (typeof SWITCH_OPERATORS)[number];

export const VALIDATION_METHODS = [
  'isAlpha',
  'isNumeric',
  'gte',
  'lte',
  'lt',
  'eq',
  'valueIn',
  'valueNotIn',
  'startsWith',
  'endsWith',
  'regexp',
  'notRegexp',
  'between',
  'contains',
  'notBetween',
  'javascript',
] as const;
export type ValidationMethod = (typeof VALIDATION_METHODS)[number];

/** Labels for the navigation form's operator dropdown. */
export const OPERATOR_LABELS: Record<SwitchOperator, string> = {
  eq: 'equal to',
  neq: 'not equal to',
  gt: 'greater than',
  gte: 'greater than or equal to',
  lt: 'less than',
  lte: 'less than or equal to',
  valueIn: 'value in',
  valueNotIn: 'value not in',
  startsWith: 'starts with',
  endsWith: 'ends with',
  contains: 'contains',
  regexp: 'matches regexp',
  notRegexp: 'does not match regexp',
  between: 'between',
  notBetween: 'not between',
  isSet: 'is set',
  isEmpty: 'is empty',
  always: 'always',
};

/**
 * Labels for the validation form's method dropdown: each method carries its own label (a list that reused
 * gte's label for lt and lte would mislabel them). isAlpha is labelled alphanumeric: it accepts letters and digits.
 */
export const VALIDATION_METHOD_LABELS: Record<ValidationMethod, string> = {
  isAlpha: 'alphanumeric',
  isNumeric: 'numeric',
  gte: 'greater than or equal to',
  lte: 'less than or equal to',
  lt: 'less than',
  eq: 'equal to',
  valueIn: 'value in',
  valueNotIn: 'value not in',
  startsWith: 'starts with',
  endsWith: 'ends with',
  regexp: 'matches regexp',
  notRegexp: 'does not match regexp',
  between: 'between',
  contains: 'contains',
  notBetween: 'not between',
  javascript: 'javascript',
};

/** Every operator a comparison can use: navigation operators, always, and the validation type checks. */
export type ComparisonOperator = SwitchOperator | Exclude<ValidationMethod, 'javascript'>;

export type Comparison = { ok: true; test: (input: string) => boolean } | { ok: false; error: string };

export const COMPARE_MESSAGES = {
  required: 'Enter a value to compare with.',
  list: 'Enter a value or a comma-separated list, e.g. 1 or 1,2,3.',
  range: 'Enter two numbers as low,high, e.g. 1,10.',
  rangeOrder: 'The low number must not be greater than the high number.',
} as const;

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const ALPHANUMERIC = /^[\p{L}\p{N}]+$/u;

/** Numeric text per the shared rule: optional sign, digits, optional decimals. `"1e3"` is text. */
export function isNumericText(value: string): boolean {
  return NUMERIC.test(value.trim());
}

function toNumber(value: string): number | null {
  const text = value.trim();
  return NUMERIC.test(text) ? Number(text) : null;
}

/** Equality under the shared rule: `"01"` equals `"1"`, `"abc"` equals only `"abc"`. */
export function isSameValue(a: string, b: string): boolean {
  const x = toNumber(a);
  const y = toNumber(b);
  if (x !== null && y !== null) return x === y;
  return a.trim() === b.trim();
}

/**
 * Order under the shared rule: numbers by value, text by code point; a number against text has no
 * order (null), so `gte 10` never passes for "abc".
 */
function compareOrder(input: string, other: string, otherNumber: number | null): number | null {
  const x = toNumber(input);
  if (otherNumber !== null) return x === null ? null : x - otherNumber;
  if (x !== null && toNumber(other) !== null) return x - Number(other.trim());
  if (x !== null) return null;
  const a = input.trim();
  const b = other.trim();
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Splits `1,2,3` into trimmed items; an empty item makes the list invalid. */
export function parseValueList(compareVal: string): string[] | null {
  const items = compareVal.split(',').map((item) => item.trim());
  return items.some((item) => item === '') ? null : items;
}

/** Parses `low,high` (inclusive) into numbers. */
export function parseRange(compareVal: string): { low: number; high: number } | { error: string } {
  const items = compareVal.split(',');
  if (items.length !== 2) return { error: COMPARE_MESSAGES.range };
  const low = toNumber(items[0]);
  const high = toNumber(items[1]);
  if (low === null || high === null) return { error: COMPARE_MESSAGES.range };
  if (low > high) return { error: COMPARE_MESSAGES.rangeOrder };
  return { low, high };
}

/**
 * Compiles `input <operator> compareVal` into a test. The form calls it to check a compare value, the
 * engine to run one. Families:
 *
 * - always: matches every input. `{ operator: 'always' }`
 * - presence (navigation only, for contact fields mostly): `isSet` matches a value that is not blank, `isEmpty` a
 *   blank one. The compare value is ignored.
 * - type checks (validation only): `isAlpha` letters and digits only ("Kofi2" passes, "Kofi 2" fails);
 *   `isNumeric` a plain number ("-12.5" passes, "1e3" fails). The compare value is ignored.
 * - equality: `eq 1` matches "1" and "01"; `neq yes` matches anything but "yes".
 * - order: `gt 10` matches "11"; `lte 5` matches "5" and "-2"; text orders as text (`gte b` matches "c");
 *   a number never orders against text.
 * - membership: `valueIn 1,2,3` matches "2"; `valueNotIn 1,2` matches "3"; a single value is a list of one.
 * - text: `startsWith 233`, `endsWith #`, `contains bank`; case-sensitive.
 * - pattern: `regexp ^\d{10}$` or `regexp /^yes$/i` (RE2 syntax, see regexp.ts); `notRegexp` is its negation.
 *   `regexps` is the menu's size budget for patterns (createMenuRegExpBudget), shared by its comparisons.
 * - range: `between 1,10` matches "1" to "10" inclusive; `notBetween 1,10` matches numbers outside it.
 *   A non-numeric input matches neither.
 */
export function compileComparison(operator: ComparisonOperator, compareVal: string, regexps?: RegExpBudget): Comparison {
  const value = compareVal.trim();
  switch (operator) {
    case 'always':
      return { ok: true, test: () => true };
    case 'isAlpha':
      return { ok: true, test: (input) => ALPHANUMERIC.test(input.trim()) };
    case 'isNumeric':
      return { ok: true, test: (input) => isNumericText(input) };
    case 'isSet':
      return { ok: true, test: (input) => input.trim() !== '' };
    case 'isEmpty':
      return { ok: true, test: (input) => input.trim() === '' };
  }
  if (value === '') return { ok: false, error: COMPARE_MESSAGES.required };
  switch (operator) {
    case 'eq':
      return { ok: true, test: (input) => isSameValue(input, value) };
    case 'neq':
      return { ok: true, test: (input) => !isSameValue(input, value) };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const n = toNumber(value);
      const accept = ORDER_TESTS[operator];
      return {
        ok: true,
        test: (input) => {
          const order = compareOrder(input, value, n);
          return order !== null && accept(order);
        },
      };
    }
    case 'valueIn':
    case 'valueNotIn': {
      const items = parseValueList(value);
      if (!items) return { ok: false, error: COMPARE_MESSAGES.list };
      const isIn = (input: string) => items.some((item) => isSameValue(input, item));
      return { ok: true, test: operator === 'valueIn' ? isIn : (input) => !isIn(input) };
    }
    case 'startsWith':
      return { ok: true, test: (input) => input.trim().startsWith(value) };
    case 'endsWith':
      return { ok: true, test: (input) => input.trim().endsWith(value) };
    case 'contains':
      return { ok: true, test: (input) => input.includes(value) };
    case 'regexp':
    case 'notRegexp': {
      const regexp = compileRegExp(value, regexps);
      if ('error' in regexp) return { ok: false, error: regexp.error };
      const expected = operator === 'regexp';
      return { ok: true, test: (input) => regexp.test(input.trim()) === expected };
    }
    case 'between':
    case 'notBetween': {
      const range = parseRange(value);
      if ('error' in range) return { ok: false, error: range.error };
      const inside = operator === 'between';
      return {
        ok: true,
        test: (input) => {
          const x = toNumber(input);
          return x !== null && (x >= range.low && x <= range.high) === inside;
        },
      };
    }
  }
}

const ORDER_TESTS: Record<'gt' | 'gte' | 'lt' | 'lte', (order: number) => boolean> = {
  gt: (order) => order > 0,
  gte: (order) => order >= 0,
  lt: (order) => order < 0,
  lte: (order) => order <= 0,
};
