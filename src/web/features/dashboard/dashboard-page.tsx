import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { ColorSwatch, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCash, IconListDetails, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { Environment } from '../../../shared/api/monitoring.schema';
import { isOk } from '../../lib/api';
import { toHourlyRows, type ChartNetwork } from './dashboard-chart';
import { ChartTable } from '../../components/chart-table';
import { getDashboard } from '../../../shared/api/dashboard.calls';
import { call, queryKey } from '../../lib/call';
import type { DashboardData } from './dashboard.api';
import { DeliveryPanel } from './delivery-panel';
import { InboxPanel } from './inbox-panel';
import { SessionHealthPanel } from './session-health-panel';
import { StatCard } from './stat-card';
import { AppMonitoringHeader } from '../apps/app-monitoring-header';
import { useApp } from '../apps/use-apps';

export const DASHBOARD_REFRESH_MS = 6000;
/** The inbox figures are about minutes and hours, and cost more to read: every 30 seconds is enough. */
const INBOX_FIGURES_REFRESH_MS = 30_000;
/** The session health figures read a period's hop times: every 30 seconds too. */
const SESSION_HEALTH_REFRESH_MS = 30_000;

/** The dashboard only takes a response whose data has more than 3 keys. */
export const isDashboardUpdate = (data: unknown): data is DashboardData =>
  !!data && typeof data === 'object' && Object.keys(data).length > 3;

const NETWORK_COLOURS = ['yellow.6', 'red.6', 'blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'gray.6'];

/** The chart's legend, drawn here so each network shows its codes on hover. */
function NetworkLegend({ networks }: { networks: ChartNetwork[] }) {
  return (
    <Group gap="md" justify="center" mt="xs" data-testid="network-legend">
      {networks.map((network, i) => (
        <Group key={network.key} gap={6} wrap="nowrap" title={network.detail} data-testid="network-legend-item">
          <ColorSwatch
            color={`var(--mantine-color-${NETWORK_COLOURS[i % NETWORK_COLOURS.length]!.replace('.', '-')})`}
            size={10}
            withShadow={false}
          />
          <Text size="sm">{network.name}</Text>
        </Group>
      ))}
    </Group>
  );
}

const ENVIRONMENT_TEXT: Record<Environment, string> = {
  live: "Live traffic: sessions on the app's live URL. Counts refresh every 6 seconds.",
  test: 'Test runs: sessions on the test URL and in the emulator, which run the draft. Counts refresh every 6 seconds.',
};
/** A bot's traffic comes from its linked numbers and its chat simulator instead. */
const BOT_ENVIRONMENT_TEXT: Record<Environment, string> = {
  live: "Live traffic: chats with the bot's linked WhatsApp numbers. Counts refresh every 6 seconds.",
  test: 'Test runs: chats in the chat simulator, which runs the draft. Counts refresh every 6 seconds.',
};

/** Dashboard (/app/dashboard/{appId}): four counts refreshed every 6 s, sessions per hour and outcomes per menu, session health. */
export function DashboardPage() {
  const { appId = '' } = useParams();
  const isBot = useApp(appId).data?.channel === 'whatsapp';
  // Live traffic unless ?environment=test: test runs never mix into the live figures, and the choice survives a reload.
  const [searchParams, setSearchParams] = useSearchParams();
  const environment: Environment = searchParams.get('environment') === 'test' ? 'test' : 'live';
  const [update, setUpdate] = useState<{ environment: Environment; data: DashboardData } | null>(null);
  const { data } = useQuery({
    queryKey: queryKey(getDashboard, { params: { appId }, query: { environment } }),
    queryFn: async () => {
      const reply = await call(getDashboard, { params: { appId }, query: { environment } });
      return isOk(reply) ? (reply.data ?? null) : null;
    },
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  useEffect(() => {
    if (isDashboardUpdate(data)) setUpdate({ environment, data });
  }, [data, environment]);
  const shown = update?.environment === environment ? update.data : null;

  const hourly = useMemo(() => toHourlyRows(shown?.sessionsByHour ?? []), [shown]);
  const outcomes = (shown?.menuOutcomes ?? []).map((o) => ({ menu: o.menu, Completed: o.completed, 'Dropped off': o.abandoned }));

  return (
    <Stack gap="lg">
      <AppMonitoringHeader appId={appId} screen="dashboard" title="Dashboard" />
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          value={environment}
          onChange={(value) =>
            setSearchParams(
              () => {
                // The address as it is now (delivery-panel.tsx sets the period): never an older render's.
                const next = new URLSearchParams(window.location.search);
                if (value === 'test') next.set('environment', 'test');
                else next.delete('environment');
                return next;
              },
              { replace: true },
            )
          }
          data={[
            { value: 'live', label: 'Live' },
            { value: 'test', label: 'Test runs' },
          ]}
          aria-label="Sessions counted"
          data-testid="dashboard-environment"
        />
        <Text size="sm" c="dimmed" data-testid="dashboard-environment-text" style={{ flex: '1 1 260px' }}>
          {(isBot ? BOT_ENVIRONMENT_TEXT : ENVIRONMENT_TEXT)[environment]}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
        <StatCard label="Connected Users" value={shown?.connectedSessions} icon={<IconUsers size={22} />} color="teal" />
        <StatCard label="Transactions" value={shown?.transactions} icon={<IconCash size={22} />} color="yellow" />
        <StatCard label="Total Users" value={shown?.totalUsers} icon={<IconUsersGroup size={22} />} color="blue" />
        <StatCard label="Total Menus" value={shown?.menuCount} icon={<IconListDetails size={22} />} color="grape" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder radius="lg" p="lg" data-testid="chart-sessions-by-hour">
          <Title order={2} fz="lg">
            Sessions per hour
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Finished sessions over the last 24 hours, by network (hover a name for its code).
          </Text>
          {hourly.networks.length === 0 ? (
            <Text c="dimmed" ta="center" py={60}>
              No sessions in the last 24 hours
            </Text>
          ) : (
            <ChartTable
              caption="Finished sessions per hour, by network"
              headers={['Hour', ...hourly.networks.map((network) => network.name), 'Total']}
              rows={hourly.rows.map((row) => {
                const figures = hourly.networks.map((network) => Number(row[network.key]));
                return [String(row.hour), ...figures, figures.reduce((sum, figure) => sum + figure, 0)];
              })}
              testId="table-sessions-by-hour"
            >
              <BarChart
                h={260}
                data={hourly.rows}
                dataKey="hour"
                type="stacked"
                series={hourly.networks.map((network, i) => ({
                  name: network.key,
                  label: network.name,
                  color: NETWORK_COLOURS[i % NETWORK_COLOURS.length]!,
                }))}
                xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
                yAxisProps={{ allowDecimals: false }}
              />
              <NetworkLegend networks={hourly.networks} />
            </ChartTable>
          )}
        </Paper>
        <Paper withBorder radius="lg" p="lg" data-testid="chart-menu-outcomes">
          <Title order={2} fz="lg">
            Completion and drop-off by menu
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Where sessions ended: completed by the app, or abandoned by the dialer.
          </Text>
          {outcomes.length === 0 ? (
            <Text c="dimmed" ta="center" py={60}>
              No finished sessions yet
            </Text>
          ) : (
            <ChartTable
              caption="Sessions that ended at each menu"
              headers={['Menu', 'Completed', 'Dropped off']}
              rows={outcomes.map((outcome) => [outcome.menu, outcome.Completed, outcome['Dropped off']])}
              testId="table-menu-outcomes"
            >
              <BarChart
                h={260}
                data={outcomes}
                dataKey="menu"
                withLegend
                legendProps={{ verticalAlign: 'bottom', height: 40 }}
                series={[
                  { name: 'Completed', color: 'teal.6' },
                  { name: 'Dropped off', color: 'red.5' },
                ]}
                yAxisProps={{ allowDecimals: false }}
              />
            </ChartTable>
          )}
        </Paper>
      </SimpleGrid>
      <SessionHealthPanel appId={appId} environment={environment} refreshMs={SESSION_HEALTH_REFRESH_MS} />
      {isBot ? <DeliveryPanel appId={appId} environment={environment} refreshMs={DASHBOARD_REFRESH_MS} /> : null}
      <InboxPanel appId={appId} refreshMs={INBOX_FIGURES_REFRESH_MS} />
    </Stack>
  );
}
