import { IconSend2 } from '@tabler/icons-react';
import { useState } from 'react';
import classes from './chat.module.css';

interface ChatComposerProps {
  isWaiting: boolean;
  onSend: (text: string) => void;
}

/** The text box and Send, as at the bottom of a WhatsApp chat; Enter sends. */
export function ChatComposer({ isWaiting, onSend }: ChatComposerProps) {
  const [text, setText] = useState('');
  const isEmpty = text.trim() === '';
  return (
    <form
      className={classes.composer}
      aria-label="Write a message"
      onSubmit={(event) => {
        event.preventDefault();
        if (isEmpty || isWaiting) return;
        onSend(text.trim());
        setText('');
      }}
    >
      <input
        className={classes.composerInput}
        aria-label="Message"
        placeholder="Message"
        autoComplete="off"
        maxLength={4096}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
      />
      <button type="submit" className={classes.sendButton} aria-label="Send" disabled={isEmpty || isWaiting}>
        <IconSend2 size={20} aria-hidden="true" />
      </button>
    </form>
  );
}
