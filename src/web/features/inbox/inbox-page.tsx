import { Box, Button, Grid, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconInbox, IconMessageBolt, IconMessageCircle, IconUsers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { INBOX_FILTERS, inboxEventSchema, type InboxFilter } from '../../../shared/api/inbox.schema';
import { getRoles } from '../../../shared/roles';
import { EmptyPanel } from '../../components/list-states';
import { LiveBadge } from '../../components/live-badge';
import { ListSection } from '../../components/list-section';
import { PageHeader } from '../../components/page-header';
import type { StreamState } from '../../lib/event-stream';
import { useLiveStream } from '../../lib/use-live-stream';
import { useCurrentUser } from '../../lib/use-current-user';
import { InboxConversationPane } from './inbox-conversation';
import { InboxList } from './inbox-list';
import {
  formatUnread,
  INBOX_AGENTS_PATH,
  INBOX_SAVED_REPLIES_PATH,
  INBOX_FILTER_LABELS,
  INBOX_KEY,
  inboxListQuery,
  useInboxUnread,
} from './inbox.api';

export const INBOX_EMPTY_TEXT = 'No conversations yet: when a bot hands a customer to a person, they appear here.';

const EMPTY_BY_FILTER: Record<InboxFilter, string> = {
  open: INBOX_EMPTY_TEXT,
  mine: 'No open conversation is assigned to you. Assign one to yourself from the Open or Unassigned tab.',
  unassigned: 'Every open conversation has an agent.',
  closed: 'No closed conversations yet: closing one hands the customer back to the bot.',
};

/** Keeps the account's live events coming while the screen is open: every event reloads the inbox's queries. */
function useInboxLive(): StreamState {
  const queryClient = useQueryClient();
  const reload = () => void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
  return useLiveStream('/api/inbox/events', inboxEventSchema, { onEvent: reload, onOpen: reload });
}

/** The tab's title: "(3) Inbox" while messages are unread. */
function useInboxTitle(unread: string, count: number) {
  useEffect(() => {
    const previous = document.title;
    document.title = count > 0 ? `(${unread}) Inbox · Dialflow` : 'Inbox · Dialflow';
    return () => {
      document.title = previous;
    };
  }, [unread, count]);
}

const readFilter = (value: string | null): InboxFilter => (INBOX_FILTERS.includes(value as InboxFilter) ? (value as InboxFilter) : 'open');

/**
 * The inbox (/inbox, docs/inbox.md): the conversations the account's bots handed to a person, by tab (open, mine,
 * unassigned, closed), and the one chosen beside the list (on a phone, in its place). The address bar keeps the tab
 * and the conversation (`?filter=&c=`); the live stream keeps both current without a reload.
 */
export function InboxPage() {
  const user = useCurrentUser();
  const myId = user?.uuid ?? null;
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params.get('filter'));
  const selectedId = params.get('c');
  const stream = useInboxLive();
  const list = useQuery(inboxListQuery(filter));
  const unread = useInboxUnread(true);
  useInboxTitle(formatUnread(unread), unread.count);

  const go = (next: { filter?: InboxFilter; c?: string | null }) => {
    const copy = new URLSearchParams(params);
    const nextFilter = next.filter ?? filter;
    if (nextFilter === 'open') copy.delete('filter');
    else copy.set('filter', nextFilter);
    const c = next.c === undefined ? selectedId : next.c;
    if (c) copy.set('c', c);
    else copy.delete('c');
    setParams(copy);
  };

  const listQuery = { ...list, data: list.data?.conversations };
  return (
    <Stack gap="lg">
      <PageHeader
        title={
          <Group gap="sm" component="span">
            Inbox
            <LiveBadge stream={stream} testId="inbox-live" />
          </Group>
        }
        description="Conversations your WhatsApp bots handed to a person, and your USSD callers' callback requests: reply within WhatsApp's 24-hour window (an approved template after it), call back, add private notes, assign, and close."
        action={
          user &&
          !getRoles(user).isAgent && (
            <Group gap="xs">
              <Button component={Link} to={INBOX_SAVED_REPLIES_PATH} variant="default" leftSection={<IconMessageBolt size={16} />}>
                Saved replies
              </Button>
              <Button component={Link} to={INBOX_AGENTS_PATH} variant="default" leftSection={<IconUsers size={16} />}>
                Agents
              </Button>
            </Group>
          )
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5, xl: 4 }} display={{ base: selectedId ? 'none' : 'block', md: 'block' }}>
          <Stack gap="sm">
            <SegmentedControl
              fullWidth
              aria-label="Conversations"
              value={filter}
              onChange={(value) => go({ filter: readFilter(value) })}
              data={INBOX_FILTERS.map((value) => ({
                value,
                label:
                  value === 'open' && unread.count > 0
                    ? `${INBOX_FILTER_LABELS[value]} (${formatUnread(unread)})`
                    : INBOX_FILTER_LABELS[value],
              }))}
            />
            <ListSection
              query={listQuery}
              loadingLabel="Loading conversations"
              errorTitle="Conversations not loaded"
              errorTestId="inbox-error"
              empty={
                <EmptyPanel
                  testId="inbox-empty"
                  icon={<IconInbox size={28} />}
                  title={filter === 'open' ? 'Your inbox is empty' : `No ${INBOX_FILTER_LABELS[filter].toLowerCase()} conversations`}
                  description={EMPTY_BY_FILTER[filter]}
                />
              }
            >
              {(rows) => (
                <InboxList
                  conversations={rows}
                  selectedId={selectedId}
                  myId={myId}
                  onSelect={(c) => go({ c })}
                  isCut={Boolean(list.data?.nextCursor)}
                />
              )}
            </ListSection>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, xl: 8 }} display={{ base: selectedId ? 'block' : 'none', md: 'block' }}>
          {selectedId ? (
            <InboxConversationPane key={selectedId} conversationId={selectedId} myId={myId} onBack={() => go({ c: null })} />
          ) : (
            <Paper withBorder radius="md" p="xl">
              <Box ta="center" c="dimmed">
                <IconMessageCircle size={32} aria-hidden="true" />
                <Text mt="xs">Choose a conversation to read it and reply.</Text>
              </Box>
            </Paper>
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
