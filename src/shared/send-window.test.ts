import { describe, expect, it } from 'vitest';
import { isInSendWindow, readWindowTime } from './send-window';

describe('a campaign send window', () => {
  const accra = { sendWindow: { from: '08:00', to: '20:00' }, timeZone: 'Africa/Accra' };
  const nairobi = { sendWindow: { from: '08:00', to: '20:00' }, timeZone: 'Africa/Nairobi' };

  it('is read on the clock of its time zone: from inclusive, to exclusive', () => {
    expect(isInSendWindow(accra, new Date('2026-01-02T08:00:00Z'))).toBe(true);
    expect(isInSendWindow(accra, new Date('2026-01-02T07:59:00Z'))).toBe(false);
    expect(isInSendWindow(accra, new Date('2026-01-02T20:00:00Z'))).toBe(false);
    // 18:30 in Accra is 21:30 in Nairobi (UTC+3).
    expect(isInSendWindow(nairobi, new Date('2026-01-02T18:30:00Z'))).toBe(false);
    expect(readWindowTime(new Date('2026-01-02T18:30:00Z'), 'Africa/Nairobi')).toBe('21:30');
  });

  it('without a window, every hour is in it', () => {
    expect(isInSendWindow({ sendWindow: null, timeZone: 'UTC' }, new Date('2026-01-02T03:00:00Z'))).toBe(true);
  });
});
