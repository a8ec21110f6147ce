import { and, count, desc, eq, gte, inArray, lte, or, sum, type SQL } from 'drizzle-orm';
import { apps, transactions } from '../../../db/schema';
import {
  MERCHANT_MESSAGES,
  parseTransactionRange,
  toTransactionMetadata,
  TRANSACTION_TYPES,
  TRANSACTIONS_SHOWN_MAX,
  type Transaction,
  type TransactionTotal,
  type transactionSearchBodySchema,
} from '../../../shared/api/merchants.schema';
import { invalid, notFound } from '../../../shared/errors';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { findAppLabels } from '../../core/app-access';
import { getAccessibleMerchant } from '../../core/merchant-access';
import { findMerchantUserIds } from './merchants.service';

export const findTransactionTypes = () => TRANSACTION_TYPES.map((t) => ({ ...t }));

type SearchBody = z.infer<typeof transactionSearchBodySchema>;

/**
 * A merchant's transactions in a date range: its apps' payment prompts and its users' own payments (plan,
 * credit, shortcode). Both halves are index range scans, `(app_id, created_at)` and `(user_id, created_at)`,
 * which PostgreSQL combines (BitmapOr), so the cost follows the merchant's rows in the range, not the table.
 * `userUuid` names the merchant (admins); empty, the caller's own.
 */
export async function searchMerchantTransactions(
  ctx: AppContext,
  user: AuthUser,
  body: SearchBody,
): Promise<{ transactions: Transaction[]; totals: TransactionTotal[] }> {
  const merchantId = body.userUuid || user.merchantId;
  if (!merchantId) throw notFound(MERCHANT_MESSAGES.noMerchant);
  const merchant = await getAccessibleMerchant(ctx, user, 'transaction.read', merchantId);
  const range = parseTransactionRange(body.startDate, body.endDate);
  if ('message' in range) throw invalid(range.message, { field: 'startDate' });

  const userIds = await findMerchantUserIds(ctx, merchant.id);
  if (userIds.length === 0) return { transactions: [], totals: [] };
  const appIds = (await ctx.db.select({ id: apps.id }).from(apps).where(inArray(apps.userId, userIds))).map((a) => a.id);

  const owned =
    appIds.length > 0
      ? or(inArray(transactions.userId, userIds), inArray(transactions.appId, appIds))
      : inArray(transactions.userId, userIds);
  const filters: SQL[] = [owned!, gte(transactions.createdAt, range.start), lte(transactions.createdAt, range.end)];
  if (body.status) filters.push(eq(transactions.status, body.status));
  if (body.transactionType) filters.push(eq(transactions.transactionType, body.transactionType));
  const where = and(...filters);

  const [rows, totals] = await Promise.all([
    ctx.db.select().from(transactions).where(where).orderBy(desc(transactions.createdAt)).limit(TRANSACTIONS_SHOWN_MAX),
    ctx.db
      .select({ status: transactions.status, currency: transactions.currency, count: count(), amount: sum(transactions.amount) })
      .from(transactions)
      .where(where)
      .groupBy(transactions.status, transactions.currency)
      .orderBy(transactions.status, transactions.currency),
  ]);
  const appLabels = await findAppLabels(
    ctx,
    user,
    rows.flatMap((row) => (row.appId ? [row.appId] : [])),
  );
  return {
    transactions: rows.map((row) => ({
      reference: row.reference,
      transactionType: row.transactionType,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      userUuid: row.userId,
      appId: row.appId,
      app: (row.appId && appLabels.get(row.appId)) || null,
      shortcode: row.shortcode,
      metadata: toTransactionMetadata(row.metadata),
    })),
    totals: totals.map((t) => ({
      status: t.status,
      currency: t.currency,
      count: Number(t.count),
      amount: Number(t.amount ?? 0).toFixed(2),
    })),
  };
}
