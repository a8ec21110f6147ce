import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACTION_RESULTS,
  DEFAULT_SESSION_VALUES,
  formatOutput,
  formatTerminalText,
  parseJsonObject,
  parseTestInputs,
  toTerminalLines,
} from './custom-action-test-run';

describe('custom action test inputs', () => {
  it('the defaults are objects: mobile empty, sample inputs, a REST result with status true', () => {
    const parsed = parseTestInputs(DEFAULT_SESSION_VALUES, DEFAULT_ACTION_RESULTS);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.inputs.sessionValues).toMatchObject({ mobile: '', inputs: { amount: '20' } });
    expect(parsed.inputs.actionResults).toMatchObject({ lookup: { status: true } });
  });

  it('refuses text that is not a JSON object, and says which', () => {
    expect(parseJsonObject('{"a": 1')).toBeNull();
    expect(parseJsonObject('[1, 2]')).toBeNull();
    expect(parseJsonObject('3')).toBeNull();
    expect(parseJsonObject('')).toEqual({});
    expect(parseTestInputs('{}', 'nope')).toEqual({ ok: false, isSessionBad: false, isResultsBad: true });
  });
});

describe('terminal lines', () => {
  const now = new Date(2024, 0, 2, 9, 5, 7);

  it('lists each console message by kind, then the output pretty-printed', () => {
    const lines = toTerminalLines(
      {
        output: { fee: 0.5 },
        consoleMessages: [
          { message: 'hi', type: 'info' },
          { message: 'x', type: 'debug' },
        ],
      },
      now,
    );
    expect(lines.map((l) => [l.time, l.kind, l.text])).toEqual([
      ['09:05:07', 'info', 'hi'],
      ['09:05:07', 'debug', 'x'],
      ['09:05:07', 'output', '{\n  "fee": 0.5\n}'],
    ]);
    expect(formatTerminalText(lines).split('\n')[0]).toBe('[09:05:07] INFO hi');
  });

  it('a script error shows the error line and no null output', () => {
    const lines = toTerminalLines({ output: null, consoleMessages: [{ message: 'ReferenceError: x is not defined', type: 'error' }] }, now);
    expect(lines.map((l) => l.kind)).toEqual(['error']);
  });

  it('prints undefined for a function that returns nothing', () => {
    expect(formatOutput(undefined)).toBe('undefined');
    expect(formatOutput('text')).toBe('"text"');
  });
});
