import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../db/schema';
import type { MailMessage } from '../../integrations/mail/mailer';
import type { AppContext } from '../context';

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
