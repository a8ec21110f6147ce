import type { Config } from '../config';

/** USD with two decimals, as a number. */
export const roundMoney = (amount: number) => Math.round(amount * 100) / 100;

/**
 * Units of `currency` per USD as configured: 1 for USD, BILLING_USD_RATE for BILLING_CURRENCY, else USD_RATES;
 * null when no rate is set (the payment history then shows what was charged, with no USD figure).
 */
export function getUsdRate(config: Config, currency: string): number | null {
  if (currency === 'USD') return 1;
  if (currency === config.BILLING_CURRENCY) return config.BILLING_USD_RATE;
  return config.USD_RATES[currency] ?? null;
}
