import { describe, expect, it } from 'vitest';
import { cleanInput, findOptionLabel } from './input';

describe('cleanInput', () => {
  it('trims and drops control characters, U+FFFD and lone surrogates', () => {
    expect(cleanInput('  1 ', 512)).toEqual({ value: '1', isTruncated: false });
    expect(cleanInput('a\u0000b\u0007\r\n\uFFFDc\uD800d\uDC00', 512)).toEqual({ value: 'abcd', isTruncated: false });
    expect(cleanInput('😀', 512).value).toBe('😀');
  });

  it('cuts a long input without splitting a surrogate pair', () => {
    const big = cleanInput('A'.repeat(1 << 20), 512);
    expect(big).toEqual({ value: 'A'.repeat(512), isTruncated: true });
    const emoji = cleanInput(`x${'😀'.repeat(600)}`, 512);
    expect(emoji.isTruncated).toBe(true);
    expect(emoji.value).toBe(`x${'😀'.repeat(255)}`);
  });

  it('treats a non-string as empty', () => {
    expect(cleanInput(undefined, 512)).toEqual({ value: '', isTruncated: false });
    expect(cleanInput({ toString: () => 'x' }, 512).value).toBe('');
  });
});

describe('findOptionLabel', () => {
  const screen = 'Welcome\n1. Airtime\n2) Data bundles\n 10 . Ten\n12. Twelve';
  it('reads `2. Data` and `2) Data` lines', () => {
    expect(findOptionLabel(screen, '1')).toBe('Airtime');
    expect(findOptionLabel(screen, '2')).toBe('Data bundles');
    expect(findOptionLabel(screen, '10')).toBe('Ten');
    expect(findOptionLabel(screen, '12')).toBe('Twelve');
  });
  it('does not confuse 1 with 12 or find a missing option', () => {
    expect(findOptionLabel('12. Twelve', '1')).toBeNull();
    expect(findOptionLabel(screen, '3')).toBeNull();
    expect(findOptionLabel(screen, '')).toBeNull();
    expect(findOptionLabel('a.b. x', 'a.b')).toBe('x');
  });
});
