import { RE2Set } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  compileOwnRegExp,
  compileRegExp,
  createMenuRegExpBudget,
  estimateRegExpSize,
  quoteRegExp,
  REGEXP_LIMITS,
  REGEXP_MESSAGES,
  type CompiledRegExp,
} from './regexp';

function compile(pattern: string): CompiledRegExp {
  const compiled = compileRegExp(pattern);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled;
}

const errorOf = (pattern: string) => {
  const compiled = compileRegExp(pattern);
  return 'error' in compiled ? compiled.error : null;
};

describe('compileRegExp', () => {
  it('matches like a JavaScript test(): unanchored unless the pattern anchors itself', () => {
    expect(compile('^\\d{4}$').test('1234')).toBe(true);
    expect(compile('^\\d{4}$').test('12345')).toBe(false);
    expect(compile('\\d{4}').test('pin 12345')).toBe(true);
    expect(compile('^(yes|no)$').test('no')).toBe(true);
    expect(compile('^233\\d{9}$').test('233241234567')).toBe(true);
    expect(compile('^[\\w.+-]+@[\\w-]+\\.[a-z]{2,}$').test('ama@example.com')).toBe(true);
    expect(compile('(?<code>\\d{3})-(?P<rest>\\d{4})').test('555-1234')).toBe(true);
    // RE2 matches code points, with or without the u flag.
    expect(compile('^.$').test('😀')).toBe(true);
    expect(compile('^\\pL+$').test('Kwésí')).toBe(true);
  });

  it('reads /pattern/flags literals with i, m, s and u; g and y make it plain text', () => {
    expect(compile('/^yes$/i').test('YES')).toBe(true);
    expect(compile('/^yes$/').test('YES')).toBe(false);
    expect(compile('/^b$/m').test('a\nb')).toBe(true);
    expect(compile('/^b$/').test('a\nb')).toBe(false);
    expect(compile('/a.b/s').test('a\nb')).toBe(true);
    expect(compile('/a.b/').test('a\nb')).toBe(false);
    expect(compile('/^é$/iu').test('É')).toBe(true);
    expect(compile('/a/g').test('x/a/g')).toBe(true);
    expect(compile('/a/g').test('a')).toBe(false);
  });

  it('matches the pattern that froze the old engine against 512 characters and returns', () => {
    // `^(\w|\d)*$` against 31 characters took JavaScript's backtracking engine about 10 s.
    const regexp = compile('^(\\w|\\d)*$');
    expect(regexp.test(`${'a1'.repeat(255)}!`)).toBe(false);
    expect(regexp.test('a1'.repeat(256))).toBe(true);
    expect(compile('(a|a)*$').test(`${'a'.repeat(511)}!`)).toBe(true);
    expect(compile('^(a+)+$').test(`${'a'.repeat(511)}!`)).toBe(false);
  });

  it('refuses what RE2 cannot run, saying why', () => {
    expect(errorOf('(a)\\1')).toBe(REGEXP_MESSAGES.backreference);
    expect(errorOf('(?<x>a)\\k<x>')).toBe(REGEXP_MESSAGES.backreference);
    expect(errorOf('^(?=.*\\d).{8,}$')).toBe(REGEXP_MESSAGES.lookahead);
    expect(errorOf('^a(?!b)')).toBe(REGEXP_MESSAGES.lookahead);
    expect(errorOf('(?<=a)b')).toBe(REGEXP_MESSAGES.lookbehind);
    expect(errorOf('(?<!a)b')).toBe(REGEXP_MESSAGES.lookbehind);
    expect(errorOf('\\u00e9')).toBe(REGEXP_MESSAGES.unicodeEscape);
    expect(compile('\\x{e9}').test('é')).toBe(true);
    expect(errorOf('([a-z]')).toBe('Invalid regular expression: missing closing ): `([a-z]`');
    expect(errorOf('a{1001}')).toMatch(/^Invalid regular expression: invalid repeat count/);
  });

  it(`refuses patterns over ${REGEXP_LIMITS.maxLength} characters and programs over ${REGEXP_LIMITS.maxSize} steps`, () => {
    // One character class: 500 characters, a few steps.
    const longest = `[${'a'.repeat(REGEXP_LIMITS.maxLength - 2)}]`;
    expect(errorOf(longest)).toBeNull();
    expect(errorOf(`${longest}b`)).toBe(REGEXP_MESSAGES.tooLong);
    expect(errorOf(`/${longest}/i`)).toBeNull();
    expect(errorOf('^[a-z]{1,240}$')).toBeNull();
    expect(errorOf('^\\w{600}$')).toMatch(
      /^This regular expression is too large: its repetitions expand to about 60\d steps \(at most 500\)/,
    );
    // Refused from the estimate, before RE2 spends a second expanding it.
    expect(errorOf('\\pL{1000}'.repeat(55))).toMatch(/^This regular expression is too large: its repetitions expand to about 55055 steps/);
  });

  it('takes each pattern from the menu budget, and refuses the one that does not fit', () => {
    const budget = createMenuRegExpBudget();
    const first = compileRegExp('^[a-z]{1,220}$', budget);
    expect('size' in first && first.size).toBeGreaterThan(400);
    expect(budget.remaining).toBe(REGEXP_LIMITS.maxMenuSize - (first as CompiledRegExp).size);
    expect('size' in compileRegExp('^[0-9]{1,220}$', budget)).toBe(true);
    const third = compileRegExp('^[0-9]{1,100}$', budget);
    expect('error' in third && third.error).toMatch(/^The regular expressions of this menu are too large together/);
    expect('size' in compileRegExp('^\\d{4}$', budget)).toBe(true);
  });
});

describe('estimateRegExpSize', () => {
  it('stays near the size RE2 compiles to', () => {
    const patterns = [
      '^\\d{10}$',
      '^(\\w|\\d)*$',
      '^[A-Za-z ]{2,50}$',
      '^(?:0|[1-9]\\d{0,2})(?:,\\d{3})*(?:\\.\\d{1,2})?$',
      '(?:[a-z0-9]{200}|\\w{197}|.{196})',
      '((a{10}){10}){10}',
      '[[:alpha:]]{30}',
      '(?i)[a-z]{100}',
      '\\x{e9}{50}',
      '\\p{Greek}{40}',
      '[]a]{20}',
      '\\Qa{9}\\E',
      '(a|b|c)+?',
      'a{2,}',
    ];
    for (const pattern of patterns) {
      const set = new RE2Set();
      set.add(pattern);
      set.compile();
      const size = set.prog.numInst();
      const estimate = estimateRegExpSize(pattern);
      expect(estimate, pattern).toBeGreaterThanOrEqual(size / 2);
      expect(estimate, pattern).toBeLessThanOrEqual(size * 2 + 10);
    }
  });
});

describe('compileOwnRegExp', () => {
  it('captures with leftmost-first lazy groups, as JavaScript would', () => {
    const regexp = compileOwnRegExp(`^${quoteRegExp('M.')}(.*?)0(.*?)$`);
    expect(regexp.exec('M.1020')?.slice(1)).toEqual(['1', '20']);
    expect(regexp.exec('MX1020')).toBeNull();
  });
});
