import { IconBackspace, IconHome, IconPhone } from '@tabler/icons-react';
import { Link } from 'react-router';
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
  onPress: (key: string) => void;
  onBackspace: () => void;
  onDial: () => void;
}

/** Long numbers shrink so a deep dial such as *920*55*1*2# still fits on one or two lines. */
function numberFontSize(length: number): number {
  if (length <= 10) return 38;
  if (length <= 14) return 32;
  if (length <= 20) return 26;
  return 22;
}

/**
 * The dial pad (spec: Emulator home): keys 1-9, 0, * and # with letters under 2-9, the number dialled so far,
 * a home link, a backspace key and the green call key.
 */
export function PhoneDialPad({ number, appName, hint, pressedKey, homeUrl, isDialling, onPress, onBackspace, onDial }: PhoneDialPadProps) {
  return (
    <>
      <div className={classes.display}>
        <div className={classes.appLabel} title={appName}>
          <IconPhone size={12} aria-hidden="true" />
          <span>{appName}</span>
        </div>
        <output className={classes.number} aria-label="Number" aria-live="polite" data-testid="dial-number" style={{ fontSize: numberFontSize(number.length) }}>
          {number || <span className={classes.numberPlaceholder}>Enter a USSD code</span>}
        </output>
        <div className={`${classes.dialHint} ${hint.isError ? classes.dialHintError : ''}`} role={hint.isError ? 'alert' : undefined}>
          {hint.text}
        </div>
      </div>
      <div className={classes.keypad} role="group" aria-label="Dial pad">
        {DIAL_KEYS.map(({ key, letters }) => (
          <button
            key={key}
            type="button"
            className={`${classes.key} ${pressedKey === key ? classes.keyPressed : ''}`}
            onClick={() => onPress(key)}
            aria-label={key === '*' ? 'Star' : key === '#' ? 'Hash' : key}
            data-key={key}
          >
            <span className={key === '*' || key === '#' ? `${classes.keyDigit} ${classes.keyDigitSymbol}` : classes.keyDigit}>{key}</span>
            <span className={classes.keyLetters} aria-hidden="true">
              {letters}
            </span>
          </button>
        ))}
      </div>
      <div className={classes.actionsRow}>
        <Link to={homeUrl} className={classes.roundButton} aria-label="Home" data-testid="dial-home">
          <IconHome size={24} stroke={1.7} aria-hidden="true" />
        </Link>
        <button type="button" className={classes.callButton} onClick={onDial} disabled={isDialling} aria-label="Call">
          <IconPhone size={30} stroke={1.8} fill="currentColor" aria-hidden="true" />
        </button>
        <button type="button" className={classes.roundButton} onClick={onBackspace} disabled={!number} aria-label="Backspace">
          <IconBackspace size={24} stroke={1.7} aria-hidden="true" />
        </button>
      </div>
    </>
  );
}
