import { Alert, Button, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconLock, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { addInboxNote, replyInboxConversation } from '../../../shared/api/inbox.calls';
import { INBOX_MESSAGES, type InboxConversationDetail } from '../../../shared/api/inbox.schema';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { formatMoment } from '../../lib/format';
import { useCurrentUser } from '../../lib/use-current-user';
import { getRoles } from '../../../shared/roles';
import { INBOX_KEY } from './inbox.api';
import { InboxAttachment, useInboxAttachment } from './inbox-attachment';
import { InboxSavedRepliesMenu } from './inbox-saved-replies';
import { InboxTemplateReply } from './inbox-template-reply';

type Mode = 'reply' | 'note';

/** Why a reply cannot go now, in words; null when it can. */
export function findReplyBlock({ conversation }: InboxConversationDetail): string | null {
  if (conversation.status === 'closed') return INBOX_MESSAGES.closed;
  if (conversation.channel === 'ussd') return INBOX_MESSAGES.callbackNoReply;
  if (!conversation.linkId) return INBOX_MESSAGES.noLink;
  return null;
}

/**
 * The reply box: a text to the customer, or a private note the agents see (the toggle). A reply the conversation
 * does not allow is switched off and the box says why; once WhatsApp's window has closed the reply is an approved
 * template (InboxTemplateReply). Saved replies put their text into the box. The server's refusal shows under it.
 */
export function InboxComposer({ detail }: { detail: InboxConversationDetail }) {
  const queryClient = useQueryClient();
  const block = findReplyBlock(detail);
  const [chosen, setChosen] = useState<Mode>('reply');
  const mode: Mode = block ? 'note' : chosen;
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A reply's file (inbox-attachment.tsx); a note carries none.
  const attachment = useInboxAttachment();
  const media = mode === 'reply' ? attachment.media : null;
  const ready = Boolean(text.trim() || media) && !(mode === 'reply' && (attachment.uploading || attachment.error));
  const conversationId = detail.conversation.conversationId;
  const { window } = detail;
  const user = useCurrentUser();
  const canManage = !!user && !getRoles(user).isAgent;
  const needsTemplate = mode === 'reply' && window.state === 'closed';

  async function send() {
    if (!ready || sending) return;
    setSending(true);
    setError(null);
    const reply =
      mode === 'reply'
        ? await call(replyInboxConversation, {
            params: { conversationId },
            body: { text, mediaId: media?.mediaId, clientMessageId: crypto.randomUUID() },
          })
        : await call(addInboxNote, { params: { conversationId }, body: { text } });
    setSending(false);
    if (isOk(reply)) {
      setText('');
      if (media) attachment.clear();
    } else setError(failureText(reply, mode === 'reply' ? 'The reply was not sent.' : 'The note was not saved.'));
    await queryClient.invalidateQueries({ queryKey: INBOX_KEY });
  }

  return (
    <Stack
      gap="xs"
      component={needsTemplate ? 'div' : 'form'}
      aria-label="Reply"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <SegmentedControl
        value={mode}
        onChange={(value) => setChosen(value as Mode)}
        aria-label="Write"
        data={[
          { value: 'reply', label: 'Reply to the customer', disabled: Boolean(block) },
          { value: 'note', label: 'Private note' },
        ]}
      />
      {block ? (
        <Alert color="orange" variant="light" data-testid="inbox-reply-blocked">
          {block}
        </Alert>
      ) : (
        window.state === 'open' &&
        mode === 'reply' && (
          <Text size="xs" c="dimmed" data-testid="inbox-window">
            WhatsApp's 24-hour window is open until {formatMoment(window.openUntil)}.
          </Text>
        )
      )}
      {needsTemplate ? (
        <InboxTemplateReply detail={detail} canManage={canManage} />
      ) : (
        <>
          <Textarea
            label={mode === 'reply' ? 'Your reply' : 'Private note (the customer never sees it)'}
            placeholder={mode === 'reply' ? 'Write to the customer' : 'Write a note for the other agents'}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void send();
              }
            }}
            autosize
            minRows={2}
            maxRows={8}
            maxLength={4096}
          />
          {mode === 'reply' && <InboxAttachment attachment={attachment} disabled={sending} />}
          {error && (
            <Alert color="red" variant="light" role="alert" data-testid="inbox-send-error">
              {error}
            </Alert>
          )}
          <Group justify="space-between" gap="xs">
            <Group gap="xs">
              <InboxSavedRepliesMenu onChoose={setText} canManage={canManage} />
              <Text size="xs" c="dimmed" visibleFrom="sm">
                Ctrl+Enter sends
              </Text>
            </Group>
            <Button
              type="submit"
              loading={sending}
              disabled={!ready}
              leftSection={mode === 'note' ? <IconLock size={16} /> : <IconSend size={16} />}
            >
              {mode === 'reply' ? 'Send reply' : 'Add note'}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
