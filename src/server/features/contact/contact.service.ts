import { desc } from 'drizzle-orm';
import { contactRequests } from '../../../db/schema';
import type { ContactBody } from '../../../shared/api/contact.schema';
import type { AppContext } from '../../context';

export async function createContactRequest(ctx: AppContext, body: ContactBody): Promise<void> {
  await ctx.db.insert(contactRequests).values(body);
}

/** Newest first; admins read them in the console. */
export async function findContactRequests(ctx: AppContext, limit = 500) {
  const rows = await ctx.db.select().from(contactRequests).orderBy(desc(contactRequests.createdAt)).limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
