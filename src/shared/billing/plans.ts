/**
 * The one plan table: the public pricing page, the Account Billing page and the server's limits all read it
 * (docs/billing.md). Prices are in USD for the plan's whole period. A limit of `null` is unlimited.
 *
 * TRIAL is what an account has before its first plan payment (no subscription). Its limits are ours (the
 * published plans start at Basic): enough to build and try one real app, not to run a service on it.
 */

export const PLAN_NAMES = ['TRIAL', 'BASIC-3', 'BASIC-6', 'STANDARD', 'PREMIUM', 'ENTERPRISE'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** The plans an account can pay for on the billing page (TRIAL is free, Enterprise is by contact). */
export const PAID_PLAN_NAMES = ['BASIC-3', 'BASIC-6', 'STANDARD', 'PREMIUM'] as const;
export type PaidPlanName = (typeof PAID_PLAN_NAMES)[number];

/** What the spec's screens call `BASIC` (Retry from TRIAL) is this plan. */
export const BASIC_PLAN: PaidPlanName = 'BASIC-3';

/**
 * Menus one app may hold on every plan, unlimited ones included, and for every account, admins' too: an import's
 * checks and a deploy's lint look at every menu of the app on the server's thread, so the app's size bounds that
 * work (500 menus: some 25 ms of lint). Plans' own menu limits are below it.
 */
export const MAX_MENUS_PER_APP = 500;

export interface PlanLimits {
  /** Apps an account may own. */
  apps: number | null;
  /** Menus (screens) in one app. */
  menus: number | null;
  /** New sessions on live traffic (production URL and connected shortcodes) in a calendar month (UTC). */
  sessions: number | null;
  /** SMS sent by the account's apps in a calendar month (UTC). */
  sms: number | null;
  /** Bytes of media files the account keeps at once (docs/media.md, Quotas): files past the retention period free theirs. */
  mediaBytes: number | null;
}

const MB = 1024 * 1024;

/**
 * The kinds of data an account's traffic leaves behind, each with its own lifetime (docs/operations.md, "Data
 * lifetime"): log lines (and webhook deliveries), inputs, session records, action results, messages (WhatsApp, SMS,
 * replies, inbox conversations once closed, first messages) and media files.
 */
export const RETENTION_KINDS = ['logs', 'inputs', 'sessions', 'actionResults', 'messages', 'media'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Days a plan keeps each kind; null: as long as the operator's setting says (DATA_RETENTION_DAYS, MEDIA_RETENTION_DAYS). */
export type PlanRetention = Record<RetentionKind, number | null>;

/** The longest retention anyone may ask for: ten years less the leap days (the operator's settings' bound too). */
export const MAX_RETENTION_DAYS = 3650;

const retainAll = (days: number | null): PlanRetention => ({
  logs: days,
  inputs: days,
  sessions: days,
  actionResults: days,
  messages: days,
  media: days,
});

export interface Plan {
  name: PlanName;
  /** The heading of a card, `Basic`. */
  tier: string;
  /** `3 months`, `1 year`; empty where there is no period. */
  period: string;
  /** `Basic 3 months`: the subscription's `title`. */
  title: string;
  /** USD for one period; null for Enterprise (by contact), 0 for TRIAL. */
  price: number | null;
  /** Months one payment buys; null for TRIAL and Enterprise. */
  periodMonths: number | null;
  limits: PlanLimits;
  /** Days each kind of data is kept, at most (the operator's settings cap them; an account may ask for less). */
  retention: PlanRetention;
  /** The lines of the plan's card. */
  features: string[];
}

/** All plans include API calls support and connecting any external shortcode. */
export const ALL_PLANS_INCLUDE = ['API calls support', 'Connecting any external shortcode'];
const SUPPORT_AND_DEVELOPMENT = 'Application support and development';

const BASIC_LIMITS: PlanLimits = { apps: 2, menus: 50, sessions: 30_000, sms: 1000, mediaBytes: 1024 * MB };
const BASIC_FEATURES = ['2 apps', '50 screen menus', '30,000 sessions monthly', '1000 free SMS', ...ALL_PLANS_INCLUDE];

export const PLANS: Record<PlanName, Plan> = {
  TRIAL: {
    name: 'TRIAL',
    tier: 'Trial',
    period: '',
    title: 'Trial',
    price: 0,
    periodMonths: null,
    limits: { apps: 2, menus: 20, sessions: 500, sms: 50, mediaBytes: 50 * MB },
    retention: retainAll(30),
    features: ['2 apps', '20 screen menus', '500 live sessions monthly', '50 SMS monthly', 'Unlimited test sessions in the emulator'],
  },
  'BASIC-3': {
    name: 'BASIC-3',
    tier: 'Basic',
    period: '3 months',
    title: 'Basic 3 months',
    price: 50,
    periodMonths: 3,
    limits: BASIC_LIMITS,
    retention: retainAll(90),
    features: BASIC_FEATURES,
  },
  'BASIC-6': {
    name: 'BASIC-6',
    tier: 'Basic',
    period: '6 months',
    title: 'Basic 6 months',
    price: 85,
    periodMonths: 6,
    limits: BASIC_LIMITS,
    retention: retainAll(90),
    features: BASIC_FEATURES,
  },
  STANDARD: {
    name: 'STANDARD',
    tier: 'Standard',
    period: '1 year',
    title: 'Standard 1 year',
    price: 150,
    periodMonths: 12,
    limits: { apps: 10, menus: null, sessions: 50_000, sms: 2000, mediaBytes: 5 * 1024 * MB },
    retention: retainAll(180),
    features: ['10 apps', 'Unlimited menus', '50,000 sessions monthly', '2000 SMS monthly', ...ALL_PLANS_INCLUDE, SUPPORT_AND_DEVELOPMENT],
  },
  PREMIUM: {
    name: 'PREMIUM',
    tier: 'Premium',
    period: '1 year',
    title: 'Premium 1 year',
    price: 250,
    periodMonths: 12,
    // The published Premium card names no app limit: it has none.
    limits: { apps: null, menus: null, sessions: 100_000, sms: 3000, mediaBytes: 20 * 1024 * MB },
    retention: retainAll(365),
    features: ['Unlimited menus', '100,000 sessions monthly', '3000 SMS monthly', ...ALL_PLANS_INCLUDE, SUPPORT_AND_DEVELOPMENT],
  },
  ENTERPRISE: {
    name: 'ENTERPRISE',
    tier: 'Enterprise',
    period: '',
    title: 'Enterprise',
    price: null,
    periodMonths: null,
    limits: { apps: null, menus: null, sessions: null, sms: 3000, mediaBytes: null },
    retention: retainAll(null),
    features: ['Unlimited menus and sessions', 'API call support', '3000 bulk SMS monthly', 'Connecting any external shortcode', 'Support'],
  },
};

/** The pricing page's notes under the cards. */
export const PLAN_NOTES = {
  allPlans: 'All plans include API calls support and connecting any external shortcode.',
  support: 'Standard and Premium also include application support and development.',
  designOnly: 'App plan prices cover design only and do not include a shortcode.',
} as const;

export const isPlanName = (value: string): value is PlanName => (PLAN_NAMES as readonly string[]).includes(value);
export const isPaidPlanName = (value: string): value is PaidPlanName => (PAID_PLAN_NAMES as readonly string[]).includes(value);

/**
 * How many of the plan's periods one payment buys: with `isAnnual` (the billing page's toggle, on by default) a
 * year's worth (Basic 3 months: 4 periods, Basic 6 months: 2, the 1-year plans: 1), else one period.
 */
export function getPeriodCount(plan: PaidPlanName, isAnnual: boolean): number {
  const months = PLANS[plan].periodMonths ?? 12;
  return isAnnual ? Math.max(1, Math.round(12 / months)) : 1;
}

/** The USD a plan payment asks: `BASIC-3` annual is 4 × 50 = 200; not annual, 50. */
export function getPlanAmountUsd(plan: PaidPlanName, isAnnual: boolean): number {
  return (PLANS[plan].price ?? 0) * getPeriodCount(plan, isAnnual);
}

/** The months a plan payment buys: `BASIC-3` annual 12, not annual 3. */
export function getPlanMonths(plan: PaidPlanName, isAnnual: boolean): number {
  return (PLANS[plan].periodMonths ?? 12) * getPeriodCount(plan, isAnnual);
}
