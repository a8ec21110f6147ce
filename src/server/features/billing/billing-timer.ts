import { and, asc, eq, inArray, isNotNull, isNull, lte, ne } from 'drizzle-orm';
import { billingReminders, subscriptions, transactions, users } from '../../../db/schema';
import { GRACE_DAYS, PENDING_PAYMENT_MINUTES, PERIOD_REMINDER_DAYS } from '../../../shared/api/billing.schema';
import { isPlanName, PLANS } from '../../../shared/billing/plans';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { createPeriodicTask, type PeriodicTask } from '../../periodic-task';
import { sendMail } from '../../core/mail';
import { verifyPendingPayment } from '../payments/payment-callbacks';
import { formatDay, formatDays, getReminderReach, pickReminder } from '../../core/dates';
import { HISTORY_TYPES } from './billing.service';
import { forgetStanding } from './plan-limits';
import { getGraceEnd } from './subscription';

/** Subscriptions and payments looked at per run; the next run takes the rest. */
const BATCH = 500;
/** The reminder row of the mail that says the subscription lapsed (inactive). */
const LAPSED = 0;

export interface BillingTimerReport {
  reminded: number;
  lapsed: number;
  /** Stale PENDING payments settled by the provider's verify call or expired. */
  settled: number;
}

export type BillingTimer = PeriodicTask<BillingTimerReport>;

/**
 * Keeps billing true to the clock (ctx.now): mails each paid subscription a reminder 7 and 1 days before its
 * period ends and one when it lapses (after the grace period), each recorded before it is mailed under a key of
 * account, period end and days, so several processes mail it once and a new period gets its own; and asks the
 * provider about plan, credit and shortcode payments still PENDING after PENDING_PAYMENT_MINUTES, settling
 * them as their callback would, or marking them FAILED (expired).
 */
export function createBillingTimer(ctx: AppContext, options: { intervalMs: number }): BillingTimer {
  async function mailOnce(
    subscription: { userId: string; plan: string; periodEnd: Date; email: string; fullName: string },
    days: number,
    now: Date,
  ): Promise<boolean> {
    const [marked] = await ctx.db
      .insert(billingReminders)
      .values({ userId: subscription.userId, periodEnd: subscription.periodEnd, days, sentAt: now })
      .onConflictDoNothing()
      .returning({ userId: billingReminders.userId });
    if (!marked) return false;
    const title = isPlanName(subscription.plan) ? PLANS[subscription.plan].title : subscription.plan;
    const page = `${getPublicOrigin(ctx.config)}/account-billing`;
    const end = formatDay(subscription.periodEnd);
    await sendMail(ctx, {
      to: subscription.email,
      subject: days === LAPSED ? `Your ${title} plan has been deactivated` : `Your ${title} plan ends on ${end} (in ${formatDays(days)})`,
      text: [
        `Hello ${subscription.fullName},`,
        '',
        days === LAPSED
          ? `Your ${title} plan ended on ${end} and was not renewed within ${GRACE_DAYS} days. Your live URLs and shortcodes now answer that the service is unavailable, and deploys are refused; test URLs and the emulator keep working.`
          : `Your ${title} plan ends on ${end}. It keeps working ${GRACE_DAYS} days more, until ${formatDay(getGraceEnd(subscription.periodEnd))}; after that your live URLs and shortcodes stop answering.`,
        `Make a payment on Account Billing: ${page}`,
      ].join('\n'),
    });
    return true;
  }

  async function remind(now: Date): Promise<{ reminded: number; lapsed: number }> {
    const due = await ctx.db
      .select({
        userId: subscriptions.userId,
        plan: subscriptions.plan,
        periodEnd: subscriptions.periodEnd,
        email: users.email,
        fullName: users.fullName,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .leftJoin(
        billingReminders,
        and(
          eq(billingReminders.userId, subscriptions.userId),
          eq(billingReminders.periodEnd, subscriptions.periodEnd),
          eq(billingReminders.days, LAPSED),
        ),
      )
      .where(
        and(
          ne(subscriptions.plan, 'TRIAL'),
          isNotNull(subscriptions.periodEnd),
          lte(subscriptions.periodEnd, getReminderReach(PERIOD_REMINDER_DAYS, now)),
          // Lapsed ones whose lapse was mailed are done.
          isNull(billingReminders.userId),
        ),
      )
      .orderBy(asc(subscriptions.periodEnd))
      .limit(BATCH);
    let reminded = 0;
    let lapsed = 0;
    for (const row of due) {
      const subscription = { ...row, periodEnd: row.periodEnd! };
      if (getGraceEnd(subscription.periodEnd).getTime() <= now.getTime()) {
        if (await mailOnce(subscription, LAPSED, now)) {
          lapsed++;
          forgetStanding(ctx, subscription.userId);
        }
        continue;
      }
      if (subscription.periodEnd.getTime() <= now.getTime()) continue;
      const days = pickReminder(PERIOD_REMINDER_DAYS, subscription.periodEnd, now);
      if (await mailOnce(subscription, days, now)) reminded++;
    }
    return { reminded, lapsed };
  }

  async function settleStale(now: Date): Promise<number> {
    const provider = ctx.paymentProviders.configured;
    const stale = await ctx.db
      .select({ reference: transactions.reference })
      .from(transactions)
      .where(
        and(
          eq(transactions.status, 'PENDING'),
          inArray(transactions.transactionType, HISTORY_TYPES),
          lte(transactions.createdAt, new Date(now.getTime() - PENDING_PAYMENT_MINUTES * 60_000)),
        ),
      )
      .orderBy(asc(transactions.createdAt))
      .limit(BATCH);
    let settled = 0;
    for (const { reference } of stale) {
      const result = await verifyPendingPayment(ctx, provider, reference, { expire: true });
      if (result?.outcome === 'settled') settled++;
    }
    return settled;
  }

  async function run(): Promise<BillingTimerReport> {
    const now = ctx.now();
    const { reminded, lapsed } = await remind(now);
    return { reminded, lapsed, settled: await settleStale(now) };
  }

  return createPeriodicTask('billing timer', run, { intervalMs: options.intervalMs, log: ctx.log });
}
