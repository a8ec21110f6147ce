import { SegmentedControl } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { DashboardPeriod } from '../../../shared/api/monitoring.schema';

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
