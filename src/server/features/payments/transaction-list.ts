/** The transactions list: an owner's, an app's, or every account's for an admin. */
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { transactions } from '../../../db/schema';
import { toTransactionMetadata } from '../../../shared/api/merchants.schema';
import { getPermissionScope } from '../../../shared/roles';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { getOwnedApp } from '../../core/app-access';
import type { PaymentMetadata, TransactionRow } from './payment-metadata';
import type { TransactionStatus } from '../../../shared/api/merchants.schema';
import type { Transaction } from './payments.schema';

/**
 * The owner's payment transactions (an app's with appId), newest first; every account's for an admin whose
 * roles read all transactions (`transaction.read` over all merchants: ADMIN, super_admin).
 */
export async function findTransactions(ctx: AppContext, user: AuthUser, query: { appId?: string; limit?: number }): Promise<Transaction[]> {
  const filters: SQL[] = [];
  if (query.appId) {
    await getOwnedApp(ctx, user, query.appId);
    filters.push(eq(transactions.appId, query.appId));
  } else if (getPermissionScope(user, 'transaction.read') !== 'all') {
    filters.push(eq(transactions.userId, user.id));
  }
  const rows = await ctx.db
    .select()
    .from(transactions)
    .where(filters.length ? and(...filters) : undefined)
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(query.limit ?? 100);
  return rows.map(toTransaction);
}

export function toTransaction(row: TransactionRow): Transaction {
  const meta = (row.metadata ?? {}) as PaymentMetadata & Record<string, unknown>;
  return {
    id: row.id,
    reference: row.reference,
    transactionType: row.transactionType,
    amount: row.amount,
    currency: row.currency,
    status: row.status as TransactionStatus,
    appId: row.appId,
    shortcode: row.shortcode,
    mobile: meta.mobile ?? '',
    network: meta.network ?? '',
    provider: meta.provider ?? '',
    metadata: toTransactionMetadata(meta),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
