import { Box, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconLinkOff, IconMessagePlus, IconPlus, IconQrcode } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { BOT_MESSAGES, type LinkedNumber } from '../../../shared/api/bots.schema';
import type { LinkStatus } from '../../../shared/whatsapp';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { RowAction } from '../../components/row-action';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { hasQrButton, isLinking, NUMBER_LIST_RELOAD_DELAY_MS } from './linked-number-link';
import { type LinkDialogTarget, LinkedNumberLinkDialog } from './linked-number-link-dialog';
import { LinkedNumberStatusBadge } from './linked-number-status-badge';
import { StartConversationDialog } from './start-conversation-dialog';
import { linkedNumbersKey, useLinkedNumbers, useUnlinkNumberConfirm } from './use-bots';
import { useLinkStatusPolling } from './use-link-status-polling';
import { formatDateTime } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';

/**
 * A linking number's own poller (PENDING or QR): when its status differs from the row's, the list is read again,
 * and the row stops polling once it is neither.
 */
function LinkingNumberWatcher({ appId, linkId, status: rowStatus }: { appId: string; linkId: string; status: LinkStatus }) {
  const queryClient = useQueryClient();
  useLinkStatusPolling(linkId, {
    isImmediate: false,
    onStatus: (status) => {
      if (status !== rowStatus) void queryClient.invalidateQueries({ queryKey: linkedNumbersKey(appId) });
    },
  });
  return null;
}

const numberLabel = (number: LinkedNumber) => number.mobileNumber || 'this number';

/** Connected Numbers: the bot's linked WhatsApp numbers, Add Number, a row's QR code and unlink. */
export function LinkedNumberPanel({ appId }: { appId: string }) {
  const queryClient = useQueryClient();
  const { data: numbers, error, isPending, refetch } = useLinkedNumbers(appId);
  const confirmUnlink = useUnlinkNumberConfirm(appId);
  const [target, setTarget] = useState<LinkDialogTarget | null>(null);
  const [isStarting, setStarting] = useState(false);
  const reloadTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  function closeDialog() {
    setTarget(null);
    // The link may still be settling after the dialog stops polling: the list is read again a little later.
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: linkedNumbersKey(appId) }),
      NUMBER_LIST_RELOAD_DELAY_MS,
    );
  }

  const actions = (number: LinkedNumber) => (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      {hasQrButton(number.status) && (
        <RowAction
          label="QR code"
          ariaLabel={`QR code of ${numberLabel(number)}`}
          icon={IconQrcode}
          onClick={() => setTarget({ kind: 'qr', linkId: number.linkId, connector: number.connector })}
        />
      )}
      <RowAction
        label="Unlink"
        ariaLabel={`Unlink ${numberLabel(number)}`}
        icon={IconLinkOff}
        color="red"
        onClick={() => confirmUnlink(number)}
      />
    </Group>
  );

  const connectedDate = (number: LinkedNumber) =>
    number.connectedAt ? (
      <Text size="sm">{formatDateTime(number.connectedAt)}</Text>
    ) : (
      <Text size="sm" c="dimmed">
        Not connected
      </Text>
    );

  const columns: ListColumn<LinkedNumber>[] = [
    { header: 'Link ID', visibleFrom: 'md', render: (number) => <Code fz="xs">{number.linkId}</Code> },
    {
      header: 'Phone Number',
      render: (number) => (
        <>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {number.mobileNumber || 'Not linked yet'}
          </Text>
          {/* On a phone the link id and the date fold in here. */}
          <Box hiddenFrom="md" mt={4}>
            <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
              {number.linkId}
            </Code>
            <Box mt={2}>{connectedDate(number)}</Box>
          </Box>
        </>
      ),
    },
    {
      header: 'Status',
      render: (number) => (
        <Stack gap={4} align="flex-start">
          <LinkedNumberStatusBadge status={number.status} />
          {number.statusMessage && (number.status === 'FAILED' || number.status === 'DISCONNECTED') && (
            <Text size="xs" c="gray.7" maw={240}>
              {number.statusMessage}
            </Text>
          )}
        </Stack>
      ),
    },
    { header: 'Connected Date', visibleFrom: 'md', render: connectedDate },
    { header: 'Actions', align: 'right', render: actions },
  ];

  const addButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setTarget({ kind: 'add' })}>
      Add Number
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} fz="lg">
            Connected Numbers
          </Title>
          <Text size="sm" c="dimmed">
            The WhatsApp numbers this bot answers. Customers chat with the deployed version.
          </Text>
        </div>
        <Group gap="sm">
          {numbers?.some((number) => number.status === 'CONNECTED') && (
            <Button variant="light" leftSection={<IconMessagePlus size={18} />} onClick={() => setStarting(true)}>
              Start a conversation
            </Button>
          )}
          {numbers?.length !== 0 && addButton}
        </Group>
      </Group>
      <StartConversationDialog appId={appId} opened={isStarting} onClose={() => setStarting(false)} />

      {isPending && <ListSkeleton label="Loading the numbers" rows={2} />}
      {error && (
        <LoadErrorAlert
          testId="numbers-error"
          title={BOT_MESSAGES.fetchNumbersFailed}
          message={
            error.message === BOT_MESSAGES.fetchNumbersFailed ? 'The numbers could not be read. Try again in a moment.' : error.message
          }
          onRetry={() => void refetch()}
        />
      )}
      {numbers?.length === 0 && (
        <EmptyPanel
          testId="numbers-empty"
          icon={<IconQrcode size={28} />}
          title={BOT_MESSAGES.noNumbers}
          description="Link a WhatsApp number so customers can chat with this bot."
          action={addButton}
        />
      )}
      {numbers && numbers.length > 0 && (
        <ListTable
          rows={numbers}
          columns={columns}
          getRowKey={(number) => number.linkId}
          getRowMark={(number) => number.linkId}
          label="Connected Numbers"
          testId="numbers-table"
        />
      )}
      {numbers
        ?.filter((number) => isLinking(number.status))
        .map((number) => (
          <LinkingNumberWatcher key={number.linkId} appId={appId} linkId={number.linkId} status={number.status} />
        ))}

      <LinkedNumberLinkDialog appId={appId} target={target} onClose={closeDialog} />
    </Stack>
  );
}
