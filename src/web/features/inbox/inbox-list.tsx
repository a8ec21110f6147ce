import { Badge, Group, Paper, Text } from '@mantine/core';
import type { InboxConversation } from '../../../shared/api/inbox.schema';
import { describeAssignee, formatListTime, useInboxAgents } from './inbox.api';
import classes from './inbox.module.css';

interface InboxListProps {
  conversations: InboxConversation[];
  selectedId: string | null;
  myId: string | null;
  onSelect: (conversationId: string) => void;
  /** More conversations than the list shows. */
  isCut: boolean;
}

/** Who wrote the latest message, as the row's preview starts. */
const PREVIEW_PREFIX: Record<NonNullable<InboxConversation['lastMessage']>['author'], string> = {
  customer: '',
  bot: 'Bot: ',
  agent: 'Agent: ',
  note: 'Note: ',
  event: '',
};

/** The row's last line: the latest message, who wrote it first (a file without words as "A file"). */
export function describeLastMessage(c: InboxConversation): string {
  const last = c.lastMessage;
  if (!last || (last.text === '' && !last.hasMedia)) return 'No messages yet';
  return `${PREVIEW_PREFIX[last.author]}${last.text || 'A file'}`;
}

/** The conversations, most recent message first: the customer, the bot, the latest message, when, unread and who has it. */
export function InboxList({ conversations, selectedId, myId, onSelect, isCut }: InboxListProps) {
  const agents = useInboxAgents();
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <ul className={classes.list} aria-label="Conversations" data-testid="inbox-list">
        {conversations.map((c) => {
          const isSelected = c.conversationId === selectedId;
          return (
            <li key={c.conversationId}>
              <button
                type="button"
                className={`${classes.row} ${isSelected ? classes.rowSelected : ''}`}
                aria-current={isSelected ? 'true' : undefined}
                onClick={() => onSelect(c.conversationId)}
                data-testid="inbox-row"
                data-msisdn={c.msisdn}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={c.unreadCount > 0 ? 700 : 600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {c.contactName ? `${c.contactName} · ${c.msisdn}` : c.msisdn}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    {c.unreadCount > 0 && (
                      <Badge
                        size="sm"
                        circle={c.unreadCount < 10}
                        color="teal"
                        aria-label={`${c.unreadCount} unread`}
                        data-testid="inbox-unread"
                      >
                        {c.unreadCount}
                      </Badge>
                    )}
                    <Text size="xs" c="dimmed" component="time" dateTime={c.lastMessageAt}>
                      {formatListTime(c.lastMessageAt)}
                    </Text>
                  </Group>
                </Group>
                <Text size="xs" c="dimmed" className={classes.preview}>
                  {c.appName} · {c.status === 'closed' ? 'Closed' : describeAssignee(c, myId, agents)} ·{' '}
                  {c.channel === 'ussd' ? `Callback request${c.reason ? `: ${c.reason}` : ''}` : c.reason || 'Handed to a person'}
                </Text>
                <Text size="sm" className={classes.preview} data-testid="inbox-preview">
                  {describeLastMessage(c)}
                </Text>
              </button>
            </li>
          );
        })}
      </ul>
      {isCut && (
        <Text size="xs" c="dimmed" p="sm">
          The {conversations.length} most recent are shown.
        </Text>
      )}
    </Paper>
  );
}
