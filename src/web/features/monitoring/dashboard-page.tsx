import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCash, IconListDetails, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { isOk } from '../../lib/api';
import { getDashboard, type DashboardData } from './monitoring.api';
import { MonitoringAppHeader } from './monitoring-app-header';

export const DASHBOARD_REFRESH_MS = 6000;

/** Spec section 4: the dashboard only takes a response whose data has more than 3 keys. */
export const isDashboardUpdate = (data: unknown): data is DashboardData => !!data && typeof data === 'object' && Object.keys(data).length > 3;

const NETWORK_COLOURS = ['yellow.6', 'red.6', 'blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'gray.6'];

function StatCard({ label, value, icon, color }: { label: string; value: number | undefined; icon: ReactNode; color: string }) {
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="dashboard-card" role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton h={32} w={60} mt={6} />
          ) : (
            <Text fz={32} fw={700} lh={1.2} mt={4} data-testid="dashboard-card-value">
              {value.toLocaleString()}
            </Text>
          )}
        </div>
        <ThemeIcon variant="light" color={color} size={44} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Paper>
  );
}

const hourKey = (date: Date) => `${date.toISOString().slice(0, 13)}:00:00Z`;
const hourLabel = (iso: string) => `${String(new Date(iso).getHours()).padStart(2, '0')}:00`;

/** The last 24 hours as rows of the stacked chart: `{ hour: '14:00', MTN: 3, Vodafone: 1 }`. */
export function toHourlyRows(byHour: DashboardData['sessionsByHour'], now = new Date()): { rows: Record<string, string | number>[]; networks: string[] } {
  const networks = [...new Set(byHour.map((r) => r.network))].sort();
  const start = new Date(now);
  start.setUTCMinutes(0, 0, 0);
  const rows: Record<string, string | number>[] = [];
  for (let i = 23; i >= 0; i--) {
    const key = hourKey(new Date(start.getTime() - i * 3_600_000));
    const row: Record<string, string | number> = { hour: hourLabel(key) };
    for (const network of networks) row[network] = byHour.filter((r) => r.hour === key && r.network === network).reduce((sum, r) => sum + r.sessions, 0);
    rows.push(row);
  }
  return { rows, networks };
}

/** Dashboard (/app/dashboard/{appId}): four counts refreshed every 6 s, sessions per hour and outcomes per menu. */
export function DashboardPage() {
  const { appId = '' } = useParams();
  const [shown, setShown] = useState<DashboardData | null>(null);
  const { data } = useQuery({
    queryKey: ['monitoring', 'dashboard', appId],
    queryFn: async () => {
      const reply = await getDashboard(appId);
      return isOk(reply) ? (reply.data ?? null) : null;
    },
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  useEffect(() => {
    if (isDashboardUpdate(data)) setShown(data);
  }, [data]);

  const hourly = useMemo(() => toHourlyRows(shown?.sessionsByHour ?? []), [shown]);
  const outcomes = (shown?.menuOutcomes ?? []).map((o) => ({ menu: o.menu, Completed: o.completed, 'Dropped off': o.abandoned }));

  return (
    <Stack gap="lg">
      <MonitoringAppHeader appId={appId} screen="dashboard" title="Dashboard" description="Counts refresh every 6 seconds." />
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
            Finished sessions over the last 24 hours, by network.
          </Text>
          {hourly.networks.length === 0 ? (
            <Text c="dimmed" ta="center" py={60}>
              No sessions in the last 24 hours
            </Text>
          ) : (
            <BarChart
              h={260}
              data={hourly.rows}
              dataKey="hour"
              type="stacked"
              withLegend
              legendProps={{ verticalAlign: 'bottom', height: 40 }}
              series={hourly.networks.map((name, i) => ({ name, color: NETWORK_COLOURS[i % NETWORK_COLOURS.length] }))}
              xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
              yAxisProps={{ allowDecimals: false }}
            />
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
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
