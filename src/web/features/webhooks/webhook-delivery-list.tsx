import { ActionIcon, Badge, Button, Card, Code, Group, ScrollArea, SimpleGrid, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconChevronDown, IconChevronRight, IconRefresh, IconSend, IconWebhook } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { Webhook, WebhookDelivery, WebhookDeliveryStatus } from '../../../shared/api/webhooks.schema';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { failureText, isOk } from '../../lib/api';
import { findWebhookDeliveries, redeliverWebhookDelivery, sendWebhookTestEvent } from '../../../shared/api/webhooks.calls';
import { call, queryKey } from '../../lib/call';
import { useWebhookDeliveries } from './use-webhooks';

const STATUS_BADGES: Record<WebhookDeliveryStatus, { color: string; label: string }> = {
  pending: { color: 'yellow', label: 'Retrying' },
  sending: { color: 'blue', label: 'Sending' },
  delivered: { color: 'teal', label: 'Delivered' },
  failed: { color: 'red', label: 'Failed' },
};

const CODE_STYLE = { maxHeight: 280, overflow: 'auto', fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;

const formatWhen = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'medium' });

/** The body as sent, indented for reading (the bytes signed are the unindented ones). */
function formatBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  const badge = STATUS_BADGES[delivery.status];
  // A pending delivery never tried yet is waiting its first turn, not retrying.
  const label = delivery.status === 'pending' && delivery.attemptCount === 0 ? 'Queued' : badge.label;
  return (
    <Badge color={badge.color} variant="light" data-testid="delivery-status">
      {label}
    </Badge>
  );
}

function DeliveryDetails({
  delivery,
  onRedeliver,
  isRedelivering,
}: {
  delivery: WebhookDelivery;
  onRedeliver: () => void;
  isRedelivering: boolean;
}) {
  return (
    <Stack gap="sm" p="sm" data-testid="delivery-details">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            Event id <Code>{delivery.eventId}</Code>
          </Text>
          {delivery.lastAttemptAt && (
            <Text size="xs" c="dimmed">
              Last attempt {formatWhen(delivery.lastAttemptAt)}
              {delivery.lastDurationMs !== null && `, ${delivery.lastDurationMs} ms`}
            </Text>
          )}
          {delivery.lastError && (
            <Text size="sm" c="red.8">
              {delivery.lastError}
            </Text>
          )}
        </Stack>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={onRedeliver}
          loading={isRedelivering}
          disabled={delivery.status === 'sending'}
        >
          Redeliver
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <div>
          <Text size="xs" fw={600} mb={4}>
            Request body
          </Text>
          <Code block style={CODE_STYLE} data-testid="delivery-request">
            {formatBody(delivery.requestBody)}
          </Code>
        </div>
        <div>
          <Text size="xs" fw={600} mb={4}>
            Response{delivery.lastResponseStatus !== null && ` (HTTP ${delivery.lastResponseStatus})`}
          </Text>
          <Code block style={CODE_STYLE} data-testid="delivery-response">
            {delivery.lastResponseExcerpt || (delivery.attemptCount === 0 ? 'Not sent yet' : 'No response body')}
          </Code>
        </div>
      </SimpleGrid>
    </Stack>
  );
}

/** The newest deliveries, each opening to its request and response, with "Send test event" and "Redeliver". */
export function WebhookDeliveryList({ webhook }: { webhook: Webhook }) {
  const { appId } = webhook;
  const queryClient = useQueryClient();
  const { data: deliveries, error, isPending, refetch, isFetching } = useWebhookDeliveries(appId);
  const [openId, setOpenId] = useState<string | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [isSendingTest, setSendingTest] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKey(findWebhookDeliveries, { params: { appId } }) });

  async function handleSendTest() {
    setSendingTest(true);
    const reply = await call(sendWebhookTestEvent, { params: { appId } });
    setSendingTest(false);
    if (isOk(reply)) {
      showToast({ color: 'teal', title: 'Test event queued', message: 'It is sent within a few seconds.' });
      if (reply.data) setOpenId(reply.data.deliveryId);
    } else
      showToast({
        color: 'red',
        title: 'Test event not sent',
        message: failureText(reply, 'The test event could not be queued.'),
      });
    await reload();
  }

  async function handleRedeliver(delivery: WebhookDelivery) {
    setBusyId(delivery.deliveryId);
    const reply = await call(redeliverWebhookDelivery, { params: { appId, deliveryId: delivery.deliveryId } });
    setBusyId(null);
    if (isOk(reply)) showToast({ color: 'teal', title: 'Redelivery queued', message: `${delivery.eventType} is sent again now.` });
    else showToast({ color: 'red', title: 'Not redelivered', message: failureText(reply, 'The delivery could not be sent again.') });
    await reload();
  }

  const canSendTest = !!webhook.url && webhook.isEnabled;
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="webhook-deliveries-heading">
      <Group justify="space-between" mb="md" gap="sm">
        <div>
          <Title order={2} fz="lg" id="webhook-deliveries-heading">
            Deliveries
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            The latest 50 events sent to your URL. A failed attempt is retried after 30 s, 2 min, 10 min, 1 h and 6 h.
          </Text>
        </div>
        <Group gap="xs">
          <Tooltip label="Refresh the list" withArrow>
            <ActionIcon
              variant="default"
              size="lg"
              onClick={() => void refetch()}
              loading={isFetching && !isPending}
              aria-label="Refresh deliveries"
            >
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={canSendTest ? 'Sends a webhook.test event now' : 'Save the webhook, turned on, first'} withArrow>
            <Button
              leftSection={<IconSend size={16} />}
              onClick={() => void handleSendTest()}
              loading={isSendingTest}
              disabled={!canSendTest}
            >
              Send test event
            </Button>
          </Tooltip>
        </Group>
      </Group>

      {isPending && <ListSkeleton label="Loading the deliveries" rows={3} />}
      {error && <LoadErrorAlert title="Deliveries not loaded" message={error.message} onRetry={() => void refetch()} />}
      {deliveries?.length === 0 && (
        <EmptyPanel
          testId="deliveries-empty"
          icon={<IconWebhook size={28} />}
          title="No deliveries yet"
          description={
            canSendTest
              ? 'Events appear here as sessions end and payments settle. Send a test event to check your endpoint now.'
              : 'Save a webhook URL with Send events on; deliveries appear here as events happen.'
          }
        />
      )}
      {deliveries && deliveries.length > 0 && (
        <ScrollArea type="auto">
          <Table miw={760} verticalSpacing="sm" highlightOnHover data-testid="deliveries-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36} />
                <Table.Th>Event</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Response</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Next retry</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.map((delivery) => {
                const isOpen = openId === delivery.deliveryId;
                return (
                  <Fragment key={delivery.deliveryId}>
                    <Table.Tr data-testid="delivery-row">
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          onClick={() => setOpenId(isOpen ? null : delivery.deliveryId)}
                          aria-expanded={isOpen}
                          aria-label={`${isOpen ? 'Hide' : 'Show'} the ${delivery.eventType} delivery of ${formatWhen(delivery.createdAt)}`}
                        >
                          {isOpen ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td>
                        <Text ff="monospace" size="sm">
                          {delivery.eventType}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatWhen(delivery.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge delivery={delivery} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={delivery.lastResponseStatus === null ? 'dimmed' : undefined} data-testid="delivery-code">
                          {delivery.lastResponseStatus ?? '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{delivery.attemptCount}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c="dimmed">
                          {delivery.status === 'pending' && delivery.attemptCount > 0 && delivery.nextAttemptAt
                            ? formatWhen(delivery.nextAttemptAt)
                            : '—'}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                    {isOpen && (
                      <Table.Tr>
                        <Table.Td colSpan={7} bg="var(--mantine-color-gray-0)">
                          <DeliveryDetails
                            delivery={delivery}
                            onRedeliver={() => void handleRedeliver(delivery)}
                            isRedelivering={busyId === delivery.deliveryId}
                          />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Card>
  );
}
