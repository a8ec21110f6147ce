import { useEffect, useRef, useState } from 'react';
import type { WhatsAppChoice } from '../../../shared/whatsapp';
import { ChatBubble, type ListMessage } from './chat-bubble';
import { type ChatEntry, type EntryStatus, findLiveEntryId } from './chat-entries';
import { ChatListSheet } from './chat-list-sheet';
import classes from './chat.module.css';

export const CONVERSATION_ENDED_TEXT = 'Conversation ended — send any message to start again';

interface ChatThreadProps {
  entries: ChatEntry[];
  botName: string;
  /** The bot's last reply ended the conversation. */
  isEnded: boolean;
  /** A message is on its way and the bot has not answered yet. */
  isWaiting: boolean;
  /** Why the last message got no answer. */
  error: string | null;
  /** What shows before the first message. */
  emptyText: string;
  onChoose: (choice: WhatsAppChoice) => void;
  /** The bot's messages' delivery statuses by message id, where ticks are shown. */
  statuses?: ReadonlyMap<string, EntryStatus>;
  /** What shows while waiting, when not the bot typing (a file uploading). */
  waitingText?: string | null;
  /** Opens the page's location form, from a location request's Share location button. */
  onShareLocation?: () => void;
}

/**
 * The conversation: bubbles in order, kept scrolled to the newest. It is a log, so a screen reader reads each new
 * message as it arrives. The bot's last list opens its sheet over the chat.
 */
export function ChatThread({
  entries,
  botName,
  isEnded,
  isWaiting,
  error,
  emptyText,
  onChoose,
  statuses,
  onShareLocation,
  waitingText,
}: ChatThreadProps) {
  const threadRef = useRef<HTMLDivElement>(null);
  const [sheet, setSheet] = useState<{ message: ListMessage; opener: HTMLButtonElement } | null>(null);
  const liveId = findLiveEntryId(entries, isEnded);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when something is added; it reads the DOM
  useEffect(() => {
    const thread = threadRef.current;
    if (thread) thread.scrollTop = thread.scrollHeight;
  }, [entries.length, isWaiting, isEnded, error]);

  function closeSheet() {
    sheet?.opener.focus();
    setSheet(null);
  }

  function choose(choice: WhatsAppChoice) {
    setSheet(null);
    onChoose(choice);
  }

  return (
    <>
      <div
        ref={threadRef}
        className={classes.thread}
        role="log"
        aria-label={`Chat with ${botName}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so keyboard users can scroll it
        tabIndex={0}
        data-testid="chat-thread"
      >
        {entries.length === 0 && <div className={classes.dayNote}>{emptyText}</div>}
        {entries.map((entry) => (
          <ChatBubble
            key={entry.id}
            entry={entry}
            botName={botName}
            isLive={entry.id === liveId && !isWaiting}
            onOpenList={(message, opener) => setSheet({ message, opener })}
            onChoose={choose}
            status={entry.messageId ? statuses?.get(entry.messageId) : undefined}
            onShareLocation={entry.direction === 'out' && !isEnded ? onShareLocation : undefined}
          />
        ))}
        {isWaiting && (
          <div className={classes.typing} role="status">
            {waitingText ?? `${botName} is typing…`}
          </div>
        )}
        {error && (
          <div className={classes.error} role="alert">
            {error}
          </div>
        )}
        {isEnded && !isWaiting && (
          <div className={classes.ended} data-testid="chat-ended">
            {CONVERSATION_ENDED_TEXT}
          </div>
        )}
      </div>
      {sheet && <ChatListSheet message={sheet.message} onChoose={choose} onClose={closeSheet} />}
    </>
  );
}
