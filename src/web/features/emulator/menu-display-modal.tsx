import { Loader } from '@mantine/core';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { EmulatorScreen } from './emulator.api';
import { splitMenuLines } from './emulator-session';
import classes from './emulator.module.css';

/** While a request is out the phone shows what a handset shows between USSD screens. */
export function MenuRunningIndicator() {
  return (
    <div className={classes.overlay}>
      <div className={classes.dialog} role="status" aria-live="polite">
        <div className={classes.running}>
          <Loader size={22} color="teal.7" />
          <span>USSD code running…</span>
        </div>
      </div>
    </div>
  );
}

interface MenuDisplayModalProps {
  screen: EmulatorScreen;
  onSend: (input: string) => void;
  onCancel: () => void;
}

/**
 * The menu display modal (spec: Emulator home): the response text one line per row, a reply input, Cancel and
 * Send. An ended session hides the input and Send. It is drawn on the phone's screen, as a handset shows it, and
 * is not modal to the page: the log and debug panels stay usable beside it.
 */
export function MenuDisplayModal({ screen, onSend, onCancel }: MenuDisplayModalProps) {
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const isEnded = screen.sessionMode === 'end';

  useEffect(() => {
    setInput('');
    (isEnded ? cancelRef.current : inputRef.current)?.focus();
  }, [screen, isEnded]);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isEnded) onSend(input);
  }

  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  }

  return (
    <div className={classes.overlay} onKeyDown={handleKeyDown}>
      <form
        className={classes.dialog}
        role="dialog"
        aria-labelledby={titleId}
        data-testid="menu-display"
        data-session-mode={screen.sessionMode}
        onSubmit={handleSubmit}
      >
        <div className={`${classes.dialogBody} ${screen.isError ? classes.dialogError : ''}`} id={titleId} data-testid="menu-text">
          {splitMenuLines(screen.text).map((line, index) => (
            <div key={index} className={classes.dialogLine}>
              {line}
            </div>
          ))}
        </div>
        {!isEnded && (
          <div style={{ padding: '0 20px' }}>
            <input
              ref={inputRef}
              className={classes.replyInput}
              value={input}
              onChange={(event) => setInput(event.currentTarget.value)}
              aria-label="Reply"
              autoComplete="off"
              inputMode="text"
              maxLength={182}
            />
          </div>
        )}
        <div className={classes.dialogActions}>
          <button ref={cancelRef} type="button" className={classes.dialogButton} onClick={onCancel}>
            Cancel
          </button>
          {!isEnded && (
            <button type="submit" className={classes.dialogButton}>
              Send
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
