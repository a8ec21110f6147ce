import { Anchor, Button, Loader, Popover, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconMessageBolt, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { InboxSavedReply } from '../../../shared/api/inbox.schema';
import { INBOX_SAVED_REPLIES_PATH, inboxSavedRepliesQuery } from './inbox.api';
import classes from './inbox.module.css';

/** More saved replies than this and the menu offers a search. */
const SEARCH_FROM = 6;

/** What saved replies are, for an empty list (the menu and the owner's screen). */
export const SAVED_REPLIES_EXPLAINED =
  'Saved replies are short answers your team sends again and again (opening hours, delivery times, how to pay). Pick one in the reply box to put its text in, then edit it before sending.';

/** Saved replies whose title or text holds every word typed (any case). */
export function searchSavedReplies(rows: InboxSavedReply[], search: string): InboxSavedReply[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => words.every((w) => `${r.title}\n${r.text}`.toLowerCase().includes(w)));
}

/**
 * The reply box's Saved replies menu (docs/inbox.md, "Saved replies"): the account's saved replies, searchable when
 * many; choosing one hands its text to the box, where the agent may edit it before sending.
 */
export function InboxSavedRepliesMenu({ onChoose, canManage }: { onChoose: (text: string) => void; canManage: boolean }) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const saved = useQuery({ ...inboxSavedRepliesQuery(), enabled: opened });
  const rows = saved.data ?? [];
  const shown = searchSavedReplies(rows, search);

  return (
    <Popover opened={opened} onChange={setOpened} position="top-start" width={340} shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconMessageBolt size={14} />}
          onClick={() => setOpened((o) => !o)}
          aria-expanded={opened}
          aria-haspopup="dialog"
        >
          Saved replies
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="Saved replies" role="dialog" data-testid="inbox-saved-replies">
        {saved.isLoading ? (
          <Loader size="sm" aria-label="Loading saved replies" />
        ) : saved.error ? (
          <Text size="sm" c="red" role="alert">
            {saved.error.message}
          </Text>
        ) : rows.length === 0 ? (
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              No saved replies yet
            </Text>
            <Text size="xs">{SAVED_REPLIES_EXPLAINED}</Text>
            {canManage ? (
              <Anchor component={Link} to={INBOX_SAVED_REPLIES_PATH} size="sm">
                Write the first
              </Anchor>
            ) : (
              <Text size="xs" c="dimmed">
                The account's owner writes them.
              </Text>
            )}
          </Stack>
        ) : (
          <Stack gap="xs">
            {rows.length > SEARCH_FROM && (
              <TextInput
                size="xs"
                placeholder="Search saved replies"
                aria-label="Search saved replies"
                leftSection={<IconSearch size={14} />}
                value={search}
                onChange={(event) => setSearch(event.currentTarget.value)}
                data-autofocus
              />
            )}
            <ScrollArea.Autosize mah={260} type="auto">
              <Stack gap={2} role="list">
                {shown.map((r) => (
                  <UnstyledButton
                    key={r.savedReplyId}
                    role="listitem"
                    className={classes.savedReply}
                    onClick={() => {
                      onChoose(r.text);
                      setOpened(false);
                      setSearch('');
                    }}
                  >
                    <Text size="sm" fw={600} lineClamp={1}>
                      {r.title}
                    </Text>
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {r.text}
                    </Text>
                  </UnstyledButton>
                ))}
                {shown.length === 0 && (
                  <Text size="xs" c="dimmed">
                    No saved reply matches "{search}".
                  </Text>
                )}
              </Stack>
            </ScrollArea.Autosize>
            {canManage && (
              <Anchor component={Link} to={INBOX_SAVED_REPLIES_PATH} size="xs">
                Manage saved replies
              </Anchor>
            )}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
