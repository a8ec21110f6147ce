import { describe, expect, it } from 'vitest';
import { sortLogsByLevel, sortLogsByTime } from './log-order';
import type { LogEntry } from './logs.api';

const line = (id: number, time: string, logLevel: string, message: string): LogEntry => ({
  id,
  time,
  logLevel,
  message,
  pluginActionMenu: '-:-:-',
  data: null,
});

// A session's lines as the server may answer them in any order; the start and the end share a millisecond.
const T = '2026-11-27T10:00:00.000Z';
const started = line(10, T, 'system', 'Session started for 233200000001');
const ran = line(11, '2026-11-27T10:00:00.400Z', 'info', 'greet ran');
const failed = line(9, '2026-11-27T09:59:59.000Z', 'error', 'an earlier failure');
const ended = line(12, '2026-11-27T10:00:00.400Z', 'system', 'Session ended');

describe('log order', () => {
  it('the Log View reads by time, the id breaking a tie: a session starts above its end', () => {
    expect(sortLogsByTime([ended, ran, started, failed]).map((l) => l.id)).toEqual([9, 10, 11, 12]);
    const sameInstant = [line(2, T, 'system', 'Session ended'), line(1, T, 'system', 'Session started')];
    expect(sortLogsByTime(sameInstant).map((l) => l.message)).toEqual(['Session started', 'Session ended']);
  });

  it('the Table View reads by level ascending, and by time within a level', () => {
    expect(sortLogsByLevel([ended, failed, ran, started]).map((l) => l.id)).toEqual([10, 12, 11, 9]);
  });

  it('leaves the given list as it was', () => {
    const given = [ended, started];
    sortLogsByTime(given);
    sortLogsByLevel(given);
    expect(given).toEqual([ended, started]);
  });
});
