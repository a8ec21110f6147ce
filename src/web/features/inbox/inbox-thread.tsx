import { Loader, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getInboxMedia } from '../../../shared/api/inbox.calls';
import type { InboxConversation, InboxMessage } from '../../../shared/api/inbox.schema';
import { callQuery } from '../../lib/call';
import { ChatRichContent } from '../bots/chat-media';
import { ChatTicks } from '../bots/chat-ticks';
import { formatListTime } from './inbox.api';
import classes from './inbox.module.css';

interface InboxThreadProps {
  conversation: InboxConversation;
  messages: InboxMessage[];
  /** The customer as the contact's page names them, else their number. */
  customerName: string;
  /** The signed-in agent, whose replies and notes say "You". */
  myId: string | null;
}

/**
 * A file a customer sent, drawn as the chat simulator draws it (a photo, a player, a file card); read through the
 * conversation, so an agent (who has no Media of the account) sees it too.
 */
function InboxMedia({ conversationId, mediaId }: { conversationId: string; mediaId: string }) {
  const media = useQuery({
    ...callQuery(getInboxMedia, { params: { conversationId, mediaId } }, 'The file could not be loaded.'),
    staleTime: 5 * 60_000,
  });
  if (media.isPending) return <Loader size="xs" aria-label="Loading the file" />;
  if (!media.data) return <Text size="xs">{media.error?.message ?? 'The file could not be loaded.'}</Text>;
  return <ChatRichContent message={{ type: 'media', media: media.data }} />;
}

function authorOf(message: InboxMessage, props: InboxThreadProps): string {
  const agent = message.authorId !== null && message.authorId === props.myId ? 'You' : message.authorName || 'An agent';
  switch (message.author) {
    case 'customer':
      return props.customerName;
    case 'bot':
      return `${props.conversation.appName} (bot)`;
    case 'agent':
      return agent;
    case 'note':
      return `Private note · ${agent}`;
    case 'event':
      return '';
  }
}

const BUBBLE: Record<InboxMessage['author'], string> = {
  customer: classes.bubble!,
  bot: `${classes.bubble} ${classes.bubbleBot}`,
  agent: `${classes.bubble} ${classes.bubbleAgent}`,
  note: `${classes.bubble} ${classes.bubbleNote}`,
  event: classes.event!,
};
const SIDE: Record<InboxMessage['author'], string> = {
  customer: classes.fromCustomer!,
  bot: classes.fromUs!,
  agent: classes.fromUs!,
  note: classes.fromNote!,
  event: classes.fromNote!,
};

/**
 * The conversation's messages in order, kept scrolled to the newest: the customer's on the left, the bot's and the
 * agents' on the right (each named), private notes across in yellow, never sent; who assigned or closed it, a
 * small line across ("Ama assigned this to Kofi"). A log, so a screen reader reads
 * each new message as it arrives.
 */
export function InboxThread(props: InboxThreadProps) {
  const { messages } = props;
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a message is added; it reads the DOM
  useEffect(() => {
    const thread = ref.current;
    if (thread) thread.scrollTop = thread.scrollHeight;
  }, [messages.length]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log is reached by keyboard to scroll it
    <div ref={ref} className={classes.thread} role="log" aria-label="Messages" tabIndex={0} data-testid="inbox-thread">
      {messages.length === 0 && (
        <Text size="sm" c="dimmed" ta="center">
          No messages yet.
        </Text>
      )}
      {messages.map((message) => (
        <div
          key={message.messageId}
          className={`${classes.message} ${SIDE[message.author]}`}
          data-testid="inbox-message"
          data-author={message.author}
        >
          <div className={BUBBLE[message.author]}>
            {message.author !== 'event' && <span className={classes.author}>{authorOf(message, props)}</span>}
            {message.mediaId && <InboxMedia conversationId={message.conversationId} mediaId={message.mediaId} />}
            {message.text && <p className={classes.text}>{message.text}</p>}
            <span className={classes.meta}>
              <time dateTime={message.createdAt}>{formatListTime(message.createdAt)}</time>
              {message.author === 'agent' && message.deliveryStatus && (
                <ChatTicks status={{ status: message.deliveryStatus, failureReason: message.error }} />
              )}
              {message.author === 'note' && <VisuallyHidden>(not sent to the customer)</VisuallyHidden>}
            </span>
          </div>
          {message.sendStatus === 'failed' && (
            <span className={classes.failed}>Not sent: {message.error || 'WhatsApp did not take it.'}</span>
          )}
        </div>
      ))}
    </div>
  );
}
