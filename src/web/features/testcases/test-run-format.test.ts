import { describe, expect, it } from 'vitest';
import { formatRunDuration, formatRunSummary, markLines, stepInputLabel } from './test-run-format';

describe('the Tests screen formats', () => {
  it('reads a run as passed of total and its time', () => {
    expect(formatRunSummary({ total: 20, passed: 18, durationMs: 1234 })).toBe('18 of 20 passed · 1.2 s');
    expect(formatRunDuration(340)).toBe('340 ms');
    expect(formatRunDuration(12_600)).toBe('13 s');
  });

  it('names the first step the dial and the others by what was typed', () => {
    expect(stepInputLabel('', 0)).toBe('Dial');
    expect(stepInputLabel('2', 1)).toBe('Reply “2”');
    expect(stepInputLabel('', 2)).toBe('Reply (empty)');
  });

  it('marks the line a failed step names, counting from 1', () => {
    expect(markLines('Welcome\n1. Balance\n2. Exit', 2)).toEqual([
      { text: 'Welcome', isDifferent: false },
      { text: '1. Balance', isDifferent: true },
      { text: '2. Exit', isDifferent: false },
    ]);
    expect(markLines('Welcome').every((line) => !line.isDifferent)).toBe(true);
  });
});
