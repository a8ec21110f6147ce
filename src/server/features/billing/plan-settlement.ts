import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { subscriptions, transactions, users } from '../../../db/schema';
import { isPaidPlanName, PLANS, type PaidPlanName, type PlanName } from '../../../shared/billing/plans';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { sendMail } from '../../core/mail';
import type { AfterSettlement, SettledTransaction, TransactionType } from '../../core/settlements';
import { formatDay, addMonths } from '../../core/dates';
import { forgetStanding } from './plan-limits';
import { getPlanName, getSubscriptionState, type SubscriptionRow } from './subscription';
import { roundMoney } from '../../core/money';

/** The transaction types of plan payments and of credits to the account balance. */
export const PLAN_TRANSACTION_TYPE = 'plan' satisfies TransactionType;
export const CREDIT_TRANSACTION_TYPE = 'credit' satisfies TransactionType;

/** What a plan payment keeps in its transaction's metadata. */
export interface PlanPaymentMetadata {
  kind: 'plan';
  plan: PaidPlanName;
  months: number;
  isAnnual: boolean;
  /** Asked by changePlan: the new plan starts now rather than after the current period. */
  isChange: boolean;
  amountUsd: number;
  /** BILLING_USD_RATE when it was asked: `amount` (in the charged currency) is amountUsd × usdRate. */
  usdRate: number;
  /** Paid from the account balance rather than through the provider. */
  paidFrom?: 'balance';
}

export interface CreditPaymentMetadata {
  kind: 'credit';
  plan: PlanName;
  amountUsd: number;
  usdRate: number;
}

/**
 * Puts the account on `plan` for `months` more. Paying for the plan it is on, while active or in grace,
 * continues from the period's end (no gap and no lost days); anything else (a first plan, a change, after a
 * lapse) starts now. Answers the new row. Runs in the caller's transaction with the row locked.
 */
export async function applyPlanPeriod(
  tx: Db,
  userId: string,
  plan: PlanName,
  months: number,
  now: Date,
  options: { isChange?: boolean; balanceDelta?: number } = {},
): Promise<SubscriptionRow> {
  const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
  const state = getSubscriptionState(current, now);
  const continues = !options.isChange && getPlanName(current) === plan && (state === 'active' || state === 'grace') && !!current?.periodEnd;
  const from = continues ? current!.periodEnd! : now;
  const periodEnd = addMonths(from, months);
  const periodStart = continues ? (current!.periodStart ?? now) : now;
  const delta = (options.balanceDelta ?? 0).toFixed(2);
  const [row] = await tx
    .insert(subscriptions)
    .values({ userId, plan, periodStart, periodEnd, accountBalance: delta, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: { plan, periodStart, periodEnd, accountBalance: sql`${subscriptions.accountBalance} + ${delta}`, updatedAt: now },
    })
    .returning();
  return row!;
}

/** Adds USD to the balance (a row on TRIAL is created for an account that has none). */
async function addToBalance(tx: Db, userId: string, amountUsd: number, now: Date): Promise<SubscriptionRow> {
  const amount = amountUsd.toFixed(2);
  const [row] = await tx
    .insert(subscriptions)
    .values({ userId, plan: 'TRIAL', accountBalance: amount, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: { accountBalance: sql`${subscriptions.accountBalance} + ${amount}`, updatedAt: now },
    })
    .returning();
  return row!;
}

interface Receipt {
  to: { email: string; fullName: string };
  subject: string;
  lines: string[];
}

/** The receipt, mailed in the background once the settlement has committed. */
function mailReceipt(ctx: AppContext, receipt: Receipt): AfterSettlement {
  return async () =>
    ctx.background.run('billing receipt', () =>
      sendMail(ctx, {
        to: receipt.to.email,
        subject: receipt.subject,
        text: [
          `Hello ${receipt.to.fullName},`,
          '',
          ...receipt.lines,
          '',
          `Your plan and payment history: ${getPublicOrigin(ctx.config)}/account-billing`,
        ].join('\n'),
      }),
    );
}

async function findOwner(tx: Db, userId: string | null): Promise<{ email: string; fullName: string } | undefined> {
  if (!userId) return undefined;
  const [owner] = await tx.select({ email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId));
  return owner;
}

const formatUsd = (amount: number) => `USD ${amount.toFixed(2)}`;

/** The payment's amount as charged, and in USD when the charge was in another currency. */
function describeAmount(transaction: Pick<SettledTransaction, 'amount' | 'currency'>, amountUsd: number): string {
  const charged = `${transaction.currency} ${Number(transaction.amount).toFixed(2)}`;
  return transaction.currency === 'USD' ? charged : `${charged} (${formatUsd(amountUsd)})`;
}

/**
 * A plan payment settled: SUCCESS puts the account on the plan for the months paid (applyPlanPeriod) and mails
 * a receipt; FAILED changes nothing. Runs in the settlement's database transaction, once (buildApp gives it to
 * payments as the `plan` settlement handler).
 */
export async function settlePlanPayment(ctx: AppContext, tx: Db, transaction: SettledTransaction): Promise<AfterSettlement | undefined> {
  if (transaction.status !== 'SUCCESS' || !transaction.userId) return undefined;
  const meta = transaction.metadata as Partial<PlanPaymentMetadata>;
  if (!meta.plan || !isPaidPlanName(meta.plan)) {
    ctx.log.error({ reference: transaction.reference }, 'a plan payment settled without a plan');
    return undefined;
  }
  const months = Math.min(120, Math.max(1, Math.trunc(Number(meta.months) || 1)));
  const row = await applyPlanPeriod(tx, transaction.userId, meta.plan, months, ctx.now(), { isChange: !!meta.isChange });
  const owner = await findOwner(tx, transaction.userId);
  const userId = transaction.userId;
  const receipt = owner && {
    to: owner,
    subject: `Receipt: ${PLANS[meta.plan].title} until ${formatDay(row.periodEnd!)}`,
    lines: [
      `We received your payment of ${describeAmount(transaction, Number(meta.amountUsd ?? transaction.amount))} for ${PLANS[meta.plan].title} (${months} months).`,
      `Reference: ${transaction.reference}`,
      `Your plan is active until ${formatDay(row.periodEnd!)}.`,
    ],
  };
  return async () => {
    forgetStanding(ctx, userId);
    if (receipt) await mailReceipt(ctx, receipt)();
  };
}

/**
 * A credit settled: SUCCESS adds its USD to the account balance. An account whose paid plan has lapsed (grace or
 * inactive) and whose balance now covers one period of it is renewed from the balance at once, recorded as a
 * plan payment paid from the balance. Runs in the settlement's database transaction, once (the `credit` handler).
 */
export async function settleCreditPayment(ctx: AppContext, tx: Db, transaction: SettledTransaction): Promise<AfterSettlement | undefined> {
  if (transaction.status !== 'SUCCESS' || !transaction.userId) return undefined;
  const meta = transaction.metadata as Partial<CreditPaymentMetadata>;
  const amountUsd = roundMoney(Number(meta.amountUsd ?? 0));
  if (!(amountUsd > 0)) {
    ctx.log.error({ reference: transaction.reference }, 'a credit settled without an amount');
    return undefined;
  }
  const now = ctx.now();
  const userId = transaction.userId;
  let row = await addToBalance(tx, userId, amountUsd, now);
  const lines = [
    `We received your payment of ${describeAmount(transaction, amountUsd)} to your account balance.`,
    `Reference: ${transaction.reference}`,
  ];
  const plan = getPlanName(row);
  const state = getSubscriptionState(row, now);
  const price = PLANS[plan].price;
  if (isPaidPlanName(plan) && (state === 'grace' || state === 'inactive') && price !== null && Number(row.accountBalance) >= price) {
    row = await renewFromBalance(tx, userId, plan, now, { reference: `${transaction.reference}-RENEW` });
    lines.push(`It renewed ${PLANS[plan].title} from your balance until ${formatDay(row.periodEnd!)}.`);
  }
  lines.push(`Your balance is now ${formatUsd(Number(row.accountBalance))}.`);
  const owner = await findOwner(tx, userId);
  const receipt = owner && { to: owner, subject: `Receipt: ${formatUsd(amountUsd)} credited to your account`, lines };
  return async () => {
    forgetStanding(ctx, userId);
    if (receipt) await mailReceipt(ctx, receipt)();
  };
}

/**
 * One period of `plan` paid from the balance (which the caller checked covers it, under the row's lock): the
 * period applied, the price taken off, and a SUCCESS plan payment recorded for the history.
 */
export async function renewFromBalance(
  tx: Db,
  userId: string,
  plan: PaidPlanName,
  now: Date,
  options: { reference: string; isChange?: boolean },
): Promise<SubscriptionRow> {
  const price = PLANS[plan].price ?? 0;
  const months = PLANS[plan].periodMonths ?? 12;
  const row = await applyPlanPeriod(tx, userId, plan, months, now, { isChange: options.isChange, balanceDelta: -price });
  const metadata: PlanPaymentMetadata = {
    kind: 'plan',
    plan,
    months,
    isAnnual: false,
    isChange: !!options.isChange,
    amountUsd: price,
    usdRate: 1,
    paidFrom: 'balance',
  };
  await tx.insert(transactions).values({
    reference: options.reference,
    transactionType: PLAN_TRANSACTION_TYPE,
    amount: price.toFixed(2),
    currency: 'USD',
    status: 'SUCCESS',
    userId,
    metadata,
    createdAt: now,
    updatedAt: now,
  });
  return row;
}
