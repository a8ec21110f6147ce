import { z } from 'zod';
import { MAX_MENUS_PER_APP, PAID_PLAN_NAMES, PLAN_NAMES } from '../billing/plans';
import { statusSchema } from './envelope';

/**
 * Billing: the calls, bodies, replies and messages shared by the Account Billing page and the server
 * (docs/billing.md has the model and the limits; the plan table is src/shared/billing/plans.ts). Every reply is
 * the envelope `{ status, message, data? }`. Amounts are USD.
 *
 * Everyone signed in (Account Billing):
 * - `GET  /api/subscription/current` -> `data`: {@link subscriptionSchema}
 * - `GET  /api/subscription/types` -> `data`: {@link subscriptionTypesSchema} (a map keyed by plan, with its price)
 * - `POST /api/subscription/makePayment` {@link makePaymentBodySchema} -> {@link paymentReplySchema}
 * - `POST /api/subscription/creditAccount` {@link creditAccountBodySchema} -> paymentReplySchema
 * - `POST /api/subscription/changePlan` {@link changePlanBodySchema} -> paymentReplySchema
 * - `GET  /api/subscription/paymentHistory?page=&pageSize=` -> {@link paymentHistoryReplySchema} (newest first)
 *
 * Replies of the three payment calls, as the page handles them:
 * - `'01'` + `redirectUrl`: open the payment page in a new tab (the sandbox checkout by default); the plan or
 *   credit applies once the provider's callback settles the payment;
 * - `'00'`: settled at once from the account balance (changePlan only); `data` is the new subscription;
 * - anything else (`'02'` bad input, `'03'` the provider refused, `'05'`): show `message`. With `BILLING=off`
 *   they answer `'02'` {@link BILLING_MESSAGES.billingOff}.
 *
 * Admins (any account's subscription, by its email):
 * - `GET  /api/subscription/account?email=` -> `data`: {@link adminSubscriptionSchema} (the subscription and its
 *   recorded changes)
 * - `POST /api/subscription/extend` {@link extendSubscriptionBodySchema} -> `data`: subscriptionSchema
 *   (adds days to the period end, from the later of now and the period end; the reason is recorded)
 * - `POST /api/subscription/activate` {@link activateSubscriptionBodySchema} -> `data`: subscriptionSchema
 *   (puts the account on a plan, active from now for the plan's period or `days`; the reason is recorded)
 */

/** After the period end an unpaid subscription keeps working this many days (state `grace`), then is inactive. */
export const GRACE_DAYS = 7;
/** Reminder mails go out this many days before the period end (and one when it lapses). */
export const PERIOD_REMINDER_DAYS = [7, 1] as const;
/** The owner is mailed when a month's live sessions or SMS reach these shares of the plan's allowance. */
export const USAGE_WARNING_PERCENTS = [80, 100] as const;
/** A plan or credit payment left PENDING this long is checked with the provider, then marked FAILED (expired). */
export const PENDING_PAYMENT_MINUTES = 60;
/** A custom credit is at least this and at most CREDIT_MAX_USD, with two decimals. */
export const CREDIT_MIN_USD = 1;
export const CREDIT_MAX_USD = 10_000;
export const HISTORY_PAGE_SIZE_DEFAULT = 20;
export const HISTORY_PAGE_SIZE_MAX = 100;
/** The page closes its progress dialog this long after the payment page opened. */
export const PROGRESS_CLOSE_MS = 3000;

/** Every fixed text of the billing calls and of the refusals that plan limits cause. */
export const BILLING_MESSAGES = {
  unknownPlan: 'Choose one of the plans: BASIC-3, BASIC-6, STANDARD or PREMIUM',
  enterprise: 'Enterprise is by contact: send us a message from the Contact page',
  samePlan: 'This is already your plan: use Make Payment to pay for it',
  useChangePlan: 'You are on another plan: use Change Plan to move to this one',
  amount: `Enter an amount in USD from ${CREDIT_MIN_USD} to ${CREDIT_MAX_USD.toLocaleString('en-US')}, with at most two decimals`,
  checkout: 'Complete the payment in the new tab. Your plan is updated as soon as the payment is confirmed.',
  creditCheckout: 'Complete the payment in the new tab. Your balance is credited as soon as the payment is confirmed.',
  changedFromBalance: 'Plan changed: paid from your account balance',
  paymentRefused: 'The payment provider refused the payment',
  billingOff: 'Billing is off on this installation: every plan limit is lifted and nothing is paid',
  deactivated: 'Your account has been disabled for none payment. Kindly make payment to activate your account immediately.',
  deployInactive: 'Your subscription is inactive: make a payment on Account Billing to deploy again',
  appLimit: (limit: number, title: string) =>
    `Your plan (${title}) allows ${limit} ${limit === 1 ? 'app' : 'apps'}. Delete an app or upgrade your plan on Account Billing.`,
  menuLimit: (limit: number, title: string) =>
    `Your plan (${title}) allows ${limit} menus in an app. Delete a menu or upgrade your plan on Account Billing.`,
  menuHardLimit: `An app may hold at most ${MAX_MENUS_PER_APP} menus on any plan. Split it into several apps.`,
  /** The caller's end screen on live traffic while the account is inactive. */
  liveInactive: 'This service is temporarily unavailable. Please try again later.',
  /** The caller's end screen when the month's live sessions are used up. */
  liveSessionLimit: 'This service has reached its limit for this month. Please try again later.',
  /** The sendSms action's result when the month's SMS are used up. */
  smsLimit: (limit: number) => `SMS not sent: the account's plan allows ${limit} SMS this month and they are used up`,
  smsInactive: "SMS not sent: the account's subscription is inactive",
  accountNotFound: 'No account has this email',
  reasonRequired: 'Enter the reason (it is recorded)',
  days: 'Enter a number of days from 1 to 3660',
} as const;

/** `BASIC` (the spec's Retry from TRIAL) reads as BASIC-3; names are matched in any case. */
const planText = z
  .string({ message: BILLING_MESSAGES.unknownPlan })
  .trim()
  .toUpperCase()
  .transform((plan) => (plan === 'BASIC' ? 'BASIC-3' : plan));
const paidPlan = planText.pipe(z.enum(PAID_PLAN_NAMES, { message: BILLING_MESSAGES.unknownPlan }));
const anyPlan = planText.pipe(z.enum(PLAN_NAMES, { message: BILLING_MESSAGES.unknownPlan }));

/** A USD amount as typed (`12.5`, `"12.50"`): two decimals at most, from CREDIT_MIN_USD to CREDIT_MAX_USD. */
export const usdAmountSchema = z
  .union([z.string().trim().max(20), z.number()], { message: BILLING_MESSAGES.amount })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value;
    const amount = Number(text);
    if (!/^\d{1,7}(\.\d{1,2})?$/.test(text) || amount < CREDIT_MIN_USD || amount > CREDIT_MAX_USD) {
      ctx.addIssue({ code: 'custom', message: BILLING_MESSAGES.amount });
      return z.NEVER;
    }
    return amount;
  });

// ---- bodies ----

/** POST /api/subscription/makePayment: pay for the current plan (or any plan from TRIAL or inactive). */
export const makePaymentBodySchema = z.object({
  plan: paidPlan,
  /** A year's worth of the plan's periods (the page's toggle, on by default), else one period. */
  isAnnual: z.boolean().default(true),
});
export type MakePaymentBody = z.input<typeof makePaymentBodySchema>;

/** POST /api/subscription/creditAccount: a custom USD amount added to the account balance once paid. */
export const creditAccountBodySchema = z.object({
  /** The plan the payment is meant for (the current one); recorded with the payment. */
  plan: anyPlan,
  amount: usdAmountSchema,
});
export type CreditAccountBody = z.input<typeof creditAccountBodySchema>;

/** POST /api/subscription/changePlan: '00' when the balance covers the plan's price, else '01' to pay it. */
export const changePlanBodySchema = z.object({ plan: paidPlan });
export type ChangePlanBody = z.input<typeof changePlanBodySchema>;

export const paymentHistoryQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(HISTORY_PAGE_SIZE_MAX).default(HISTORY_PAGE_SIZE_DEFAULT),
});
export type PaymentHistoryQuery = z.input<typeof paymentHistoryQuerySchema>;

const reason = z.string({ message: BILLING_MESSAGES.reasonRequired }).trim().min(1, BILLING_MESSAGES.reasonRequired).max(500);
const email = z.string().trim().toLowerCase().min(1, BILLING_MESSAGES.accountNotFound).max(254);
const days = z.coerce
  .number({ message: BILLING_MESSAGES.days })
  .int(BILLING_MESSAGES.days)
  .min(1, BILLING_MESSAGES.days)
  .max(3660, BILLING_MESSAGES.days);

export const accountQuerySchema = z.object({ email });

/** POST /api/subscription/extend (admins). */
export const extendSubscriptionBodySchema = z.object({ email, days, reason });
export type ExtendSubscriptionBody = z.input<typeof extendSubscriptionBodySchema>;

/** POST /api/subscription/activate (admins): `days` defaults to the plan's period (a year for Enterprise). */
export const activateSubscriptionBodySchema = z.object({ email, plan: anyPlan, days: days.optional(), reason });
export type ActivateSubscriptionBody = z.input<typeof activateSubscriptionBodySchema>;

// ---- replies ----

/**
 * `trial`: no plan paid yet (TRIAL limits); `active`: paid until `periodEnd`; `grace`: past `periodEnd` but
 * within GRACE_DAYS (still working, reminders sent); `inactive`: past the grace period unpaid (live traffic and
 * deploys refused). `subscriptionStatus` is `inactive` only in the last.
 */
export const SUBSCRIPTION_STATES = ['trial', 'active', 'grace', 'inactive'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

const usageSchema = z.object({
  used: z.number(),
  /** null: unlimited (and with billing off). */
  limit: z.number().nullable(),
});

export const subscriptionSchema = z.object({
  plan: z.enum(PLAN_NAMES),
  /** The plan's title, `Basic 3 months`. */
  title: z.string(),
  subscriptionStatus: z.enum(['active', 'inactive']),
  state: z.enum(SUBSCRIPTION_STATES),
  currency: z.literal('USD'),
  /** USD credited and not yet spent. */
  accountBalance: z.number(),
  /** ISO date-times; null on TRIAL. */
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  /** When an unpaid subscription becomes inactive (periodEnd + GRACE_DAYS); null on TRIAL. */
  graceEndsAt: z.string().nullable(),
  /** `off`: no limits and no plan payments on this installation (the page says so). */
  billing: z.enum(['on', 'off']),
  /**
   * This calendar month's use (UTC) against the plan: `menus` is the fullest app's; `mediaBytes` is not monthly: the
   * bytes of the files the account keeps now (those past retention or erased do not count).
   */
  usage: z.object({
    /** `2026-11` */
    month: z.string(),
    apps: usageSchema,
    menus: usageSchema,
    sessions: usageSchema,
    sms: usageSchema,
    mediaBytes: usageSchema,
  }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const planTypeSchema = z.object({
  title: z.string(),
  /** USD for one period. */
  price: z.number(),
  /** USD with the annual toggle (a year's worth of periods). */
  annualPrice: z.number(),
  periodMonths: z.number(),
});
/** GET /api/subscription/types: the plans that can be paid for, keyed by plan. */
export const subscriptionTypesSchema = z.record(z.enum(PAID_PLAN_NAMES), planTypeSchema);
export type SubscriptionTypes = Record<(typeof PAID_PLAN_NAMES)[number], z.infer<typeof planTypeSchema>>;

/** makePayment, creditAccount, changePlan. */
export const paymentReplySchema = z.object({
  status: statusSchema,
  message: z.string(),
  redirectUrl: z.string().optional(),
  /** Our payment reference (with '01'). */
  reference: z.string().optional(),
  /** With '00': the subscription after the change. */
  data: subscriptionSchema.optional(),
});
export type PaymentReply = z.infer<typeof paymentReplySchema>;

/** `plan` a plan payment, `credit` a custom amount, `shortcode` a shortcode purchase or renewal. */
export const PAYMENT_HISTORY_TYPES = ['plan', 'credit', 'shortcode'] as const;
export const PAYMENT_HISTORY_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;

export const paymentHistoryRowSchema = z.object({
  /** `Basic 3 months (12 months)`, `Account credit`, `Shortcode *920*34# (3 months)`, `Shortcode renewal ...`. */
  description: z.string(),
  /** ISO date-time the payment was started. */
  date: z.string(),
  /** USD; null for a payment made in another currency with no rate to USD (a shortcode in GHS). */
  amountUsd: z.number().nullable(),
  /** What the provider charged, in its currency. */
  amount: z.number(),
  currency: z.string(),
  status: z.enum(PAYMENT_HISTORY_STATUSES),
  reference: z.string(),
  type: z.enum(PAYMENT_HISTORY_TYPES),
});
export type PaymentHistoryRow = z.infer<typeof paymentHistoryRowSchema>;

/** GET /api/subscription/paymentHistory: `data` one page, newest first; `total` rows in all. */
export const paymentHistoryReplySchema = z.object({
  status: statusSchema,
  message: z.string(),
  data: z.array(paymentHistoryRowSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});
export type PaymentHistoryReply = z.infer<typeof paymentHistoryReplySchema>;

/** A recorded change an admin made by hand. */
export const subscriptionChangeSchema = z.object({
  kind: z.enum(['extend', 'activate']),
  plan: z.enum(PLAN_NAMES),
  days: z.number(),
  reason: z.string(),
  adminEmail: z.string(),
  periodEnd: z.string(),
  createdAt: z.string(),
});
export type SubscriptionChange = z.infer<typeof subscriptionChangeSchema>;

export const adminSubscriptionSchema = z.object({
  email: z.string(),
  fullName: z.string(),
  /** The account may build WhatsApp bots (the CHATBOT role; POST /api/admin/chatbot-access). */
  chatbotAccess: z.boolean(),
  subscription: subscriptionSchema,
  changes: z.array(subscriptionChangeSchema),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;
