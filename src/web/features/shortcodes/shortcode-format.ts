import type { Purchase } from '../../../shared/api/shortcodes.schema';

/** `150`, `12.5` -> `12.50`: whole amounts stay whole, others show cents. */
export const formatAmount = (value: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(value) ? 0 : 2, maximumFractionDigits: 2 });

/** How every shortcode screen shows a price: `150 GHS per month`. */
export const formatMonthlyPrice = (price: number, currency: string) => `${formatAmount(price)} ${currency} per month`;

/** A badge in a table cell keeps its whole word: the cell grows instead of cutting it to 'AVAILA…'. */
export const WHOLE_BADGE_STYLES = { label: { overflow: 'visible' } } as const;

/** `1 month`, `3 months`. */
export const formatMonths = (months: number) => `${months} ${months === 1 ? 'month' : 'months'}`;

/** `12 May 2026`; a dash before the first payment. */
export function formatDay(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

/** `14:05`, for a reservation's end. */
export const formatTime = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The period choices, `1 month` to `12 months`. */
export const monthOptions = (min: number, max: number) =>
  Array.from({ length: max - min + 1 }, (_, i) => ({ value: String(min + i), label: formatMonths(min + i) }));

/**
 * What a purchase's state means to its holder. An active purchase whose expiry has passed reads as expired
 * even before the server has marked it.
 */
export function getPurchaseState(purchase: Pick<Purchase, 'status' | 'expiryDate'>, now = Date.now()): Purchase['status'] {
  if (purchase.status === 'active' && purchase.expiryDate && new Date(purchase.expiryDate).getTime() <= now) return 'expired';
  return purchase.status;
}
