import { useEffect, useState, type ReactNode } from 'react';
import classes from './emulator.module.css';

const readClock = () => new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

function useClock(): string {
  const [time, setTime] = useState(readClock);
  useEffect(() => {
    const timer = setInterval(() => setTime(readClock()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return time;
}

/** The handset drawn in CSS: bezel, status bar with the emulated network, and whatever screen it shows. */
export function EmulatorPhoneFrame({ network, children }: { network: string; children: ReactNode }) {
  const time = useClock();
  return (
    <div className={classes.phone}>
      <div className={classes.screen}>
        <div className={classes.island} aria-hidden="true" />
        <div className={classes.statusBar} aria-hidden="true">
          <span>{time}</span>
          <span className={classes.statusRight}>
            <span>{network}</span>
            <span className={classes.signal}>
              <span style={{ height: 4 }} />
              <span style={{ height: 6 }} />
              <span style={{ height: 8 }} />
              <span style={{ height: 11 }} />
            </span>
            <span className={classes.battery} />
          </span>
        </div>
        {children}
        <div className={classes.homeIndicator} aria-hidden="true" />
      </div>
    </div>
  );
}
