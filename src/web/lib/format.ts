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

/** A waiting time in its two largest units: `45 s`, `1 min 30 s`, `2 h 5 min`, `3 d 4 h`; a dash for none. */
/** A short time in milliseconds as people read it: `840 ms`, `4.5 s`, `15 s`; '—' when there is none. */
export const formatMs = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? '—' : ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ];
  let left = Math.round(seconds);
  const parts: string[] = [];
  for (const [name, size] of units) {
    const whole = Math.floor(left / size);
    left -= whole * size;
    if (whole > 0 || parts.length > 0) parts.push(`${whole} ${name}`);
    if (parts.length === 2) break;
  }
  return parts.length === 0 ? '0 s' : parts.filter((part, i) => i === 0 || !part.startsWith('0 ')).join(' ');
}
