import { and, count, eq, lt, ne, sql } from 'drizzle-orm';
import { SUBFLOW_CHANNEL } from '../../core/app-versions';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../../db/client';
import { apps, menus, usageCounters, users } from '../../../db/schema';
import { BILLING_MESSAGES, USAGE_WARNING_PERCENTS } from '../../../shared/api/billing.schema';
import { MAX_MENUS_PER_APP, PLANS, type PlanName } from '../../../shared/billing/plans';
import { AppError, invalid } from '../../../shared/errors';
import { getRoles, type RoleSubject } from '../../../shared/roles';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { sendMail } from '../../core/mail';
import { sumLiveBytes } from '../../core/media-usage';
import type { OwnerStanding, PlanStandings, UsageKind } from '../../core/caches';
import { findSubscriptionRow, getLimits, getPlanName, getSubscriptionState, toUsageMonth } from './subscription';

/**
 * Plan limits, checked on the server (docs/billing.md, Enforcement): apps and menus when they are created,
 * deploys while inactive, and on live traffic one counter per account and month (usage-tallies.ts): a new live
 * session or an SMS costs a Map lookup and an addition, whatever the number of sessions; the counts are flushed
 * to the table every second, so they hold across restarts and processes. Admins' accounts have no limits.
 */

/** A plan limit was reached: 402, the envelope's '02', and the sentence that says what to do. */
const limitReached = (message: string) => new AppError('limitReached', message);

const isExempt = (subject: RoleSubject) => getRoles(subject).isAdmin;

const STANDING_TTL_MS = 10_000;

export function createPlanStandings(): PlanStandings {
  return new LRUCache<string, OwnerStanding>({ max: 20_000, ttl: STANDING_TTL_MS });
}

/** Forget what this process cached about the account's subscription (after a payment or an admin's change). */
export function forgetStanding(ctx: AppContext, userId: string): void {
  ctx.planStandings.delete(userId);
}

async function getOwnerStanding(ctx: AppContext, ownerId: string): Promise<OwnerStanding | undefined> {
  const cache = ctx.planStandings;
  const cached = cache.get(ownerId);
  if (cached) return cached;
  const [owner] = await ctx.db
    .select({ userType: users.userType, roles: users.roles, email: users.email, fullName: users.fullName })
    .from(users)
    .where(eq(users.id, ownerId));
  if (!owner) return undefined;
  const standing: OwnerStanding = {
    exempt: isExempt(owner),
    email: owner.email,
    fullName: owner.fullName,
    row: await findSubscriptionRow(ctx.db, ownerId),
  };
  cache.set(ownerId, standing);
  return standing;
}

const KIND_NAMES: Record<UsageKind, string> = { sessions: 'live sessions', sms: 'SMS' };

/** Mails the owner once per month and threshold (80 %, 100 %) when a counter reaches it; the conditional update decides who mails. */
async function warnIfDue(
  ctx: AppContext,
  ownerId: string,
  standing: OwnerStanding,
  kind: UsageKind,
  limit: number,
  counted: { count: number; warnedPercent: number },
): Promise<void> {
  const percent = Math.max(0, ...USAGE_WARNING_PERCENTS.filter((p) => counted.count * 100 >= p * limit));
  if (percent <= counted.warnedPercent) return;
  const month = toUsageMonth(ctx.now());
  // The row may not be written yet (the tallies flush every second): insert it with no count, or raise its mark.
  const [marked] = await ctx.db
    .insert(usageCounters)
    .values({ userId: ownerId, month, kind, count: 0, warnedPercent: percent })
    .onConflictDoUpdate({
      target: [usageCounters.userId, usageCounters.month, usageCounters.kind],
      set: { warnedPercent: percent },
      setWhere: lt(usageCounters.warnedPercent, percent),
    })
    .returning({ month: usageCounters.month });
  ctx.usageTallies.markWarned(ownerId, kind, percent);
  if (!marked) return;
  const title = PLANS[getPlanName(standing.row)].title;
  const what = KIND_NAMES[kind];
  ctx.background.run('usage warning', () =>
    sendMail(ctx, {
      to: standing.email,
      subject: percent >= 100 ? `You have used all your ${what} for ${month}` : `You have used ${percent}% of your ${what} for ${month}`,
      text: [
        `Hello ${standing.fullName},`,
        '',
        `Your apps have used ${counted.count} of the ${limit.toLocaleString('en-US')} ${what} your plan (${title}) allows in ${month}.`,
        percent >= 100
          ? kind === 'sessions'
            ? 'New live sessions are now answered that the service has reached its limit, until the month ends or you upgrade.'
            : 'Your apps send no more SMS this month, until the month ends or you upgrade.'
          : 'When they are used up, new ones are refused until the month ends.',
        `Upgrade on Account Billing: ${getPublicOrigin(ctx.config)}/account-billing`,
      ].join('\n'),
    }),
  );
}

/**
 * A new session on live traffic (the production URL, or a shared shortcode's): null when admitted, else the
 * sentence the caller's end screen shows. Inactive accounts are refused; otherwise the month's counter decides.
 * Test URLs and the emulator never come here.
 */
export async function admitLiveSession(ctx: AppContext, ownerId: string): Promise<string | null> {
  if (ctx.config.BILLING === 'off') return null;
  const standing = await getOwnerStanding(ctx, ownerId);
  if (!standing || standing.exempt) return null;
  if (getSubscriptionState(standing.row, ctx.now()) === 'inactive') return BILLING_MESSAGES.liveInactive;
  const limit = getLimits(ctx.config, getPlanName(standing.row)).sessions;
  const counted = await ctx.usageTallies.count(ownerId, 'sessions', limit);
  if (!counted) return BILLING_MESSAGES.liveSessionLimit;
  if (limit !== null) await warnIfDue(ctx, ownerId, standing, 'sessions', limit, counted);
  return null;
}

/**
 * Whether the account pays for its traffic: an active subscription or one in its grace days, an admin's account,
 * or any account when BILLING=off (then all accounts are equal). TRIAL and inactive accounts are unpaid: anyone
 * can make as many as they like, so the JavaScript pool holds their scripts to one share together (runners.ts).
 */
export async function isPayingAccount(ctx: AppContext, ownerId: string): Promise<boolean> {
  if (ctx.config.BILLING === 'off') return true;
  const standing = await getOwnerStanding(ctx, ownerId);
  if (!standing) return false;
  if (standing.exempt) return true;
  const state = getSubscriptionState(standing.row, ctx.now());
  return state === 'active' || state === 'grace';
}

/** Before an app's SMS is queued: throws the reason the sendsms action's result shows when the plan allows no more. */
export async function admitSms(ctx: AppContext, ownerId: string): Promise<void> {
  if (ctx.config.BILLING === 'off') return;
  const standing = await getOwnerStanding(ctx, ownerId);
  if (!standing || standing.exempt) return;
  if (getSubscriptionState(standing.row, ctx.now()) === 'inactive') throw limitReached(BILLING_MESSAGES.smsInactive);
  const limit = getLimits(ctx.config, getPlanName(standing.row)).sms;
  const counted = await ctx.usageTallies.count(ownerId, 'sms', limit);
  if (!counted) throw limitReached(BILLING_MESSAGES.smsLimit(limit ?? 0));
  if (limit !== null) await warnIfDue(ctx, ownerId, standing, 'sms', limit, counted);
}

/**
 * The bytes of media files the account may keep (its plan's `mediaBytes`) and the plan's title for the refusal;
 * null when nothing limits it (BILLING=off, an admin's account, a plan without a limit). Checked by
 * features/media/media.service.ts against the sizes of the account's live files.
 */
export async function getMediaQuota(ctx: AppContext, ownerId: string): Promise<{ limit: number; planTitle: string } | null> {
  if (ctx.config.BILLING === 'off') return null;
  const standing = await getOwnerStanding(ctx, ownerId);
  if (!standing || standing.exempt) return null;
  const plan = getPlanName(standing.row);
  const limit = getLimits(ctx.config, plan).mediaBytes;
  return limit === null ? null : { limit, planTitle: PLANS[plan].title };
}

async function findPlan(ctx: AppContext, user: RoleSubject & { id: string }, db: Db = ctx.db): Promise<PlanName | null> {
  if (ctx.config.BILLING === 'off' || isExempt(user)) return null;
  return getPlanName(await findSubscriptionRow(db, user.id));
}

/**
 * Before an app is created, cloned or imported into the account: refused at the plan's app limit. Given the
 * transaction that inserts the app, it locks the account's row first, so the account's creations count and
 * insert one at a time (20 parallel requests make exactly the limit, on PGlite and PostgreSQL alike).
 */
export async function checkAppLimit(ctx: AppContext, user: RoleSubject & { id: string }, db: Db = ctx.db): Promise<void> {
  const plan = await findPlan(ctx, user, db);
  const limit = plan && PLANS[plan].limits.apps;
  if (!plan || limit === null) return;
  await db.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('no key update');
  const [row] = await db
    .select({ n: count() })
    .from(apps)
    // Sub-flows are pieces of apps, bounded on their own (MAX_SUBFLOWS_PER_ACCOUNT), not apps a plan counts.
    .where(and(eq(apps.userId, user.id), eq(apps.isTemplate, false), ne(apps.channel, SUBFLOW_CHANNEL)));
  if ((row?.n ?? 0) >= limit) throw limitReached(BILLING_MESSAGES.appLimit(limit, PLANS[plan].title));
}

/**
 * Before menus are added to the app (one from the designer, an import's all at once): refused past the plan's
 * menus per app, and past MAX_MENUS_PER_APP on every plan and for every account (the hard bound on what a
 * deploy's lint or an import checks on the server's thread). Given the transaction that inserts the menus, it
 * locks the app's row first, so parallel creations count and insert one at a time.
 */
export async function checkMenuLimit(
  ctx: AppContext,
  user: RoleSubject & { id: string },
  appId: string,
  adding = 1,
  db: Db = ctx.db,
): Promise<void> {
  const plan = await findPlan(ctx, user, db);
  const planLimit = plan && PLANS[plan].limits.menus;
  await db.select({ id: apps.id }).from(apps).where(eq(apps.id, appId)).for('no key update');
  const [row] = await db.select({ n: count() }).from(menus).where(eq(menus.appId, appId));
  const total = (row?.n ?? 0) + adding;
  if (plan && planLimit !== null && planLimit < MAX_MENUS_PER_APP && total > planLimit)
    throw limitReached(BILLING_MESSAGES.menuLimit(planLimit, PLANS[plan].title));
  if (total > MAX_MENUS_PER_APP) throw limitReached(BILLING_MESSAGES.menuHardLimit);
}

/**
 * An import's limits from its menu count alone, before any of its menus is read: the account's apps, the plan's
 * menus and MAX_MENUS_PER_APP. A quick refusal without locks; the import checks again, locked, as it inserts.
 */
export async function checkImportLimits(ctx: AppContext, user: RoleSubject & { id: string }, menuCount: number): Promise<void> {
  const plan = await findPlan(ctx, user);
  const planLimit = plan && PLANS[plan].limits.menus;
  if (plan && planLimit !== null && planLimit < MAX_MENUS_PER_APP && menuCount > planLimit)
    throw limitReached(BILLING_MESSAGES.menuLimit(planLimit, PLANS[plan].title));
  if (menuCount > MAX_MENUS_PER_APP) throw limitReached(BILLING_MESSAGES.menuHardLimit);
  await checkAppLimit(ctx, user);
}

/** Deploys are refused while the subscription is inactive (the draft can still be edited and tested). */
export async function checkDeployAllowed(ctx: AppContext, user: RoleSubject & { id: string }): Promise<void> {
  if (ctx.config.BILLING === 'off' || isExempt(user)) return;
  if (getSubscriptionState(await findSubscriptionRow(ctx.db, user.id), ctx.now()) === 'inactive')
    throw invalid(BILLING_MESSAGES.deployInactive);
}

/** This month's use by the account: apps, the fullest app's menus, and the counters. */
export async function findUsage(
  ctx: AppContext,
  userId: string,
): Promise<{ apps: number; menus: number; sessions: number; sms: number; mediaBytes: number }> {
  await ctx.usageTallies.flush(userId);
  const [appCount] = await ctx.db
    .select({ n: count() })
    .from(apps)
    .where(and(eq(apps.userId, userId), eq(apps.isTemplate, false), ne(apps.channel, SUBFLOW_CHANNEL)));
  const perApp = ctx.db
    .select({ n: count().as('n') })
    .from(menus)
    .innerJoin(apps, eq(apps.id, menus.appId))
    .where(and(eq(apps.userId, userId), eq(apps.isTemplate, false)))
    .groupBy(menus.appId)
    .as('per_app');
  const [fullest] = await ctx.db.select({ n: sql<number>`coalesce(max(${perApp.n}), 0)`.mapWith(Number) }).from(perApp);
  const counters = await ctx.db
    .select({ kind: usageCounters.kind, count: usageCounters.count })
    .from(usageCounters)
    .where(and(eq(usageCounters.userId, userId), eq(usageCounters.month, toUsageMonth(ctx.now()))));
  const counter = (kind: UsageKind) => counters.find((c) => c.kind === kind)?.count ?? 0;
  const mediaBytes = await sumLiveBytes(ctx.db, userId);
  return { apps: appCount?.n ?? 0, menus: fullest?.n ?? 0, sessions: counter('sessions'), sms: counter('sms'), mediaBytes };
}
