import type { SendWindow } from './api/campaigns.schema';
import { readLocalTime } from './office-hours';

/**
 * Whether `now` is inside a campaign's send window (`HH:MM`, from inclusive, to exclusive), in its time zone; no
 * window is every hour. The dispatcher sends only inside
 * it; the console says when a campaign waits for it.
 * @example isInSendWindow({ sendWindow: { from: '08:00', to: '20:00' }, timeZone: 'Africa/Accra' }, new Date('2026-01-02T21:00:00Z')) // false
 */
export function isInSendWindow(row: { sendWindow: SendWindow | null; timeZone: string }, now: Date): boolean {
  if (!row.sendWindow) return true;
  const { time } = readLocalTime(now, row.timeZone);
  return time >= row.sendWindow.from && time < row.sendWindow.to;
}

/** The local time now in the window's time zone (`HH:MM`), for saying how long a campaign waits. */
export const readWindowTime = (now: Date, timeZone: string): string => readLocalTime(now, timeZone).time;
