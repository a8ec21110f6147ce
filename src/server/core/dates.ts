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
