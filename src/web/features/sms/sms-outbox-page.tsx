import { Badge, Stack, Text } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { SmsMessage } from '../../../shared/api/sms.schema';
import { hasAdminPermission } from '../../../shared/roles';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { PageHeader } from '../../components/page-header';
import { callQuery } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { findSmsMessages } from '../../../shared/api/sms.calls';
import { SMS_OUTBOX_LIMIT } from './sms.api';
import { useCurrentUser } from '../../lib/use-current-user';
import { type ListColumn, ListTable } from '../../components/list-table';

export const SMS_OUTBOX_EMPTY_TEXT =
  "When one of your apps' Send SMS actions runs, the message is listed here. With the local SMS provider (the default, SMS_PROVIDER=outbox) messages stay here and nothing leaves the machine; with Africa's Talking they are sent and listed with how it went.";

const STATUS_COLORS: Record<SmsMessage['status'], string> = { QUEUED: 'yellow', SENT: 'green', FAILED: 'red' };

/** The sender as the phone shows it; empty is the provider account's default. */
const senderOf = (sms: SmsMessage) => sms.sender || 'Default sender';
const appOf = (sms: SmsMessage) => sms.appName ?? 'No app';

/** SMS Outbox (/sms-outbox): the SMS the account's apps sent, newest first (GET /api/sms/outbox). */
export function SmsOutboxPage() {
  const user = useCurrentUser();
  const messagesQuery = useQuery(callQuery(findSmsMessages, { query: { limit: SMS_OUTBOX_LIMIT } }, 'The SMS outbox could not be loaded.'));
  // Admins who read callers' sessions read the SMS sent to callers too, every account's.
  const isEveryAccount = user !== null && hasAdminPermission(user, 'tenantSession.read');

  const columns: ListColumn<SmsMessage>[] = [
    {
      header: 'Time',
      visibleFrom: 'sm',
      width: 170,
      render: (sms) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(sms.createdAt)}
        </Text>
      ),
    },
    {
      header: 'To',
      visibleFrom: 'sm',
      render: (sms) => (
        <>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {sms.recipient}
          </Text>
          <Text size="xs" c="gray.7">
            from {senderOf(sms)}
          </Text>
        </>
      ),
    },
    {
      header: 'Message',
      cellProps: { style: { minWidth: 0 } },
      render: (sms) => (
        <>
          {/* On a phone the time, the numbers and the app fold in here. */}
          <Text size="xs" c="gray.7" hiddenFrom="sm">
            {formatTime(sms.createdAt)}
          </Text>
          <Text size="sm" fw={600} hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
            To {sms.recipient} · from {senderOf(sms)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {sms.message}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="md" mt={2} style={{ overflowWrap: 'anywhere' }}>
            {appOf(sms)}
          </Text>
        </>
      ),
    },
    {
      header: 'App',
      visibleFrom: 'md',
      render: (sms) => (
        <Text size="sm" c={sms.appName ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
          {appOf(sms)}
        </Text>
      ),
    },
    {
      header: 'Status',
      render: (sms) => (
        <Stack gap={4} align="flex-start">
          <Badge variant="light" color={STATUS_COLORS[sms.status]} w="max-content">
            {sms.status}
          </Badge>
          {sms.lastError && (
            <Text size="xs" c="red.8" maw={220} style={{ overflowWrap: 'anywhere' }}>
              {sms.lastError}
            </Text>
          )}
        </Stack>
      ),
    },
  ];

  return (
    <Stack gap="xl">
      <PageHeader
        title="SMS Outbox"
        description={
          isEveryAccount
            ? "The SMS apps sent, newest first. Your roles read callers' sessions, so every account's messages are here."
            : 'The SMS your apps sent (the Send SMS action), newest first.'
        }
      />
      <ListSection
        query={messagesQuery}
        loadingLabel="Loading the SMS outbox"
        errorTitle="SMS outbox not loaded"
        errorTestId="sms-outbox-error"
        empty={
          <EmptyPanel testId="sms-outbox-empty" icon={<IconMessage size={28} />} title="No SMS yet" description={SMS_OUTBOX_EMPTY_TEXT} />
        }
      >
        {(messages) => (
          <ListTable
            rows={messages}
            columns={columns}
            getRowKey={(sms) => sms.id}
            label="SMS Outbox"
            testId="sms-outbox-table"
            pagedNoun={messages.length === 1 ? 'message' : 'messages'}
          />
        )}
      </ListSection>
    </Stack>
  );
}
