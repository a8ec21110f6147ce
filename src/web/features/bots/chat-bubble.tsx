import { VisuallyHidden } from '@mantine/core';
import { IconList } from '@tabler/icons-react';
import type { WhatsAppChoice, WhatsAppMessage } from '../../../shared/whatsapp';
import { type ChatEntry, type EntryStatus, formatChatTime } from './chat-entries';
import { ChatRichAction, ChatRichContent, isRichMessage } from './chat-media';
import { ChatTicks } from './chat-ticks';
import classes from './chat.module.css';

export type ListMessage = Extract<WhatsAppMessage, { type: 'list' }>;

interface ChatBubbleProps {
  entry: Pick<ChatEntry, 'direction' | 'message' | 'at'>;
  /** Who the bot is, for a screen reader ('Mensah Support: ...'). */
  botName: string;
  /** Its list or buttons can be picked (the bot's last message, not yet answered). */
  isLive?: boolean;
  onOpenList?: (message: ListMessage, opener: HTMLButtonElement) => void;
  onChoose?: (choice: WhatsAppChoice) => void;
  /** The bot's message's delivery status, where it is shown (the console's chat simulator). */
  status?: EntryStatus;
  /** A location request's Share location button opens the page's location form; absent: the button is off. */
  onShareLocation?: () => void;
}

/**
 * One message as WhatsApp draws it: the customer's on the right, the bot's on the left, the time under it. A
 * list message is its body and a button with the list's `button` text that opens the rows; a buttons message is
 * its body with up to three reply buttons under it; files, pins, cards, link buttons and location requests are
 * drawn as WhatsApp draws them (ChatRichContent).
 */
export function ChatBubble({ entry, botName, isLive = false, onOpenList, onChoose, status, onShareLocation }: ChatBubbleProps) {
  const { direction, message, at } = entry;
  const isIn = direction === 'in';
  const time = formatChatTime(at);
  return (
    <div className={`${classes.row} ${isIn ? classes.rowIn : classes.rowOut}`} data-testid="chat-message" data-direction={direction}>
      <div className={`${classes.bubble} ${isIn ? classes.bubbleIn : classes.bubbleOut}`}>
        <VisuallyHidden>{isIn ? 'You' : botName}: </VisuallyHidden>
        {isRichMessage(message) ? (
          <ChatRichContent message={message} />
        ) : (
          <p className={classes.bubbleText}>{message.type === 'text' ? message.text : message.body}</p>
        )}
        {(time || status) && (
          <span className={classes.time}>
            {time}
            {status && <ChatTicks status={status} />}
          </span>
        )}
        {isRichMessage(message) && <ChatRichAction message={message} onShareLocation={onShareLocation} />}
        {message.type === 'list' && (
          <button
            type="button"
            className={classes.listButton}
            disabled={!isLive}
            onClick={(event) => onOpenList?.(message, event.currentTarget)}
          >
            <IconList size={16} aria-hidden="true" />
            {message.button}
          </button>
        )}
      </div>
      {message.type === 'buttons' && (
        <div className={classes.replyButtons}>
          {message.buttons.map((choice) => (
            <button key={choice.id} type="button" className={classes.replyButton} disabled={!isLive} onClick={() => onChoose?.(choice)}>
              {choice.title}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
