/**
 * An account's data retention on Account Settings (docs/operations.md, "Data lifetime"): per kind, the days its
 * data is kept and where that figure comes from; the account may ask to keep any kind for fewer days than its
 * bound (its plan's or the operator's), never more.
 */
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import { type AccountRetention, RETENTION_LABELS, RETENTION_MESSAGES, type SaveRetentionBody } from '../../../shared/api/retention.schema';
import { PLANS, RETENTION_KINDS, type RetentionKind } from '../../../shared/billing/plans';
import { invalid, notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { findSubscriptionRow, getPlanName } from '../billing/subscription';
import {
  type AskedRetention,
  findRetentionTerms,
  getOperatorDays,
  getRetentionBound,
  getRetentionDays,
  type RetentionTerms,
} from './retention-terms';

async function readTerms(ctx: AppContext, user: AuthUser): Promise<RetentionTerms> {
  const terms = await findRetentionTerms(ctx, user.id);
  if (!terms) throw notFound('Account not found');
  return terms;
}

async function toAccountRetention(ctx: AppContext, user: AuthUser, terms: RetentionTerms): Promise<AccountRetention> {
  const planTitle = terms.plan ? PLANS[getPlanName(await findSubscriptionRow(ctx.db, user.id))].title : 'No plan limits';
  return {
    planTitle,
    figures: RETENTION_KINDS.map((kind) => ({
      kind,
      label: RETENTION_LABELS[kind],
      days: getRetentionDays(ctx.config, terms, kind),
      bound: getRetentionBound(ctx.config, terms, kind),
      planDays: terms.plan?.[kind] ?? null,
      operatorDays: getOperatorDays(ctx.config, kind),
      askedDays: terms.asked?.[kind] ?? null,
    })),
  };
}

export async function getAccountRetention(ctx: AppContext, user: AuthUser): Promise<AccountRetention> {
  return toAccountRetention(ctx, user, await readTerms(ctx, user));
}

/**
 * Saves the account's asks: each given kind to its days (1 up to its bound) or back to the bound (null). One kind
 * out of bounds refuses the whole request with its reason, and nothing is saved.
 */
export async function saveAccountRetention(ctx: AppContext, user: AuthUser, body: SaveRetentionBody): Promise<AccountRetention> {
  const terms = await readTerms(ctx, user);
  const asked: AskedRetention = { ...terms.asked };
  for (const kind of RETENTION_KINDS) {
    const days = body.days[kind];
    if (days === undefined) continue;
    if (days === null) {
      delete asked[kind];
      continue;
    }
    checkAsk(ctx, terms, kind, days);
    asked[kind] = days;
  }
  const saved = Object.keys(asked).length > 0 ? asked : null;
  await ctx.db.update(users).set({ retention: saved, updatedAt: ctx.now() }).where(eq(users.id, user.id));
  return toAccountRetention(ctx, user, { ...terms, asked: saved });
}

function checkAsk(ctx: AppContext, terms: RetentionTerms, kind: RetentionKind, days: number): void {
  const label = RETENTION_LABELS[kind];
  if (!Number.isInteger(days)) throw invalid(RETENTION_MESSAGES.notWhole(label));
  if (days < 1) throw invalid(RETENTION_MESSAGES.tooShort(label));
  const bound = getRetentionBound(ctx.config, terms, kind);
  if (days > bound) throw invalid(RETENTION_MESSAGES.tooLong(label, bound));
}
