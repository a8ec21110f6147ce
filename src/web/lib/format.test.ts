import { describe, expect, it } from 'vitest';
import { formatDuration, formatMs } from './format';

describe('formatDuration', () => {
  it('shows a waiting time in its two largest units, dropping a zero second unit', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(90)).toBe('1 min 30 s');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(3_600 + 5 * 60 + 9)).toBe('1 h 5 min');
    expect(formatDuration(3 * 86_400 + 4 * 3_600)).toBe('3 d 4 h');
    expect(formatDuration(86_400 + 59)).toBe('1 d');
    expect(formatDuration(59.6)).toBe('1 min');
  });

  it('shows a dash when nothing was measured', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });
});

describe('formatMs', () => {
  it('reads milliseconds below a second, tenths of a second above, rounded half up; a dash for none', () => {
    expect(formatMs(840)).toBe('840 ms');
    expect(formatMs(3650)).toBe('3.7 s');
    expect(formatMs(15_000)).toBe('15 s');
    expect(formatMs(null)).toBe('—');
  });
});
