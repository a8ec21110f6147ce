import { Loader, VisuallyHidden } from '@mantine/core';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { EmulatorScreen } from './emulator.api';
import { isControl } from './emulator-keyboard';
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

/**
 * Says each new screen to a screen reader, as a handset's reader would: the dialog's text takes focus once, but
 * the next screen of the same dialog would pass silently. Empty while a request is out, so a screen that
 * repeats the last one (a validation error typed twice) is still said. An ended session is said as such.
 */
export function MenuScreenAnnouncer({ screen }: { screen: EmulatorScreen | null }) {
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="menu-announcer">
      {screen && (
        <>
          {screen.sessionMode === 'end' && <div>Session ended.</div>}
          {splitMenuLines(screen.text).map((line, index) => (
            <div key={index}>{line}</div>
          ))}
        </>
      )}
    </VisuallyHidden>
  );
}

interface MenuDisplayModalProps {
  screen: EmulatorScreen;
  onSend: (input: string) => void;
  onCancel: () => void;
}

/**
 * The menu display modal: the response text one line per row, a reply input, Cancel and
 * Send. An ended session hides the input and Send. It is drawn on the phone's screen, as a handset shows it, and
 * is not modal to the page: the log and debug panels stay usable beside it. The reply box shows the menu's
 * input holder as its placeholder.
 */
export function MenuDisplayModal({ screen, onSend, onCancel }: MenuDisplayModalProps) {
  const [input, setInput] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const isEnded = screen.sessionMode === 'end';

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen (even with the same text) clears the reply box and moves focus
  useEffect(() => {
    setInput('');
    (isEnded ? cancelRef.current : inputRef.current)?.focus();
  }, [screen, isEnded]);

  // Wherever the mouse clicked last (the screen's text, the page), Enter sends the reply (closes an ended
  // screen), Escape cancels and typing goes to the reply box. Fields, buttons and links keep their own keys.
  useEffect(() => {
    function handleWindowKeyDown(event: globalThis.KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || isControl(event.target)) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onCancel();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        if (isEnded) onCancel();
        else formRef.current?.requestSubmit();
      } else if (!isEnded && event.key.length === 1) {
        // Focused before the character is inserted, so it lands in the box.
        inputRef.current?.focus();
      }
    }
    window.addEventListener('keydown', handleWindowKeyDown);
    return () => window.removeEventListener('keydown', handleWindowKeyDown);
  }, [isEnded, onCancel]);

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
    // biome-ignore lint/a11y/noStaticElementInteractions: the overlay only catches keys (Escape, Enter) bubbling from the dialog inside it
    <div className={classes.overlay} onKeyDown={handleKeyDown}>
      <form
        ref={formRef}
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
              placeholder={screen.inputHolder || undefined}
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
