import { desc } from 'drizzle-orm';
import { mailOutbox } from '../../../db/schema';
import type { OutboxMail } from '../../../shared/api/mail.schema';
import type { AppContext } from '../../context';

/** The mail outbox, newest first: what the Mail Outbox screen lists (the local outbox's mails, and SMTP's with their outcome). */
export async function findOutboxMails(ctx: AppContext, query: { limit?: number }): Promise<OutboxMail[]> {
  const rows = await ctx.db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(query.limit ?? 100);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    body: row.body,
    status: row.status as OutboxMail['status'],
    createdAt: row.createdAt.toISOString(),
  }));
}
