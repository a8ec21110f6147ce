import { describe, expect, it } from 'vitest';
import { isoToZonedTime, zonedTimeToIso } from './campaign-time';

describe('zonedTimeToIso', () => {
  it("reads a wall time in the campaign's zone, not the browser's", () => {
    expect(zonedTimeToIso('2026-12-01T09:30', 'Africa/Lagos')).toBe('2026-12-01T08:30:00.000Z');
    expect(zonedTimeToIso('2026-12-01T09:30', 'Africa/Accra')).toBe('2026-12-01T09:30:00.000Z');
    expect(zonedTimeToIso('2026-12-01T09:30', 'Asia/Kolkata')).toBe('2026-12-01T04:00:00.000Z');
  });

  it('takes the offset of the day itself across a clock change', () => {
    expect(zonedTimeToIso('2026-07-01T12:00', 'Europe/London')).toBe('2026-07-01T11:00:00.000Z');
    expect(zonedTimeToIso('2026-12-01T12:00', 'Europe/London')).toBe('2026-12-01T12:00:00.000Z');
    // 01:30 does not exist on 29 March 2026 in London: an hour later.
    expect(zonedTimeToIso('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses what is no time or no zone', () => {
    expect(zonedTimeToIso('tomorrow', 'UTC')).toBeNull();
    expect(zonedTimeToIso('2026-12-01T09:30', 'Mars/Olympus')).toBeNull();
  });

  it('gives back the wall time it read', () => {
    expect(isoToZonedTime('2026-12-01T08:30:00.000Z', 'Africa/Lagos')).toBe('2026-12-01T09:30');
  });
});
