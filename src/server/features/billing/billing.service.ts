import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { subscriptionChanges, subscriptions, transactions, users } from '../../../db/schema';
import {
  type accountQuerySchema,
  type activateSubscriptionBodySchema,
  type AdminSubscription,
  BILLING_MESSAGES,
  type changePlanBodySchema,
  type creditAccountBodySchema,
  type extendSubscriptionBodySchema,
  type makePaymentBodySchema,
  type PaymentHistoryReply,
  type paymentHistoryQuerySchema,
  type PaymentHistoryRow,
  type PaymentReply,
  type Subscription,
  type SubscriptionTypes,
} from '../../../shared/api/billing.schema';
import { getPlanAmountUsd, getPlanMonths, PAID_PLAN_NAMES, type PaidPlanName, PLANS, type PlanName } from '../../../shared/billing/plans';
import { AppError, invalid, notFound } from '../../../shared/errors';
import { getRoles } from '../../../shared/roles';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { createPaymentReference, startCheckoutPayment } from '../payments/payment-start';
import { SHORTCODE_TRANSACTION_TYPE, type ShortcodePaymentMetadata } from '../../core/settlements';
import { addMonths, DAY_MS } from '../../core/dates';
import { findUsage, forgetStanding } from './plan-limits';
import {
  CREDIT_TRANSACTION_TYPE,
  type CreditPaymentMetadata,
  PLAN_TRANSACTION_TYPE,
  type PlanPaymentMetadata,
  renewFromBalance,
} from './plan-settlement';
import { findSubscriptionRow, getGraceEnd, getLimits, getPlanName, getSubscriptionState, type SubscriptionRow } from './subscription';
import { getUsdRate, roundMoney } from '../../core/money';
import { recordAdminAction } from '../../core/audit-log';

/** Every payment of an account the history lists. */
export const HISTORY_TYPES = [PLAN_TRANSACTION_TYPE, CREDIT_TRANSACTION_TYPE, SHORTCODE_TRANSACTION_TYPE];

function refuseWhenBillingOff(ctx: AppContext): void {
  if (ctx.config.BILLING === 'off') throw invalid(BILLING_MESSAGES.billingOff);
}

/** The subscription as the billing page shows it, with this month's usage against the plan. */
export async function toSubscription(
  ctx: AppContext,
  userId: string,
  row: SubscriptionRow | undefined,
  options: { isExempt?: boolean } = {},
): Promise<Subscription> {
  const now = ctx.now();
  const plan = getPlanName(row);
  const state = getSubscriptionState(row, now);
  // Admins' accounts are held to no plan (plan-limits.ts): their bars show no limit.
  const limits = options.isExempt ? getLimits({ ...ctx.config, BILLING: 'off' }, plan) : getLimits(ctx.config, plan);
  const usage = await findUsage(ctx, userId);
  const periodEnd = state === 'trial' ? null : (row?.periodEnd ?? null);
  return {
    plan,
    title: PLANS[plan].title,
    subscriptionStatus: state === 'inactive' && ctx.config.BILLING === 'on' ? 'inactive' : 'active',
    state,
    currency: 'USD',
    accountBalance: Number(row?.accountBalance ?? 0),
    periodStart: state === 'trial' ? null : (row?.periodStart?.toISOString() ?? null),
    periodEnd: periodEnd?.toISOString() ?? null,
    graceEndsAt: periodEnd ? getGraceEnd(periodEnd).toISOString() : null,
    billing: ctx.config.BILLING,
    usage: {
      month: now.toISOString().slice(0, 7),
      apps: { used: usage.apps, limit: limits.apps },
      menus: { used: usage.menus, limit: limits.menus },
      sessions: { used: usage.sessions, limit: limits.sessions },
      sms: { used: usage.sms, limit: limits.sms },
      mediaBytes: { used: usage.mediaBytes, limit: limits.mediaBytes },
    },
  };
}

/** GET /api/subscription/current */
export async function getCurrentSubscription(ctx: AppContext, user: AuthUser): Promise<Subscription> {
  return toSubscription(ctx, user.id, await findSubscriptionRow(ctx.db, user.id), { isExempt: getRoles(user).isAdmin });
}

/** GET /api/subscription/types */
export function getSubscriptionTypes(): SubscriptionTypes {
  return Object.fromEntries(
    PAID_PLAN_NAMES.map((name) => [
      name,
      {
        title: PLANS[name].title,
        price: PLANS[name].price ?? 0,
        annualPrice: getPlanAmountUsd(name, true),
        periodMonths: PLANS[name].periodMonths ?? 12,
      },
    ]),
  ) as SubscriptionTypes;
}

/** Starts a plan or credit payment of `amountUsd` on the provider's checkout page, charged in BILLING_CURRENCY. */
async function checkOut(
  ctx: AppContext,
  user: AuthUser,
  transactionType: typeof PLAN_TRANSACTION_TYPE | typeof CREDIT_TRANSACTION_TYPE,
  amountUsd: number,
  metadata: PlanPaymentMetadata | CreditPaymentMetadata,
  message: string,
): Promise<PaymentReply> {
  const payment = await startCheckoutPayment(ctx, user.id, {
    amount: roundMoney(amountUsd * ctx.config.BILLING_USD_RATE).toFixed(2),
    currency: ctx.config.BILLING_CURRENCY,
    transactionType,
    metadata: { ...metadata },
  });
  if (payment.status === 'FAILED')
    throw new AppError('upstream', `${BILLING_MESSAGES.paymentRefused}: ${payment.message ?? 'no reason given'}`);
  if (payment.checkoutUrl) return { status: '01', message, redirectUrl: payment.checkoutUrl, reference: payment.reference };
  // A provider that asks the payer elsewhere (on the phone) says how; the plan applies when it settles.
  return { status: '03', message: payment.message ?? message, reference: payment.reference };
}

/**
 * POST /api/subscription/makePayment: pays for the current plan (continuing from its period's end), or for any
 * plan from TRIAL. Another plan while on a paid one is changePlan's.
 */
export async function makePayment(ctx: AppContext, user: AuthUser, body: z.infer<typeof makePaymentBodySchema>): Promise<PaymentReply> {
  refuseWhenBillingOff(ctx);
  const current = getPlanName(await findSubscriptionRow(ctx.db, user.id));
  if (current !== 'TRIAL' && current !== body.plan) throw invalid(BILLING_MESSAGES.useChangePlan, { field: 'plan' });
  const amountUsd = getPlanAmountUsd(body.plan, body.isAnnual);
  const metadata: PlanPaymentMetadata = {
    kind: 'plan',
    plan: body.plan,
    months: getPlanMonths(body.plan, body.isAnnual),
    isAnnual: body.isAnnual,
    isChange: false,
    amountUsd,
    usdRate: ctx.config.BILLING_USD_RATE,
  };
  return checkOut(ctx, user, PLAN_TRANSACTION_TYPE, amountUsd, metadata, BILLING_MESSAGES.checkout);
}

/** POST /api/subscription/creditAccount: a custom USD amount for the balance, once paid. */
export async function creditAccount(ctx: AppContext, user: AuthUser, body: z.infer<typeof creditAccountBodySchema>): Promise<PaymentReply> {
  refuseWhenBillingOff(ctx);
  if (body.plan === 'ENTERPRISE') throw invalid(BILLING_MESSAGES.enterprise, { field: 'plan' });
  const metadata: CreditPaymentMetadata = { kind: 'credit', plan: body.plan, amountUsd: body.amount, usdRate: ctx.config.BILLING_USD_RATE };
  return checkOut(ctx, user, CREDIT_TRANSACTION_TYPE, body.amount, metadata, BILLING_MESSAGES.creditCheckout);
}

/**
 * POST /api/subscription/changePlan: the new plan starts now for one period. Paid from the balance when it
 * covers the price ('00', the balance is taken under the row's lock so two changes cannot both spend it), else
 * through the provider ('01'). The days left of the previous plan are not carried over.
 */
export async function changePlan(ctx: AppContext, user: AuthUser, body: z.infer<typeof changePlanBodySchema>): Promise<PaymentReply> {
  refuseWhenBillingOff(ctx);
  const plan: PaidPlanName = body.plan;
  const row = await findSubscriptionRow(ctx.db, user.id);
  if (getPlanName(row) === plan) throw invalid(BILLING_MESSAGES.samePlan, { field: 'plan' });
  const price = PLANS[plan].price ?? 0;
  const now = ctx.now();
  const paid = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ balance: subscriptions.accountBalance })
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id))
      .for('update');
    if (!locked || Number(locked.balance) < price) return undefined;
    return renewFromBalance(tx, user.id, plan, now, { reference: createPaymentReference(), isChange: true });
  });
  if (paid) {
    forgetStanding(ctx, user.id);
    ctx.log.info({ userId: user.id, plan }, 'plan changed from the account balance');
    return { status: '00', message: BILLING_MESSAGES.changedFromBalance, data: await toSubscription(ctx, user.id, paid) };
  }
  const metadata: PlanPaymentMetadata = {
    kind: 'plan',
    plan,
    months: PLANS[plan].periodMonths ?? 12,
    isAnnual: false,
    isChange: true,
    amountUsd: price,
    usdRate: ctx.config.BILLING_USD_RATE,
  };
  return checkOut(ctx, user, PLAN_TRANSACTION_TYPE, price, metadata, BILLING_MESSAGES.checkout);
}

type TransactionRow = typeof transactions.$inferSelect;

/** A payment as the history lists it: what it paid for, and its USD. */
function toHistoryRow(ctx: AppContext, row: TransactionRow): PaymentHistoryRow {
  // Any of PlanPaymentMetadata, CreditPaymentMetadata, ShortcodePaymentMetadata.
  const meta = (row.metadata ?? {}) as Partial<Omit<PlanPaymentMetadata, 'kind'> & Omit<ShortcodePaymentMetadata, 'kind'>> & {
    kind?: string;
  };
  const amount = Number(row.amount);
  let description: string;
  let amountUsd: number | null;
  let type: PaymentHistoryRow['type'];
  if (row.transactionType === PLAN_TRANSACTION_TYPE) {
    type = 'plan';
    const title = meta.plan && meta.plan in PLANS ? PLANS[meta.plan as PlanName].title : 'Plan';
    description = `${title} (${meta.months ?? '?'} months)${meta.isChange ? ', plan change' : ''}${meta.paidFrom === 'balance' ? ', from balance' : ''}`;
    amountUsd = Number(meta.amountUsd ?? amount);
  } else if (row.transactionType === CREDIT_TRANSACTION_TYPE) {
    type = 'credit';
    description = 'Account credit';
    amountUsd = Number(meta.amountUsd ?? amount);
  } else {
    type = 'shortcode';
    const months = Number(meta.leaseCount ?? 1);
    description = `Shortcode ${meta.kind === 'renew' ? 'renewal' : 'purchase'} ${row.shortcode} (${months} ${months === 1 ? 'month' : 'months'})`;
    // The rate when it was asked; a payment from before rates were kept, at today's (none set: no USD figure).
    const usdRate = getUsdRate(ctx.config, row.currency);
    amountUsd = typeof meta.amountUsd === 'number' ? meta.amountUsd : usdRate === null ? null : roundMoney(amount / usdRate);
  }
  return {
    description,
    date: row.createdAt.toISOString(),
    amountUsd,
    amount,
    currency: row.currency,
    status: row.status as PaymentHistoryRow['status'],
    reference: row.reference,
    type,
  };
}

/** GET /api/subscription/paymentHistory: the account's plan, credit and shortcode payments, newest first, one page. */
export async function findPaymentHistory(
  ctx: AppContext,
  user: AuthUser,
  query: z.infer<typeof paymentHistoryQuerySchema>,
): Promise<Omit<PaymentHistoryReply, 'status' | 'message'>> {
  const where = and(eq(transactions.userId, user.id), inArray(transactions.transactionType, HISTORY_TYPES));
  const [total] = await ctx.db.select({ n: count() }).from(transactions).where(where);
  const rows = await ctx.db
    .select()
    .from(transactions)
    .where(where)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { data: rows.map((row) => toHistoryRow(ctx, row)), page: query.page, pageSize: query.pageSize, total: total?.n ?? 0 };
}

// ---- admins ----

async function getAccountByEmail(
  ctx: AppContext,
  email: string,
): Promise<{ id: string; email: string; fullName: string; userType: string; roles: string[] }> {
  const [account] = await ctx.db
    .select({ id: users.id, email: users.email, fullName: users.fullName, userType: users.userType, roles: users.roles })
    .from(users)
    .where(eq(users.email, email.toLowerCase()));
  if (!account) throw notFound(BILLING_MESSAGES.accountNotFound);
  return account;
}

/** GET /api/subscription/account?email= (admins): the account's subscription and the changes admins made. */
export async function getAccountSubscription(ctx: AppContext, query: z.infer<typeof accountQuerySchema>): Promise<AdminSubscription> {
  const account = await getAccountByEmail(ctx, query.email);
  const changes = await ctx.db
    .select()
    .from(subscriptionChanges)
    .where(eq(subscriptionChanges.userId, account.id))
    .orderBy(desc(subscriptionChanges.createdAt))
    .limit(100);
  return {
    email: account.email,
    fullName: account.fullName,
    chatbotAccess: getRoles(account).isChatbotUser,
    subscription: await toSubscription(ctx, account.id, await findSubscriptionRow(ctx.db, account.id), {
      isExempt: getRoles(account).isAdmin,
    }),
    changes: changes.map((c) => ({
      kind: c.kind as 'extend' | 'activate',
      plan: c.plan as PlanName,
      days: c.days,
      reason: c.reason,
      adminEmail: c.adminEmail,
      periodEnd: c.periodEnd.toISOString(),
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/** Sets the period by hand and records who did it and why, in one transaction. */
async function changeByAdmin(
  ctx: AppContext,
  admin: AuthUser,
  accountId: string,
  change: { kind: 'extend' | 'activate'; plan: PlanName; days: number; reason: string; periodStart: Date; periodEnd: Date },
): Promise<Subscription> {
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(subscriptions)
      .values({
        userId: accountId,
        plan: change.plan,
        periodStart: change.periodStart,
        periodEnd: change.periodEnd,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: subscriptions.userId,
        set: { plan: change.plan, periodStart: change.periodStart, periodEnd: change.periodEnd, updatedAt: now },
      })
      .returning();
    await tx.insert(subscriptionChanges).values({
      userId: accountId,
      kind: change.kind,
      plan: change.plan,
      days: change.days,
      reason: change.reason,
      adminId: admin.id,
      adminEmail: admin.email,
      periodEnd: change.periodEnd,
      createdAt: now,
    });
    await recordAdminAction(tx, admin, 'subscription_changed', accountId, {
      kind: change.kind,
      plan: change.plan,
      days: change.days,
      reason: change.reason,
    });
    return saved!;
  });
  forgetStanding(ctx, accountId);
  ctx.log.info(
    { adminId: admin.id, accountId, kind: change.kind, plan: change.plan, days: change.days },
    'subscription changed by an admin',
  );
  return toSubscription(ctx, accountId, row);
}

/** POST /api/subscription/extend (admins): `days` more, from the later of now and the period's end; the plan stays. */
export async function extendSubscription(
  ctx: AppContext,
  admin: AuthUser,
  body: z.infer<typeof extendSubscriptionBodySchema>,
): Promise<Subscription> {
  const account = await getAccountByEmail(ctx, body.email);
  const row = await findSubscriptionRow(ctx.db, account.id);
  const plan = getPlanName(row);
  if (plan === 'TRIAL' || !row?.periodEnd) throw invalid('This account is on TRIAL: activate a plan instead', { field: 'email' });
  const now = ctx.now();
  const from = Math.max(row.periodEnd.getTime(), now.getTime());
  return changeByAdmin(ctx, admin, account.id, {
    kind: 'extend',
    plan,
    days: body.days,
    reason: body.reason,
    periodStart: row.periodStart ?? now,
    periodEnd: new Date(from + body.days * DAY_MS),
  });
}

/** POST /api/subscription/activate (admins): the plan, active from now for `days` or the plan's period. */
export async function activateSubscription(
  ctx: AppContext,
  admin: AuthUser,
  body: z.infer<typeof activateSubscriptionBodySchema>,
): Promise<Subscription> {
  if (body.plan === 'TRIAL') throw invalid('Choose a paid plan or ENTERPRISE to activate', { field: 'plan' });
  const account = await getAccountByEmail(ctx, body.email);
  const now = ctx.now();
  const periodEnd = body.days ? new Date(now.getTime() + body.days * DAY_MS) : addMonths(now, PLANS[body.plan].periodMonths ?? 12);
  const days = Math.round((periodEnd.getTime() - now.getTime()) / DAY_MS);
  return changeByAdmin(ctx, admin, account.id, {
    kind: 'activate',
    plan: body.plan,
    days,
    reason: body.reason,
    periodStart: now,
    periodEnd,
  });
}
