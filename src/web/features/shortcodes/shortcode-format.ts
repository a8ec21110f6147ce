import type { Purchase } from '../../../shared/api/shortcodes.schema';
import { formatAmount, formatMonths } from '../../lib/format';

/** How every shortcode screen shows a price: `150 GHS per month`. */
export const formatMonthlyPrice = (price: number, currency: string) => `${formatAmount(price)} ${currency} per month`;

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
