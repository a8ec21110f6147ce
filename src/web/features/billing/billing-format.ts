import type { Subscription } from '../../../shared/api/billing.schema';
import { formatAmount } from '../../lib/format';

/** `$50`, `$12.50`, `$1,200`: how the billing page shows a USD amount. */
export const formatUsd = (amount: number) => `$${formatAmount(amount)}`;

/** `November 2026` for the usage's month `2026-11`. */
export function formatUsageMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return new Date(Date.UTC(year, monthNumber - 1, 1)).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The status badge the spec names: a green Active, or Deactivated once the subscription is inactive. */
export const getStatusBadge = (subscription: Pick<Subscription, 'subscriptionStatus'>) =>
  subscription.subscriptionStatus === 'inactive' ? { label: 'Deactivated', color: 'red' } : { label: 'Active', color: 'teal' };
