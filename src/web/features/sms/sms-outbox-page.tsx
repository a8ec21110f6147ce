import { Badge, Button, Stack, Tabs, Text } from '@mantine/core';
import { IconMessage, IconMessageReply, IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SmsMessage } from '../../../shared/api/sms.schema';
import { hasAdminPermission } from '../../../shared/roles';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { PageHeader } from '../../components/page-header';
import { callQuery } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { findSmsMessages } from '../../../shared/api/sms.calls';
import { OUTBOX_PROVIDER, SMS_OUTBOX_LIMIT, SMS_TAB_PARAM, describeDelivery, describeReplies } from './sms.api';
import { useCurrentUser } from '../../lib/use-current-user';
import { type ListColumn, ListTable } from '../../components/list-table';
import { SmsRepliesPanel } from './sms-replies-panel';
import { SmsReplyDialog } from './sms-reply-dialog';

export const SMS_OUTBOX_EMPTY_TEXT =
  "When one of your apps' Send SMS actions runs or a campaign sends an SMS, the message is listed here. With the local SMS provider (the default, SMS_PROVIDER=outbox) messages stay here and nothing leaves the machine; with Africa's Talking they are sent and listed with how it went.";

const STATUS_COLORS: Record<SmsMessage['status'], string> = { QUEUED: 'yellow', SENT: 'green', FAILED: 'red' };

/** The sender as the phone shows it; empty is the provider account's default. */
const senderOf = (sms: SmsMessage) => sms.sender || 'Default sender';
const appOf = (sms: SmsMessage) => sms.appName ?? 'No app';

/** Its replies, and for a message the local outbox kept, the recipient's reply played from here. */
function RepliesCell({ sms, onReply }: { sms: SmsMessage; onReply: (sms: SmsMessage) => void }) {
  return (
    <Stack gap={6} align="flex-start">
      <Text size="sm" c={sms.replies === 0 ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }} data-testid="sms-replies-count">
        {describeReplies(sms.replies)}
      </Text>
      {sms.provider === OUTBOX_PROVIDER && (
        <Button size="compact-xs" variant="light" leftSection={<IconMessageReply size={14} />} onClick={() => onReply(sms)}>
          Reply as the recipient
        </Button>
      )}
    </Stack>
  );
}

/**
 * SMS Outbox (/sms-outbox): the SMS the account's apps and campaigns sent, newest first (GET /api/sms/outbox), with
 * their delivery and replies; the Replies tab (?tab=replies) lists what people sent back (GET /api/sms/replies).
 */
export function SmsOutboxPage() {
  const user = useCurrentUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = searchParams.get(SMS_TAB_PARAM) === 'replies' ? 'replies' : 'messages';
  // Admins who read callers' sessions read the SMS sent to callers too, every account's.
  const isEveryAccount = user !== null && hasAdminPermission(user, 'tenantSession.read');

  return (
    <Stack gap="xl">
      <PageHeader
        title="SMS Outbox"
        description={
          isEveryAccount
            ? "The SMS apps sent, newest first. Your roles read callers' sessions, so every account's messages are here; the replies are your account's."
            : 'The SMS your apps and campaigns sent, newest first, with how the network delivered them and what people wrote back.'
        }
      />
      <Tabs
        value={tab}
        onChange={(value) => setSearchParams(value === 'replies' ? { [SMS_TAB_PARAM]: 'replies' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab value="messages" leftSection={<IconSend size={16} />}>
            Messages
          </Tabs.Tab>
          <Tabs.Tab value="replies" leftSection={<IconMessageReply size={16} />}>
            Replies
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="messages">
          <SmsMessagesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="replies">
          <SmsRepliesPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The messages, ten a page, each with its delivery and replies. */
function SmsMessagesPanel() {
  const messagesQuery = useQuery(callQuery(findSmsMessages, { query: { limit: SMS_OUTBOX_LIMIT } }, 'The SMS outbox could not be loaded.'));
  const [replyingTo, setReplyingTo] = useState<SmsMessage | null>(null);

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
          <Stack hiddenFrom="sm" mt={6}>
            <RepliesCell sms={sms} onReply={setReplyingTo} />
          </Stack>
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
      render: (sms) => {
        const delivery = describeDelivery(sms);
        return (
          <Stack gap={4} align="flex-start">
            <Badge variant="light" color={STATUS_COLORS[sms.status]} w="max-content">
              {sms.status}
            </Badge>
            {sms.lastError && (
              <Text size="xs" c="red.8" maw={220} style={{ overflowWrap: 'anywhere' }}>
                {sms.lastError}
              </Text>
            )}
            {delivery && (
              <Text size="xs" c={delivery.color} maw={220} style={{ overflowWrap: 'anywhere' }} data-testid="sms-delivery">
                {delivery.text}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      header: 'Replies',
      visibleFrom: 'sm',
      render: (sms) => <RepliesCell sms={sms} onReply={setReplyingTo} />,
    },
  ];

  return (
    <>
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
      <SmsReplyDialog sms={replyingTo} onClose={() => setReplyingTo(null)} />
    </>
  );
}
