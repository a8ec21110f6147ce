/**
 * The shortcode figures the public pricing page shows (docs/product.md, Public pages), in one place so the page,
 * its tests and any later change read the same numbers. The plans are the one plan table, src/shared/billing/plans.ts,
 * which the billing page and the server read too.
 */

import { SHORTCODE_COUNTRIES, type ShortcodeCountry } from '../../../shared/api/shortcodes.schema';

/**
 * The pricing page's country tabs, in its own order (Kenya before Eswatini), from the one country table: a tab's
 * value is the country's name (also in the enquiry subject). The figures are the same in all four countries, in
 * the local currency.
 */
const PRICING_ORDER: ShortcodeCountry[] = ['Ghana', 'Nigeria', 'Kenya', 'Eswatini'];
export const PRICING_COUNTRIES = PRICING_ORDER.map((name) => SHORTCODE_COUNTRIES.find((c) => c.name === name)!);
export type PricingCountry = (typeof PRICING_COUNTRIES)[number];

/** The OTHERS tab's name in enquiry subjects: 'I want a Shared Shortcode for Another Country'. */
export const OTHER_COUNTRY = 'Another Country';

export const SHARED_SHORTCODE = {
  formats: ['*920*XX#', '*800*XXX#'],
  sessionCost: 0.005,
  setup: [
    { period: '1 year', price: 1700 },
    { period: '6 months', price: 900 },
    { period: '3 months', price: 500 },
  ],
};

export const DEDICATED_SHORTCODE = {
  networks: ['MTN', 'TELECEL', 'AT'],
  setupOneYear: 3000,
  sessionCost: 100,
  monthlyMaintenance: 2700,
};

export const PROVISIONING_NOTE = 'Shortcodes are provisioned within 24 hours after payment';

export type ShortcodeKind = 'Shared' | 'Dedicated';

/** The Talk to us modal's prefilled subject, e.g. 'I want a Dedicated Shortcode for Kenya'. */
export const shortcodeEnquirySubject = (kind: ShortcodeKind, country: string) => `I want a ${kind} Shortcode for ${country}`;

/** 1700 -> '1,700'; 0.005 stays '0.005'. */
export const formatAmount = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });
export const formatMoney = (currency: string, value: number) => `${currency} ${formatAmount(value)}`;
