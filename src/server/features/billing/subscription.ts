import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { subscriptions } from '../../../db/schema';
import { GRACE_DAYS, type SubscriptionState } from '../../../shared/api/billing.schema';
import { isPlanName, type PlanLimits, PLANS, type PlanName } from '../../../shared/billing/plans';
import type { Config } from '../../config';
import { DAY_MS } from '../../core/dates';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The plan a row names; no row (or a name no longer in the table) is TRIAL. */
export function getPlanName(row: Pick<SubscriptionRow, 'plan'> | undefined): PlanName {
  return row && isPlanName(row.plan) ? row.plan : 'TRIAL';
}

/** When an unpaid period stops working: GRACE_DAYS after its end. */
export const getGraceEnd = (periodEnd: Date) => new Date(periodEnd.getTime() + GRACE_DAYS * DAY_MS);

/** What the subscription is at `now` (billing.schema.ts, SUBSCRIPTION_STATES): read from the period and the clock. */
export function getSubscriptionState(row: Pick<SubscriptionRow, 'plan' | 'periodEnd'> | undefined, now: Date): SubscriptionState {
  if (getPlanName(row) === 'TRIAL' || !row?.periodEnd) return 'trial';
  if (row.periodEnd > now) return 'active';
  return getGraceEnd(row.periodEnd) > now ? 'grace' : 'inactive';
}

const UNLIMITED: PlanLimits = { apps: null, menus: null, sessions: null, sms: null, mediaBytes: null };

/** The plan's limits, or none at all with BILLING=off. */
export function getLimits(config: Config, plan: PlanName): PlanLimits {
  return config.BILLING === 'off' ? UNLIMITED : PLANS[plan].limits;
}

/** `2026-11`: the calendar month (UTC) usage counts in. */
export const toUsageMonth = (now: Date) => now.toISOString().slice(0, 7);

export async function findSubscriptionRow(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row;
}
