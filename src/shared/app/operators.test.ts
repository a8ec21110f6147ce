import { describe, expect, it } from 'vitest';
import {
  COMPARE_MESSAGES,
  NAVIGATION_OPERATORS,
  OPERATOR_LABELS,
  VALIDATION_METHODS,
  VALIDATION_METHOD_LABELS,
  compileComparison,
  type ComparisonOperator,
} from './operators';
import { REGEXP_MESSAGES } from './regexp';

function matches(operator: ComparisonOperator, compareVal: string, input: string): boolean {
  const comparison = compileComparison(operator, compareVal);
  if (!comparison.ok) throw new Error(comparison.error);
  return comparison.test(input);
}

describe('operator and method lists', () => {
  it('are exactly the product lists, in their order', () => {
    // Pinned on purpose, in the order the dropdowns show them (docs/runtime.md): a change here is a product change.
    expect(NAVIGATION_OPERATORS.join(' ')).toBe(
      'eq neq gt gte lt lte valueIn valueNotIn startsWith endsWith contains regexp notRegexp between notBetween isSet isEmpty',
    );
    expect(VALIDATION_METHODS.join(' ')).toBe(
      'isAlpha isNumeric gte lte lt eq valueIn valueNotIn startsWith endsWith regexp notRegexp between contains notBetween javascript',
    );
  });

  it('labels lt and lte correctly (the source list repeated gte) and isAlpha as alphanumeric', () => {
    expect(VALIDATION_METHOD_LABELS.lt).toBe('less than');
    expect(VALIDATION_METHOD_LABELS.lte).toBe('less than or equal to');
    expect(VALIDATION_METHOD_LABELS.gte).toBe('greater than or equal to');
    expect(VALIDATION_METHOD_LABELS.isAlpha).toBe('alphanumeric');
    expect(new Set(Object.values(VALIDATION_METHOD_LABELS)).size).toBe(VALIDATION_METHODS.length);
    expect(new Set(Object.values(OPERATOR_LABELS)).size).toBe(Object.keys(OPERATOR_LABELS).length);
  });
});

describe('compileComparison', () => {
  it('compares numbers as numbers only when both sides are numeric', () => {
    expect(matches('eq', '1', '01')).toBe(true);
    expect(matches('gt', '9', '10')).toBe(true);
    expect(matches('gt', 'b', 'c')).toBe(true);
    expect(matches('gt', '10', 'abc')).toBe(false);
    expect(matches('lt', 'abc', '5')).toBe(false);
    expect(matches('gte', '-1.5', '-1.5')).toBe(true);
  });

  it('takes valueIn as one value or a list', () => {
    expect(matches('valueIn', '1', '1')).toBe(true);
    expect(matches('valueIn', '1,2,3', '3')).toBe(true);
    expect(matches('valueNotIn', '1,2,3', '4')).toBe(true);
    expect(compileComparison('valueIn', '1,,2')).toEqual({ ok: false, error: COMPARE_MESSAGES.list });
  });

  it('takes between as low,high inclusive', () => {
    expect(matches('between', '1,10', '10')).toBe(true);
    expect(matches('notBetween', '1,10', '10')).toBe(false);
    expect(compileComparison('between', '10')).toEqual({ ok: false, error: COMPARE_MESSAGES.range });
    expect(compileComparison('between', 'a,b')).toEqual({ ok: false, error: COMPARE_MESSAGES.range });
    expect(compileComparison('between', '10,1')).toEqual({ ok: false, error: COMPARE_MESSAGES.rangeOrder });
  });

  it('compiles regular expressions (RE2, see regexp.test.ts), literal flags included', () => {
    expect(matches('regexp', '/^yes$/i', 'YES')).toBe(true);
    expect(matches('notRegexp', '^\\d+$', '12')).toBe(false);
    expect(matches('regexp', '^\\d{4}$', ' 1234 ')).toBe(true);
    const invalid = compileComparison('regexp', '([a-z]');
    expect(invalid.ok).toBe(false);
    expect(!invalid.ok && invalid.error).toMatch(/^Invalid regular expression/);
    // Ambiguous alternations the old backtracking check let through run in linear time now.
    expect(matches('regexp', '^(\\w|\\d)*$', `${'a'.repeat(511)}!`)).toBe(false);
    expect(compileComparison('regexp', '(a)\\1')).toEqual({ ok: false, error: REGEXP_MESSAGES.backreference });
    // Stateful flags (g, y) would make one input match on alternate hops, so `/a/g` is read as plain text.
    expect(matches('regexp', '/a/g', 'x/a/g')).toBe(true);
    expect(matches('regexp', '/a/g', 'a')).toBe(false);
  });

  it('needs a compare value except for always and the type checks', () => {
    expect(compileComparison('eq', '  ')).toEqual({ ok: false, error: COMPARE_MESSAGES.required });
    expect(matches('always', '', 'anything')).toBe(true);
    expect(matches('isAlpha', '', 'Ama2')).toBe(true);
    expect(matches('isAlpha', '', 'Ama 2')).toBe(false);
    expect(matches('isAlpha', '', 'Kwésí')).toBe(true);
    expect(matches('isNumeric', '', '.5')).toBe(true);
    expect(matches('isNumeric', '', '1,000')).toBe(false);
  });
});
