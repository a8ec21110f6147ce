import { IconX } from '@tabler/icons-react';
import { useEffect, useId, useRef } from 'react';
import type { WhatsAppChoice } from '../../../shared/whatsapp';
import type { ListMessage } from './chat-bubble';
import classes from './chat.module.css';

/** Tab and Shift+Tab go round the sheet's buttons instead of leaving it (it is modal). */
function keepFocusInside(event: React.KeyboardEvent<HTMLDivElement>) {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')];
  const first = buttons[0];
  const last = buttons.at(-1);
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}

interface ChatListSheetProps {
  message: ListMessage;
  onChoose: (choice: WhatsAppChoice) => void;
  onClose: () => void;
}

/**
 * A list message's rows, in a sheet rising over the chat as WhatsApp shows them. It is a small modal dialog:
 * the focus goes to the first row, Escape or the close button closes it, and the chat gives the focus back to
 * the button that opened it.
 */
export function ChatListSheet({ message, onChoose, onClose }: ChatListSheetProps) {
  const titleId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    listRef.current?.querySelector('button')?.focus();
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the dim backdrop closes the sheet, as a tap does on a phone; Escape and the close button are the keyboard's way
    <div
      className={classes.sheetBackdrop}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        } else if (event.key === 'Tab') keepFocusInside(event);
      }}
    >
      <div className={classes.sheet} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="chat-list-sheet">
        <div className={classes.sheetHeader}>
          <button type="button" className={classes.sheetClose} onClick={onClose} aria-label="Close the list">
            <IconX size={18} aria-hidden="true" />
          </button>
          <h3 className={classes.sheetTitle} id={titleId}>
            {message.button}
          </h3>
          <span style={{ width: 32 }} aria-hidden="true" />
        </div>
        <ul className={classes.sheetList} ref={listRef}>
          {message.rows.map((row) => (
            <li key={row.id}>
              <button type="button" className={classes.sheetRow} onClick={() => onChoose(row)}>
                <span className={classes.sheetRowTitle}>{row.title}</span>
                {row.description && <span className={classes.sheetRowDescription}>{row.description}</span>}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
