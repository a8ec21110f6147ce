/**
 * Every plan and price figure the public pricing page shows (docs/product.md, Public pages), in one place so the page,
 * its tests and any later change read the same numbers.
 */

export type PlanName = 'BASIC-3' | 'BASIC-6' | 'STANDARD' | 'PREMIUM';

export interface PlanDefinition {
  /** The plan key (subscription `plan`). */
  name: PlanName;
  /** Tier shown as the card heading. */
  tier: string;
  /** Billing period shown under the tier. */
  period: string;
  /** The plan title, e.g. 'Basic 3 months'. */
  title: string;
  /** Price in USD for the whole period. */
  price: number;
  features: string[];
}

/** All plans include API calls support and connecting any external shortcode. */
export const ALL_PLANS_INCLUDE = ['API calls support', 'Connecting any external shortcode'];
/** Standard and Premium also include application support and development. */
const SUPPORT_AND_DEVELOPMENT = 'Application support and development';

const BASIC_FEATURES = ['2 apps', '50 screen menus', '30,000 sessions monthly', '1000 free SMS', ...ALL_PLANS_INCLUDE];

export const PLANS: PlanDefinition[] = [
  { name: 'BASIC-3', tier: 'Basic', period: '3 months', title: 'Basic 3 months', price: 50, features: BASIC_FEATURES },
  { name: 'BASIC-6', tier: 'Basic', period: '6 months', title: 'Basic 6 months', price: 85, features: BASIC_FEATURES },
  {
    name: 'STANDARD',
    tier: 'Standard',
    period: '1 year',
    title: 'Standard 1 year',
    price: 150,
    features: ['10 apps', 'Unlimited menus', '50,000 sessions monthly', '2000 SMS monthly', ...ALL_PLANS_INCLUDE, SUPPORT_AND_DEVELOPMENT],
  },
  {
    name: 'PREMIUM',
    tier: 'Premium',
    period: '1 year',
    title: 'Premium 1 year',
    price: 250,
    features: ['Unlimited menus', '100,000 sessions monthly', '3000 SMS monthly', ...ALL_PLANS_INCLUDE, SUPPORT_AND_DEVELOPMENT],
  },
];

export const ENTERPRISE_FEATURES = [
  'Unlimited menus and sessions',
  'API call support',
  '3000 bulk SMS monthly',
  'Connecting any external shortcode',
  'Support',
];

export const PLAN_NOTES = {
  allPlans: 'All plans include API calls support and connecting any external shortcode.',
  support: 'Standard and Premium also include application support and development.',
  designOnly: 'App plan prices cover design only and do not include a shortcode.',
};

export interface ShortcodeCountry {
  /** Tab value and the name used in the enquiry subject. */
  name: string;
  currency: string;
}

/** The figures are the same in all four countries, in the local currency. */
export const SHORTCODE_COUNTRIES: ShortcodeCountry[] = [
  { name: 'Ghana', currency: 'GHS' },
  { name: 'Nigeria', currency: 'NGN' },
  { name: 'Kenya', currency: 'KES' },
  { name: 'Eswatini', currency: 'SZL' },
];

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
