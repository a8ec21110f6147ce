import { Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { CampaignFailure } from '../../../shared/api/campaigns.schema';

const CHANNEL_LABELS = { whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/** What became of the messages a reason counts, in words. */
export const FAILURE_STATUS_LABELS: Record<CampaignFailure['status'], string> = {
  failed: 'Failed',
  unknown: 'Not known whether it went',
  skipped: 'Not sent',
};

const channelOf = (failure: CampaignFailure) => (failure.channel ? CHANNEL_LABELS[failure.channel] : 'None');

/**
 * Why messages did not go: the campaign's most common reasons (at most five, the server's `failures`), with the
 * channel, what happened and how many; nothing when every message went. On a phone the channel and what happened
 * fold above the reason.
 */
export function CampaignFailuresTable({ failures }: { failures: CampaignFailure[] }) {
  if (failures.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Why messages did not go">
      <Stack gap="xs">
        <Title order={3} fz="md">
          Why messages did not go
        </Title>
        <Table verticalSpacing={6} fz="sm" aria-label="Why messages did not go" data-testid="campaign-failures">
          <Table.Thead>
            <Table.Tr>
              <Table.Th visibleFrom="sm">Channel</Table.Th>
              <Table.Th visibleFrom="sm">What happened</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th ta="right">Messages</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {failures.map((failure) => (
              <Table.Tr key={`${failure.channel}-${failure.status}-${failure.reason}`}>
                <Table.Td visibleFrom="sm">{channelOf(failure)}</Table.Td>
                <Table.Td visibleFrom="sm">{FAILURE_STATUS_LABELS[failure.status]}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {`${channelOf(failure)} · ${FAILURE_STATUS_LABELS[failure.status]}`}
                  </Text>
                  {failure.reason}
                </Table.Td>
                <Table.Td ta="right">{failure.count.toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
