import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconClockCheck, IconHourglass, IconMessageCircleUser, IconUserQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { getInboxFigures } from '../../../shared/api/dashboard.calls';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { callQuery } from '../../lib/call';
import { formatDuration } from '../../lib/format';
import { INBOX_PATH } from '../inbox/inbox.api';
import { bucketLabel, PERIOD_TEXT, PeriodBarChart, PeriodControl, useDashboardPeriod } from './dashboard-period';
import { StatCard } from './stat-card';

const SERIES = [
  { name: 'Opened', color: 'orange.6' },
  { name: 'Closed', color: 'teal.6' },
];

/**
 * The conversations an app handed to a person, on its dashboard (docs/inbox.md, "Figures"): how many were opened
 * and still wait for an answer, how soon a person answered and how soon they were closed (the middle time, and the
 * time nine in ten stayed within), opened and closed by hour or day, and what each agent did. The period is the
 * dashboard's (`?period=`).
 */
export function InboxPanel({ appId, refreshMs }: { appId: string; refreshMs: number }) {
  const [period] = useDashboardPeriod();
  const { data, error, refetch } = useQuery({
    ...callQuery(getInboxFigures, { params: { appId }, query: { period } }, 'The inbox figures could not be read.'),
    refetchInterval: refreshMs,
  });
  const rows = (data?.buckets ?? []).map((b) => ({ at: bucketLabel(b.at, period), Opened: b.opened, Closed: b.closed }));
  const within = (d: { p90Seconds: number } | null | undefined) => (d ? `9 in 10 within ${formatDuration(d.p90Seconds)}` : undefined);

  return (
    <Paper withBorder radius="lg" p="lg" data-testid="inbox-figures" aria-labelledby="inbox-figures-title" component="section">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <div>
            <Title order={2} fz="lg" id="inbox-figures-title">
              Handed to a person
            </Title>
            <Text size="sm" c="dimmed">
              Conversations the app handed to your agents in {PERIOD_TEXT[period]}: how soon a person answered, and how soon they were
              closed. Read them in the{' '}
              <Anchor component={Link} to={INBOX_PATH} size="sm">
                Inbox
              </Anchor>
              .
            </Text>
          </div>
          <PeriodControl label="Conversations in" testId="inbox-period" />
        </Group>
        {error ? (
          <LoadErrorAlert
            title="Inbox figures not loaded"
            message={error.message}
            onRetry={() => void refetch()}
            testId="inbox-figures-error"
          />
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
              <StatCard
                label="Opened"
                value={data?.opened}
                hint={data ? `${data.answered.toLocaleString()} answered` : undefined}
                icon={<IconMessageCircleUser size={22} />}
                color="orange"
              />
              <StatCard
                label="Waiting for a person"
                value={data?.waiting}
                hint="Open, nobody answered yet"
                icon={<IconUserQuestion size={22} />}
                color="red"
              />
              <StatCard
                label="First response"
                value={data ? formatDuration(data.firstResponse?.medianSeconds) : undefined}
                hint={within(data?.firstResponse) ?? 'No answer yet in this period'}
                icon={<IconHourglass size={22} />}
                color="blue"
              />
              <StatCard
                label="Resolution time"
                value={data ? formatDuration(data.resolution?.medianSeconds) : undefined}
                hint={data ? `${data.closed.toLocaleString()} closed${data.resolution ? ` · ${within(data.resolution)}` : ''}` : undefined}
                icon={<IconClockCheck size={22} />}
                color="teal"
              />
            </SimpleGrid>
            {data && rows.length === 0 ? (
              <Text c="dimmed" ta="center" py="xl" data-testid="inbox-figures-empty">
                No conversation was handed to a person in {PERIOD_TEXT[period]}. A rule that hands to a person, or the bot&apos;s handoff
                words, opens one.
              </Text>
            ) : null}
            {rows.length > 0 ? (
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                <div>
                  <PeriodBarChart
                    period={period}
                    caption="Conversations opened and closed per {unit}"
                    series={SERIES}
                    rows={rows}
                    testId="table-inbox-figures"
                  />
                </div>
                <AgentFigures agents={data?.agents ?? []} />
              </SimpleGrid>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

type AgentFigure = {
  userId: string | null;
  name: string;
  conversations: number;
  replies: number;
  closed: number;
  firstResponseMedianSeconds: number | null;
};

/** Each person who replied or closed in the period: conversations replied in, replies, closed, first answers' middle time. */
function AgentFigures({ agents }: { agents: AgentFigure[] }) {
  return (
    <div data-testid="inbox-agent-figures">
      <Title order={3} fz="md" mb="xs">
        Conversations per agent
      </Title>
      {agents.length === 0 ? (
        <Text size="sm" c="dimmed">
          No agent replied or closed a conversation in this period.
        </Text>
      ) : (
        // Scrolled sideways on a phone: a region the keyboard can reach and scroll.
        <Table.ScrollContainer
          minWidth={520}
          type="native"
          tabIndex={0}
          role="region"
          aria-label="Conversations per agent, scrolls sideways"
        >
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Agent</Table.Th>
                <Table.Th ta="right">Conversations</Table.Th>
                <Table.Th ta="right">Replies</Table.Th>
                <Table.Th ta="right">Closed</Table.Th>
                <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                  First response
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {agents.map((a) => (
                <Table.Tr key={a.userId ?? 'removed'} data-testid="inbox-agent-figure">
                  <Table.Td miw={140} style={{ overflowWrap: 'break-word' }}>
                    {a.name}
                  </Table.Td>
                  <Table.Td ta="right">{a.conversations.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{a.replies.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{a.closed.toLocaleString()}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatDuration(a.firstResponseMedianSeconds)}
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
