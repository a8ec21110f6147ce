/** How the console shows amounts, periods and dates, the same on every screen. */

/** `150`, `12.5` -> `12.50`: whole amounts stay whole, others show cents. */
export const formatAmount = (value: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(value) ? 0 : 2, maximumFractionDigits: 2 });

/** `1 month`, `3 months`. */
export const formatMonths = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

/** `12 May 2026`; a dash before the first payment. */
export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** `12 Nov 2026, 14:05`: when a payment was started, in the browser's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}, ${date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
}

/** `29 Nov 2026, 14:05` in the browser's own format: when a key or a device was made or last used; `Never` for null. */
export const formatMoment = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

/** A badge in a table cell keeps its whole word: the cell grows instead of cutting it to 'AVAILA…'. */
export const WHOLE_BADGE_STYLES = { label: { overflow: 'visible' } } as const;
