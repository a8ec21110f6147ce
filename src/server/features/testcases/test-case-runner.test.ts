import { describe, expect, it } from 'vitest';
import { checkScreen } from './test-case-runner';

describe('checkScreen', () => {
  const screen = 'Welcome to the shop\n1. Airtime\n2. Data';

  it('passes a screen that contains the expectation, {*} standing for what varies on a line', () => {
    expect(checkScreen(screen, 'Welcome to the shop')).toEqual({ ok: true });
    expect(checkScreen(screen, '1. Airtime\n2. Data')).toEqual({ ok: true });
    expect(checkScreen('Balance GHS 20.00\n1. Back', 'Balance GHS {*}\n1. Back')).toEqual({ ok: true });
    // A wildcard never spans lines.
    expect(checkScreen(screen, 'Welcome{*}Data').ok).toBe(false);
  });

  it('names the first line the screen lacks, or the first that is there but out of order', () => {
    expect(checkScreen(screen, 'Welcome to the shop\n1. Airtime\n3. SMS')).toEqual({
      ok: false,
      difference: { line: 3, expected: '3. SMS' },
    });
    // Every line is on the screen, but not together in this order: the line that breaks the run is named.
    expect(checkScreen(screen, '2. Data\n1. Airtime')).toEqual({ ok: false, difference: { line: 2, expected: '1. Airtime' } });
    expect(checkScreen(screen, 'Goodbye')).toEqual({ ok: false, difference: { line: 1, expected: 'Goodbye' } });
  });
});
