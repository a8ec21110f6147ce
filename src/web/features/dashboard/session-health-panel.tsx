import { BarChart } from '@mantine/charts';
import { Anchor, Box, ColorSwatch, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { getSessionHealth } from '../../../shared/api/dashboard.calls';
import type { Environment, sessionHealthSchema } from '../../../shared/api/monitoring.schema';
import { END_CAUSES, type EndCause } from '../../../shared/session-ends';
import { ChartTable } from '../../components/chart-table';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { callQuery } from '../../lib/call';
import { formatMs } from '../../lib/format';
import { causeColour, causeLabel, causeListPath } from '../../lib/end-causes';
import { PERIOD_TEXT, PeriodControl, useDashboardPeriod } from './dashboard-period';

type SessionHealth = z.infer<typeof sessionHealthSchema>;
type CauseCounts = SessionHealth['causes'];
type Cause = EndCause | null;

/** The menus the drop-off chart draws (the table lists them all): more bars than this do not read on a phone. */
const MENUS_CHARTED = 10;

/** Every cause in its order, records without one last. */
const CAUSE_ORDER: Cause[] = [...END_CAUSES, null];

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);

/** The causes any of `groups` has, in their order: one chart series each. */
function causesIn(groups: CauseCounts[]): Cause[] {
  const present = new Set(groups.flatMap((g) => g.map((c) => c.cause)));
  return CAUSE_ORDER.filter((cause) => present.has(cause));
}

const countOf = (counts: CauseCounts, cause: Cause) => counts.find((c) => c.cause === cause)?.sessions ?? 0;

/**
 * Why an app's sessions ended and how fast it answered them, on its dashboard (docs/monitoring.md, "Session
 * health"): sessions by end cause, drop-off by menu and cause, networks, and hop times against each gateway's
 * budget with the slowest actions. The environment and period are the dashboard's (`?environment=`, `?period=`).
 */
export function SessionHealthPanel({ appId, environment, refreshMs }: { appId: string; environment: Environment; refreshMs: number }) {
  const [period] = useDashboardPeriod();
  const { data, error, refetch } = useQuery({
    ...callQuery(getSessionHealth, { params: { appId }, query: { environment, period } }, 'The session health figures could not be read.'),
    refetchInterval: refreshMs,
  });
  const empty = data?.sessions === 0 ? `No sessions in ${PERIOD_TEXT[period]}` : null;

  return (
    <Stack gap="md" component="section" aria-labelledby="session-health-title" data-testid="session-health">
      <Group justify="space-between" gap="sm">
        <div>
          <Title order={2} fz="lg" id="session-health-title">
            Session health
          </Title>
          <Text size="sm" c="dimmed">
            Sessions that ended in {PERIOD_TEXT[period]}: why they ended, where and on which network, and how fast the app answered.
          </Text>
        </div>
        <PeriodControl label="Sessions ended in" testId="session-health-period" />
      </Group>
      {error ? (
        <LoadErrorAlert
          title="Session health not loaded"
          message={error.message}
          onRetry={() => void refetch()}
          testId="session-health-error"
        />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Card title="Why sessions ended" testId="health-causes" loading={!data} empty={empty}>
            {data ? <EndCauses appId={appId} health={data} /> : null}
          </Card>
          <Card title="Drop-off by menu" testId="health-menus" loading={!data} empty={empty}>
            {data ? <MenuDropOff menus={data.menus} /> : null}
          </Card>
          <Card title="Networks" testId="health-networks" loading={!data} empty={empty}>
            {data ? <Networks networks={data.networks} /> : null}
          </Card>
          <Card title="Response time" testId="health-latency" loading={!data} empty={empty}>
            {data ? <ResponseTime health={data} /> : null}
          </Card>
        </SimpleGrid>
      )}
    </Stack>
  );
}

const themeColour = (colour: string) => `var(--mantine-color-${colour.replace('.', '-')})`;

/** A chart's legend in the series' own order (the chart's would sort them by name), and its reference line if any. */
function SeriesLegend({ series, line }: { series: Array<{ name: string; color: string }>; line?: { name: string; color: string } }) {
  return (
    <Group gap="md" justify="center" mt="xs" data-testid="series-legend">
      {series.map((s) => (
        <Group key={s.name} gap={6} wrap="nowrap">
          <ColorSwatch color={themeColour(s.color)} size={10} withShadow={false} />
          <Text size="xs">{s.name}</Text>
        </Group>
      ))}
      {line ? (
        <Group gap={6} wrap="nowrap">
          <Box w={16} h={2} bg={line.color} />
          <Text size="xs">{line.name}</Text>
        </Group>
      ) : null}
    </Group>
  );
}

function Card({
  title,
  testId,
  loading,
  empty,
  children,
}: {
  title: string;
  testId: string;
  loading: boolean;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p="lg" data-testid={testId} style={{ minWidth: 0 }}>
      <Title order={3} fz="md" mb="sm">
        {title}
      </Title>
      {loading ? (
        <Skeleton h={160} radius="md" data-testid="health-loading" />
      ) : empty ? (
        <Text c="dimmed" ta="center" py={48} data-testid="health-empty">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Paper>
  );
}

/** The causes as one bar split by share, then each cause with its count, linked to its sessions. */
function EndCauses({ appId, health }: { appId: string; health: SessionHealth }) {
  const { causes, sessions } = health;
  return (
    <Stack gap="sm">
      <Progress.Root size={22} radius="md" aria-hidden>
        {causes.map((c) => (
          <Progress.Section key={c.cause ?? 'none'} value={(c.sessions / sessions) * 100} color={causeColour(c.cause)} />
        ))}
      </Progress.Root>
      <Table verticalSpacing={4} data-testid="cause-list">
        <Table.Caption>Sessions by why they ended</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Cause</Table.Th>
            <Table.Th scope="col" ta="right">
              Sessions
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Share
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {causes.map((c) => (
            <Table.Tr key={c.cause ?? 'none'} data-testid="cause-row" data-cause={c.cause ?? 'none'}>
              <Table.Th scope="row" fw={400}>
                <Group gap={8} wrap="nowrap">
                  <ColorSwatch color={themeColour(causeColour(c.cause))} size={12} withShadow={false} />
                  {c.cause ? (
                    <Anchor
                      component={Link}
                      to={causeListPath(appId, c.cause)}
                      size="sm"
                      title={`List the sessions: ${causeLabel(c.cause)}`}
                    >
                      {causeLabel(c.cause)}
                    </Anchor>
                  ) : (
                    <Text size="sm">{causeLabel(c.cause)}</Text>
                  )}
                </Group>
              </Table.Th>
              <Table.Td ta="right" data-testid="cause-sessions">
                {c.sessions.toLocaleString()}
              </Table.Td>
              <Table.Td ta="right">{percent(c.sessions, sessions)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Per menu where sessions stopped, its sessions stacked by cause. */
function MenuDropOff({ menus }: { menus: SessionHealth['menus'] }) {
  const causes = causesIn(menus.map((m) => m.causes));
  const series = causes.map((cause) => ({ name: causeLabel(cause), color: causeColour(cause) }));
  const rows = menus.map((m) => ({
    menu: m.menu,
    ...Object.fromEntries(causes.map((cause) => [causeLabel(cause), countOf(m.causes, cause)])),
  }));
  return (
    <>
      <Text size="sm" c="dimmed" mb="xs">
        The menu each session was on when it ended, by why it ended
        {menus.length > MENUS_CHARTED ? ` (the ${MENUS_CHARTED} menus with most; the table lists all)` : ''}.
      </Text>
      <ChartTable
        caption="Sessions that ended at each menu, by cause"
        headers={['Menu', ...causes.map(causeLabel), 'Total']}
        rows={menus.map((m) => [m.menu, ...causes.map((cause) => countOf(m.causes, cause)), m.sessions])}
        testId="table-health-menus"
      >
        <BarChart
          h={240}
          data={rows.slice(0, MENUS_CHARTED)}
          dataKey="menu"
          type="stacked"
          series={series}
          xAxisProps={{ interval: 0, tick: { fontSize: 11 } }}
          yAxisProps={{ allowDecimals: false }}
        />
        <SeriesLegend series={series} />
      </ChartTable>
    </>
  );
}

/** Each network: sessions, completion rate, median hop time, and a small bar of its causes. */
function Networks({ networks }: { networks: SessionHealth['networks'] }) {
  return (
    <Table.ScrollContainer minWidth={300} type="native" tabIndex={0} role="region" aria-label="Networks, scrolls sideways">
      <Table striped withTableBorder horizontalSpacing="xs" fz="sm" data-testid="network-table">
        <Table.Thead fz="xs">
          <Table.Tr>
            <Table.Th scope="col">Network</Table.Th>
            <Table.Th scope="col" ta="right">
              Sessions
            </Table.Th>
            <Table.Th scope="col" ta="right" title="Completed or terminated by a menu, of the sessions whose cause was recorded">
              Completed
            </Table.Th>
            <Table.Th scope="col" ta="right" title="The middle time of the app's answers, in the runtime">
              Median hop
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {networks.map((n) => (
            <Table.Tr key={n.network} data-testid="network-row">
              <Table.Th scope="row" fw={500}>
                <Text span inherit title={n.detail} style={{ textDecoration: 'underline dotted', textUnderlineOffset: 3 }}>
                  {n.network}
                </Text>
                <Progress.Root size={10} mt={6} title={n.causes.map((c) => `${causeLabel(c.cause)}: ${c.sessions}`).join('\n')}>
                  {n.causes.map((c) => (
                    <Progress.Section
                      key={c.cause ?? 'none'}
                      value={(c.sessions / n.sessions) * 100}
                      color={causeColour(c.cause)}
                      aria-label={`${n.network}, ${causeLabel(c.cause)}: ${c.sessions} of ${n.sessions} sessions`}
                    />
                  ))}
                </Progress.Root>
              </Table.Th>
              <Table.Td ta="right" data-testid="network-sessions">
                {n.sessions.toLocaleString()}
              </Table.Td>
              <Table.Td ta="right" data-testid="network-completion">
                {n.completionRate === null ? '—' : `${Math.round(n.completionRate * 100)}%`}
              </Table.Td>
              <Table.Td ta="right" data-testid="network-median" style={{ whiteSpace: 'nowrap' }}>
                {formatMs(n.medianHopMs)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Per gateway: the middle and slowest hop times, whole, in the runtime and in actions, against its budget; then the slowest actions. */
function ResponseTime({ health }: { health: SessionHealth }) {
  return (
    <Stack gap="lg">
      {health.latency.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="latency-empty">
          No hop was timed in these sessions (sessions recorded before hop times were kept).
        </Text>
      ) : (
        health.latency.map((g) => <GatewayLatency key={g.gateway} gateway={g} />)
      )}
      <SlowestActions actions={health.slowestActions} />
    </Stack>
  );
}

function GatewayLatency({ gateway: g }: { gateway: SessionHealth['latency'][number] }) {
  const series = [
    { name: 'Whole hop', color: 'blue.6' },
    { name: 'Runtime', color: 'gray.6' },
    { name: 'Actions', color: 'orange.6' },
  ];
  const row = (at: string, pick: 'p50Ms' | 'p95Ms') => ({
    at,
    'Whole hop': g.hop?.[pick] ?? 0,
    Runtime: g.runtime?.[pick] ?? 0,
    Actions: g.actions?.[pick] ?? 0,
  });
  const rows = [row('Middle (p50)', 'p50Ms'), row('Slowest 5% (p95)', 'p95Ms')];
  const highest = Math.max(g.budgetMs ?? 0, ...rows.flatMap((r) => [r['Whole hop'], r.Runtime, r.Actions]));
  return (
    <div data-testid="gateway-latency" data-gateway={g.gateway}>
      <Group justify="space-between" gap="xs" mb={4}>
        <Text fw={600} size="sm">
          {g.label}
        </Text>
        <Text size="sm" c={g.overBudget > 0 ? 'red.8' : 'dimmed'} data-testid="gateway-over-budget">
          {g.budgetMs === null
            ? `${g.hops.toLocaleString()} hops, no response budget`
            : `Budget ${formatMs(g.budgetMs)} · ${g.overBudget.toLocaleString()} of ${g.hops.toLocaleString()} hops over`}
        </Text>
      </Group>
      <ChartTable
        caption={`Hop times through ${g.label}, in milliseconds`}
        headers={['Hops', ...series.map((s) => s.name), ...(g.budgetMs === null ? [] : ['Budget'])]}
        rows={rows.map((r) => [r.at, r['Whole hop'], r.Runtime, r.Actions, ...(g.budgetMs === null ? [] : [g.budgetMs])])}
        testId="table-gateway-latency"
      >
        <BarChart
          h={200}
          data={rows}
          dataKey="at"
          series={series}
          valueFormatter={(value) => formatMs(value)}
          yAxisProps={{ domain: [0, Math.ceil(highest * 1.1)], width: 56 }}
          referenceLines={g.budgetMs === null ? [] : [{ y: g.budgetMs, color: 'red.6' }]}
        />
        <SeriesLegend series={series} line={g.budgetMs === null ? undefined : { name: `Budget ${formatMs(g.budgetMs)}`, color: 'red.6' }} />
      </ChartTable>
    </div>
  );
}

function SlowestActions({ actions }: { actions: SessionHealth['slowestActions'] }) {
  return (
    <div data-testid="slowest-actions">
      <Title order={4} fz="sm" mb="xs">
        Slowest actions
      </Title>
      {actions.length === 0 ? (
        <Text size="sm" c="dimmed">
          No action ran in these sessions.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300} type="native" tabIndex={0} role="region" aria-label="Slowest actions, scrolls sideways">
          <Table striped withTableBorder horizontalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Action</Table.Th>
                <Table.Th scope="col" ta="right">
                  Runs
                </Table.Th>
                <Table.Th scope="col" ta="right" title="95 in 100 runs took at most this long">
                  p95
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  Failures
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {actions.map((a) => (
                <Table.Tr key={`${a.actionName}:${a.menuName}`} data-testid="slow-action">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {a.actionName}{' '}
                    <Text span size="xs" c="dimmed">
                      on {a.menuName}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{a.runs.toLocaleString()}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatMs(a.p95Ms)}
                  </Table.Td>
                  <Table.Td ta="right" c={a.failures > 0 ? 'red.8' : undefined}>
                    {a.failures.toLocaleString()}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </div>
  );
}
