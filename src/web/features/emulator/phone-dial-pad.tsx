import { IconBackspace, IconHome, IconPhone } from '@tabler/icons-react';
import type { Ref } from 'react';
import { Link } from 'react-router';
import { DIAL_PAD_ATTRIBUTE } from './emulator-keyboard';
import { DIAL_KEYS } from './emulator-session';
import classes from './emulator.module.css';

interface PhoneDialPadProps {
  number: string;
  appName: string;
  hint: { text: string; isError: boolean };
  /** The key last typed on the keyboard, lit for a moment as if pressed. */
  pressedKey: string | null;
  homeUrl: string;
  isDialling: boolean;
  /** Where the focus goes back to when the phone's screen closes. */
  callButtonRef: Ref<HTMLButtonElement>;
  onPress: (key: string) => void;
  onBackspace: () => void;
  onDial: () => void;
}

/** What a screen reader says for the keys whose sign it would read as punctuation. */
const SYMBOL_NAMES: Partial<Record<string, string>> = { '*': 'Star', '#': 'Hash' };

/** Long numbers shrink so a deep dial such as *920*55*1*2# still fits on one or two lines. */
function numberFontSize(length: number): number {
  if (length <= 10) return 38;
  if (length <= 14) return 32;
  if (length <= 20) return 26;
  return 22;
}

/**
 * The dial pad: keys 1-9, 0, * and # with letters under 2-9, the number dialled so far,
 * a home link, a backspace key and the green call key.
 */
export function PhoneDialPad({
  number,
  appName,
  hint,
  pressedKey,
  homeUrl,
  isDialling,
  callButtonRef,
  onPress,
  onBackspace,
  onDial,
}: PhoneDialPadProps) {
  return (
    <>
      <div className={classes.display}>
        <div className={classes.appLabel} title={appName}>
          <IconPhone size={12} aria-hidden="true" />
          <span>{appName}</span>
        </div>
        <output
          className={classes.number}
          aria-label="Number"
          aria-live="polite"
          data-testid="dial-number"
          style={{ fontSize: numberFontSize(number.length) }}
        >
          {number || <span className={classes.numberPlaceholder}>Enter a USSD code</span>}
        </output>
        <div className={`${classes.dialHint} ${hint.isError ? classes.dialHintError : ''}`} role={hint.isError ? 'alert' : undefined}>
          {hint.text}
        </div>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: role=group is what a fieldset would give; a fieldset's legend and box fight the keypad grid */}
      <div className={classes.keypad} role="group" aria-label="Dial pad" {...{ [DIAL_PAD_ATTRIBUTE]: '' }}>
        {DIAL_KEYS.map(({ key, letters }) => (
          // A key is named by what it shows, '2 ABC', as a phone's keypad reads; * and # by their names.
          <button
            key={key}
            type="button"
            className={`${classes.key} ${pressedKey === key ? classes.keyPressed : ''}`}
            onClick={() => onPress(key)}
            aria-label={SYMBOL_NAMES[key]}
            data-key={key}
          >
            <span className={key in SYMBOL_NAMES ? `${classes.keyDigit} ${classes.keyDigitSymbol}` : classes.keyDigit}>{key}</span>
            {letters && ' '}
            {/* Empty on 1, 0, * and #: it keeps their digit at the height of the others. */}
            <span className={classes.keyLetters}>{letters}</span>
          </button>
        ))}
      </div>
      <div className={classes.actionsRow} {...{ [DIAL_PAD_ATTRIBUTE]: '' }}>
        <Link to={homeUrl} className={classes.roundButton} aria-label="Home" data-testid="dial-home">
          <IconHome size={24} stroke={1.7} aria-hidden="true" />
        </Link>
        <button ref={callButtonRef} type="button" className={classes.callButton} onClick={onDial} disabled={isDialling} aria-label="Call">
          <IconPhone size={30} stroke={1.8} fill="currentColor" aria-hidden="true" />
        </button>
        <button type="button" className={classes.roundButton} onClick={onBackspace} disabled={!number} aria-label="Backspace">
          <IconBackspace size={24} stroke={1.7} aria-hidden="true" />
        </button>
      </div>
    </>
  );
}
