/**
 * How long each kind of an account's data is kept (docs/operations.md, "Data lifetime"): the least of its plan's
 * figure (shared/billing/plans.ts), the operator's setting (DATA_RETENTION_DAYS, MEDIA_RETENTION_DAYS; 0: none)
 * and what the account asked for; none of the three: kept for ever. An admin's account, and every account with
 * BILLING=off, has no plan figures.
 *
 * Expiry goes by whole UTC days: a row goes once the whole day it happened in is more than the retention ago, so a
 * row is kept its days and at most one more, and a day is either whole in the tables or gone from them (the daily
 * counts stand in for it on the dashboard: daily-counts.ts).
 */
import { eq, sql } from 'drizzle-orm';
import { apps, subscriptions, users } from '../../../db/schema';
import { MAX_RETENTION_DAYS, PLANS, type PlanRetention, type RetentionKind } from '../../../shared/billing/plans';
import { getRoles } from '../../../shared/roles';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { DAY_MS } from '../../core/dates';
import { getPlanName } from '../billing/subscription';

export type AskedRetention = Partial<Record<RetentionKind, number>>;

/** What an account's retention is made of: its plan's figures (null: none apply) and its own asks. */
export interface RetentionTerms {
  plan: PlanRetention | null;
  asked: AskedRetention | null;
}

/** The operator's days for a kind; null when the setting is 0 (no bound of theirs). */
export function getOperatorDays(config: Config, kind: RetentionKind): number | null {
  const days = kind === 'media' ? config.MEDIA_RETENTION_DAYS : config.DATA_RETENTION_DAYS;
  return days > 0 ? days : null;
}

const leastOf = (...figures: Array<number | null | undefined>): number | null => {
  const set = figures.filter((f): f is number => typeof f === 'number');
  return set.length > 0 ? Math.min(...set) : null;
};

/** The most an account may ask to keep a kind: its plan's or the operator's days, else ten years. */
export const getRetentionBound = (config: Config, terms: RetentionTerms, kind: RetentionKind): number =>
  leastOf(terms.plan?.[kind], getOperatorDays(config, kind)) ?? MAX_RETENTION_DAYS;

/** The days a kind is kept for the account; null: for ever. */
export const getRetentionDays = (config: Config, terms: RetentionTerms, kind: RetentionKind): number | null =>
  leastOf(terms.plan?.[kind], getOperatorDays(config, kind), terms.asked?.[kind]);

/** The start of the UTC day of `at`. */
export const startOfUtcDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** Rows that happened before this are past `days`: the start of the day `days` whole days before today (UTC). */
export const getRetentionCutoff = (now: Date, days: number) => new Date(startOfUtcDay(now).getTime() - days * DAY_MS);

interface AccountRow {
  userType: string;
  roles: string[];
  retention: AskedRetention | null;
  plan: string | null;
}

function toTerms(config: Config, row: AccountRow): RetentionTerms {
  const hasPlan = config.BILLING !== 'off' && !getRoles(row).isAdmin;
  return { plan: hasPlan ? PLANS[getPlanName(row.plan === null ? undefined : { plan: row.plan })].retention : null, asked: row.retention };
}

const accountColumns = { userType: users.userType, roles: users.roles, retention: users.retention, plan: subscriptions.plan };

/** One account's terms; undefined for no such account. */
export async function findRetentionTerms(ctx: AppContext, accountId: string): Promise<RetentionTerms | undefined> {
  const [row] = await ctx.db
    .select(accountColumns)
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, accountId));
  return row && toTerms(ctx.config, row);
}

/** The accounts (and their apps) that keep a kind for the same number of days, with the day their rows go before. */
export interface RetentionGroup {
  days: number;
  cutoff: Date;
  ownerIds: string[];
  apps: Array<{ id: string; createdAt: Date }>;
}

/**
 * Every account grouped by the days it keeps `kind` (accounts that keep it for ever are in no group), for the
 * sweep: a few groups (one per plan figure and per distinct ask), each with its owners and their apps. One read of
 * the accounts and one of the apps per sweep, whatever the traffic.
 */
export async function findRetentionGroups(ctx: AppContext, kinds: readonly RetentionKind[]): Promise<Map<RetentionKind, RetentionGroup[]>> {
  const accounts = await ctx.db
    .select({ id: users.id, ...accountColumns })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(sql`${users.agentOf} is null`);
  const appRows = await ctx.db.select({ id: apps.id, ownerId: apps.userId, createdAt: apps.createdAt }).from(apps);
  const appsOf = new Map<string, Array<{ id: string; createdAt: Date }>>();
  for (const app of appRows) {
    if (!appsOf.has(app.ownerId)) appsOf.set(app.ownerId, []);
    appsOf.get(app.ownerId)!.push({ id: app.id, createdAt: app.createdAt });
  }
  const now = ctx.now();
  const byKind = new Map<RetentionKind, RetentionGroup[]>();
  for (const kind of kinds) {
    const groups = new Map<number, RetentionGroup>();
    for (const account of accounts) {
      const days = getRetentionDays(ctx.config, toTerms(ctx.config, account), kind);
      if (days === null) continue;
      if (!groups.has(days)) groups.set(days, { days, cutoff: getRetentionCutoff(now, days), ownerIds: [], apps: [] });
      const group = groups.get(days)!;
      group.ownerIds.push(account.id);
      group.apps.push(...(appsOf.get(account.id) ?? []));
    }
    byKind.set(
      kind,
      [...groups.values()].sort((a, b) => b.days - a.days),
    );
  }
  return byKind;
}
