import { Text } from '@mantine/core';
import { IconMessageReply } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { findSmsReplies } from '../../../shared/api/sms.calls';
import type { SmsReply } from '../../../shared/api/sms.schema';
import { ListSection } from '../../components/list-section';
import { type ListColumn, ListTable } from '../../components/list-table';
import { EmptyPanel } from '../../components/list-states';
import { callQuery } from '../../lib/call';
import { formatTime } from '../../lib/table-export';
import { SMS_REPLIES_LIMIT } from './sms.api';

export const SMS_REPLIES_EMPTY_TEXT =
  'When someone writes back to one of your SMS, their message is listed here, and STOP or START in it changes their SMS consent. With the local SMS provider, use Reply as the recipient on a message to play the person writing back.';

const columns: ListColumn<SmsReply>[] = [
  {
    header: 'Time',
    visibleFrom: 'sm',
    width: 170,
    render: (reply) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatTime(reply.receivedAt)}
      </Text>
    ),
  },
  {
    header: 'From',
    visibleFrom: 'sm',
    render: (reply) => (
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {reply.msisdn}
      </Text>
    ),
  },
  {
    header: 'Reply',
    cellProps: { style: { minWidth: 0 } },
    render: (reply) => (
      <>
        {/* On a phone the time and the number fold in here. */}
        <Text size="xs" c="gray.7" hiddenFrom="sm">
          {formatTime(reply.receivedAt)}
        </Text>
        <Text size="sm" fw={600} hiddenFrom="sm">
          From {reply.msisdn}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {reply.text}
        </Text>
      </>
    ),
  },
];

/** The SMS people sent back to the account, newest first (GET /api/sms/replies). */
export function SmsRepliesPanel() {
  const repliesQuery = useQuery(callQuery(findSmsReplies, { query: { limit: SMS_REPLIES_LIMIT } }, 'The replies could not be loaded.'));
  return (
    <ListSection
      query={repliesQuery}
      loadingLabel="Loading the replies"
      errorTitle="Replies not loaded"
      errorTestId="sms-replies-error"
      empty={
        <EmptyPanel
          testId="sms-replies-empty"
          icon={<IconMessageReply size={28} />}
          title="No replies yet"
          description={SMS_REPLIES_EMPTY_TEXT}
        />
      }
    >
      {(replies) => (
        <ListTable
          rows={replies}
          columns={columns}
          getRowKey={(reply) => reply.id}
          label="SMS replies"
          testId="sms-replies-table"
          pagedNoun={replies.length === 1 ? 'reply' : 'replies'}
        />
      )}
    </ListSection>
  );
}
