import { describeNetwork } from '../../../shared/mobile-networks';
import type { DashboardData } from './dashboard.api';

/** One network of the hourly chart: its series key, the name shown, and every code or name it was sent as (the hover text). */
export interface ChartNetwork {
  key: string;
  name: string;
  detail: string;
}

const hourKey = (date: Date) => `${date.toISOString().slice(0, 13)}:00:00Z`;
const hourLabel = (iso: string) => `${String(new Date(iso).getHours()).padStart(2, '0')}:00`;

/**
 * The last 24 hours as rows of the stacked chart: `{ hour: '14:00', n0: 3, n1: 1 }`, one series per network
 * name, so `62001` from one gateway and `MTN` from another make one bar. Series keys are `n0`, `n1`...: a
 * gateway's name may hold characters a chart key cannot (a dot reads as a path).
 */
export function toHourlyRows(
  byHour: DashboardData['sessionsByHour'],
  now = new Date(),
): { rows: Record<string, string | number>[]; networks: ChartNetwork[] } {
  const labelled = byHour.map((r) => ({ ...r, label: describeNetwork(r.network) }));
  const details = new Map<string, Set<string>>();
  for (const { label } of labelled) details.set(label.name, (details.get(label.name) ?? new Set()).add(label.detail));
  const networks = [...details.keys()].sort().map((name, i) => ({ key: `n${i}`, name, detail: [...details.get(name)!].sort().join('; ') }));
  const keyOf = new Map(networks.map((n) => [n.name, n.key]));
  const start = new Date(now);
  start.setUTCMinutes(0, 0, 0);
  const rows: Record<string, string | number>[] = [];
  for (let i = 23; i >= 0; i--) {
    const key = hourKey(new Date(start.getTime() - i * 3_600_000));
    const row: Record<string, string | number> = { hour: hourLabel(key) };
    for (const network of networks) row[network.key] = 0;
    for (const r of labelled) {
      if (r.hour !== key) continue;
      const series = keyOf.get(r.label.name)!;
      row[series] = (row[series] as number) + r.sessions;
    }
    rows.push(row);
  }
  return { rows, networks };
}
