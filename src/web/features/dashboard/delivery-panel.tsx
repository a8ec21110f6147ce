import { Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconChecks, IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { getDeliveryCounts } from '../../../shared/api/dashboard.calls';
import type { Environment } from '../../../shared/api/monitoring.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { callQuery } from '../../lib/call';
import { bucketLabel, PERIOD_TEXT, PeriodBarChart, PeriodControl, useDashboardPeriod } from './dashboard-period';
import { StatCard } from './stat-card';

const SERIES = [
  { name: 'Sent', color: 'gray.6' },
  { name: 'Delivered', color: 'teal.6' },
  { name: 'Read', color: 'blue.6' },
  { name: 'Failed', color: 'red.6' },
];

/**
 * A bot's WhatsApp messages on its dashboard (docs/monitoring.md, "WhatsApp delivery"): how many it sent in the
 * period and how many were delivered, read or failed, by hour or day, and the commonest failures with their code.
 * The period stays in the page address (`?period=week`), as the environment does, and is the inbox figures' too.
 */
export function DeliveryPanel({ appId, environment, refreshMs }: { appId: string; environment: Environment; refreshMs: number }) {
  const [period] = useDashboardPeriod();
  const { data, error, refetch } = useQuery({
    ...callQuery(
      getDeliveryCounts,
      { params: { appId }, query: { environment, period } },
      'The WhatsApp message counts could not be read.',
    ),
    refetchInterval: refreshMs,
  });
  const rows = (data?.buckets ?? []).map((b) => ({
    at: bucketLabel(b.at, period),
    Sent: b.sent,
    Delivered: b.delivered,
    Read: b.read,
    Failed: b.failed,
  }));

  return (
    <Paper withBorder radius="lg" p="lg" data-testid="whatsapp-deliveries" aria-labelledby="whatsapp-deliveries-title" component="section">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <div>
            <Title order={2} fz="lg" id="whatsapp-deliveries-title">
              WhatsApp messages
            </Title>
            <Text size="sm" c="dimmed">
              Messages the bot sent in {PERIOD_TEXT[period]}, and what became of them: delivered counts the read ones too.
            </Text>
          </div>
          <PeriodControl label="Messages sent in" testId="delivery-period" />
        </Group>
        {error ? (
          <LoadErrorAlert
            title="WhatsApp messages not loaded"
            message={error.message}
            onRetry={() => void refetch()}
            testId="delivery-error"
          />
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
              <StatCard label="Sent" value={data?.totals.sent} icon={<IconCheck size={22} />} color="gray" />
              <StatCard label="Delivered" value={data?.totals.delivered} icon={<IconChecks size={22} />} color="teal" />
              <StatCard label="Read" value={data?.totals.read} icon={<IconEye size={22} />} color="blue" />
              <StatCard label="Failed" value={data?.totals.failed} icon={<IconAlertCircle size={22} />} color="red" />
            </SimpleGrid>
            {data && rows.length === 0 ? (
              <Text c="dimmed" ta="center" py="xl" data-testid="delivery-empty">
                No messages sent in {PERIOD_TEXT[period]}
              </Text>
            ) : null}
            {rows.length > 0 ? (
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                <div>
                  <PeriodBarChart
                    period={period}
                    caption="Messages sent per {unit}, by what became of them"
                    series={SERIES}
                    rows={rows}
                    testId="table-deliveries"
                  />
                </div>
                <FailureReasons reasons={data?.failureReasons ?? []} />
              </SimpleGrid>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The commonest failures: the provider's code and words, and how many messages each stopped. */
function FailureReasons({ reasons }: { reasons: Array<{ code: number | null; reason: string; messages: number }> }) {
  return (
    <div data-testid="delivery-failures">
      <Title order={3} fz="md" mb="xs">
        Why messages failed
      </Title>
      {reasons.length === 0 ? (
        <Text size="sm" c="dimmed">
          No message failed in this period.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320} type="native" tabIndex={0} role="region" aria-label="Why messages failed, scrolls sideways">
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>What WhatsApp said</Table.Th>
                <Table.Th ta="right">Messages</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reasons.map((r) => (
                <Table.Tr key={`${r.code}:${r.reason}`} data-testid="delivery-failure">
                  <Table.Td>{r.code ?? '—'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.reason || 'No reason given'}</Table.Td>
                  <Table.Td ta="right">{r.messages.toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </div>
  );
}
