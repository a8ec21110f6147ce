import { describe, expect, it } from 'vitest';
import { toHourlyRows } from './dashboard-chart';

describe('toHourlyRows', () => {
  const now = new Date('2026-03-02T14:25:00Z');

  it('makes one series per network name: a code and a gateway name for the same operator are one bar', () => {
    const { rows, networks } = toHourlyRows(
      [
        { hour: '2026-03-02T14:00:00Z', network: '62001', sessions: 2 },
        { hour: '2026-03-02T14:00:00Z', network: 'mtn', sessions: 1 },
        { hour: '2026-03-02T13:00:00Z', network: '62002', sessions: 4 },
        { hour: '2026-03-02T13:00:00Z', network: '', sessions: 1 },
      ],
      now,
    );
    expect(networks).toEqual([
      { key: 'n0', name: 'MTN', detail: 'MTN Ghana, network code 62001; Sent by the gateway as "mtn"' },
      { key: 'n1', name: 'Telecel', detail: 'Telecel Ghana (formerly Vodafone), network code 62002' },
      { key: 'n2', name: 'Unknown', detail: 'The gateway did not say which network' },
    ]);
    expect(rows).toHaveLength(24);
    expect(rows.at(-1)).toMatchObject({ n0: 3, n1: 0, n2: 0 });
    expect(rows.at(-2)).toMatchObject({ n0: 0, n1: 4, n2: 1 });
    expect(rows[0]).toMatchObject({ n0: 0, n1: 0, n2: 0 });
  });
});
