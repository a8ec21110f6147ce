import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../../db/schema';
import type { MailMessage } from '../../../integrations/mail/mailer';
import type { OutboxMail } from '../../../shared/api/mail.schema';
import type { AppContext } from '../../context';

/**
 * Records the mail in the outbox, then hands it to the mailer. Without SMTP the log line is how an operator
 * reads it (e.g. a password-reset link on a laptop install).
 */
export async function sendMail(ctx: AppContext, message: MailMessage): Promise<void> {
  const [row] = await ctx.db
    .insert(mailOutbox)
    .values({ to: message.to, subject: message.subject, body: message.text })
    .returning({ id: mailOutbox.id });
  if (ctx.mailer.kind === 'outbox') {
    ctx.log.info({ mail: { to: message.to, subject: message.subject, body: message.text } }, 'mail kept in the local outbox');
    return;
  }
  try {
    await ctx.mailer.send(message);
    await ctx.db.update(mailOutbox).set({ status: 'sent' }).where(eq(mailOutbox.id, row!.id));
  } catch (err) {
    ctx.log.error({ err, to: message.to }, 'mail could not be sent');
    await ctx.db.update(mailOutbox).set({ status: 'failed' }).where(eq(mailOutbox.id, row!.id));
  }
}

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
