/**
 * Where a key press lands on the emulator page, so the page's own keys (digits, Backspace, Enter to call or
 * send) work wherever the mouse clicked last, and never take a key from a field or a control that owns it.
 */

/**
 * Marks the dial pad's own buttons: Enter on one of them places the call instead of pressing it again, so a key
 * clicked with the mouse (and focused by the click) does not swallow Enter. Space still presses a focused key.
 */
export const DIAL_PAD_ATTRIBUTE = 'data-dial-pad';

/** Text being typed (an input, a text area, a select, editable content): its keys are its own. */
export const isTypingTarget = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** A field or a control that answers Enter itself (a button, a link, a tab). */
export const isControl = (target: EventTarget | null) =>
  isTypingTarget(target) || (target instanceof Element && !!target.closest('button, a[href], [role="button"], [role="tab"]'));

/** A button of the dial pad (its keys, Call, Backspace); its Home link stays a link. */
export const isDialPadButton = (target: EventTarget | null) =>
  target instanceof HTMLButtonElement && !!target.closest(`[${DIAL_PAD_ATTRIBUTE}]`);
