import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Paper, Stack, Title } from '@mantine/core';
import type { Campaign } from '../../../shared/api/campaigns.schema';
import { ChartTable } from '../../components/chart-table';

type Timeline = NonNullable<Campaign['results']>['timeline'];

/** A bucket's label: the time alone within one day, the day and time over longer. */
function labelOf(at: string, isOneDay: boolean): string {
  const date = new Date(at);
  return isOneDay
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString([], { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** The messages sent and failed per time bucket (a minute, an hour or a day, as the server chose), as stacked bars. */
export function CampaignTimelineChart({ timeline }: { timeline: Timeline }) {
  if (timeline.length === 0) return null;
  const first = new Date(timeline[0]!.at).getTime();
  const last = new Date(timeline.at(-1)!.at).getTime();
  const isOneDay = last - first < 86_400_000;
  const rows = timeline.map((p) => ({ at: labelOf(p.at, isOneDay), Sent: p.sent, Failed: p.failed }));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Over time">
      <Stack gap="xs">
        <Title order={3} fz="md">
          Over time
        </Title>
        <ChartTable
          caption="Messages sent and failed over time"
          headers={['Time', 'Sent', 'Failed']}
          rows={rows.map((r) => [r.at, r.Sent, r.Failed])}
          testId="campaign-timeline-table"
        >
          <BarChart
            h={220}
            data={rows}
            dataKey="at"
            type="stacked"
            withLegend
            legendProps={{ verticalAlign: 'bottom', height: 40 }}
            series={[
              { name: 'Sent', color: 'teal.6' },
              { name: 'Failed', color: 'red.6' },
            ]}
            yAxisProps={{ allowDecimals: false }}
            data-testid="campaign-timeline"
          />
        </ChartTable>
      </Stack>
    </Paper>
  );
}
