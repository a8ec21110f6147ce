import { BarChart } from '@mantine/charts';
import { SegmentedControl } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { DashboardPeriod } from '../../../shared/api/monitoring.schema';
import { ChartTable } from '../../components/chart-table';

export const PERIOD_TEXT: Record<DashboardPeriod, string> = {
  day: 'the last 24 hours',
  week: 'the last 7 days',
  month: 'the last 30 days',
};

/**
 * The period a dashboard panel covers, kept in the page address (`?period=week`) so every panel shows the same one
 * and a reload keeps it; the setter changes it for all of them.
 */
export function useDashboardPeriod(): [DashboardPeriod, (value: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get('period');
  const period: DashboardPeriod = asked === 'week' || asked === 'month' ? asked : 'day';
  const choosePeriod = (value: string) =>
    setSearchParams(
      () => {
        // The address as it is now, not as this component last rendered it: the period and the environment are set
        // by separate components, and a second click before a re-render would drop the first one's parameter.
        const next = new URLSearchParams(window.location.search);
        if (value === 'day') next.delete('period');
        else next.set('period', value);
        return next;
      },
      { replace: true },
    );
  return [period, choosePeriod];
}

/** The period switch of a dashboard panel: 24 hours, 7 days, 30 days. */
export function PeriodControl({ label, testId }: { label: string; testId: string }) {
  const [period, choosePeriod] = useDashboardPeriod();
  return (
    <SegmentedControl
      value={period}
      onChange={choosePeriod}
      data={[
        { value: 'day', label: '24 hours' },
        { value: 'week', label: '7 days' },
        { value: 'month', label: '30 days' },
      ]}
      aria-label={label}
      data-testid={testId}
    />
  );
}

/** A bucket's label: the hour (a day's chart) or the date (a week's, a month's), in the viewer's time. */
export function bucketLabel(iso: string, period: DashboardPeriod): string {
  const at = new Date(iso);
  return period === 'day'
    ? `${String(at.getHours()).padStart(2, '0')}:00`
    : at.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/**
 * A panel's counts per hour (a day) or per day (a week, a month) as bars, with its figures as a table behind Show as
 * table. `rows` carry `at` (the bucket's label) and one number per series, by the series' name.
 */
export function PeriodBarChart({
  period,
  caption,
  series,
  rows,
  testId,
}: {
  period: DashboardPeriod;
  /** What is counted, e.g. 'Messages sent': the caption adds "per hour" or "per day". */
  caption: string;
  series: Array<{ name: string; color: string }>;
  rows: Array<{ at: string } & Record<string, string | number>>;
  testId: string;
}) {
  const unit = period === 'day' ? 'hour' : 'day';
  return (
    <ChartTable
      caption={caption.replace('{unit}', unit)}
      headers={[period === 'day' ? 'Hour' : 'Day', ...series.map((s) => s.name)]}
      rows={rows.map((r) => [r.at, ...series.map((s) => r[s.name] ?? 0)])}
      testId={testId}
    >
      <BarChart
        h={240}
        data={rows}
        dataKey="at"
        withLegend
        legendProps={{ verticalAlign: 'bottom', height: 40 }}
        series={series}
        yAxisProps={{ allowDecimals: false }}
      />
    </ChartTable>
  );
}
