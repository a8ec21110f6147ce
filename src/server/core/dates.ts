// Calendar days and months in UTC, as plans, shortcode leases and their mails count them.

/** `2025-01-31` + 1 month -> `2025-02-28` (UTC; the day is kept where the month has it, else its last day). */
export function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(date);
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  return result;
}

/** `2025-03-04` */
export const formatDay = (date: Date) => date.toISOString().slice(0, 10);

export const DAY_MS = 24 * 60 * 60 * 1000;

// Expiry reminders (a plan's period end, a shortcode's expiry) are mailed some days before: `daysBefore` lists
// them, e.g. [7, 1]. Both timers ask the same two questions of it.

/** The latest end a reminder is due for now: ends up to the widest of `daysBefore` from now. */
export const getReminderReach = (daysBefore: readonly number[], now: Date) => new Date(now.getTime() + Math.max(...daysBefore) * DAY_MS);

/** The tightest reminder an end within reach is due: 1 when it ends within a day, else 7 for [7, 1]. */
export const pickReminder = (daysBefore: readonly number[], end: Date, now: Date) =>
  Math.min(...daysBefore.filter((days) => end.getTime() <= now.getTime() + days * DAY_MS));

/** `1 day`, `7 days` */
export const formatDays = (days: number) => `${days} ${days === 1 ? 'day' : 'days'}`;
