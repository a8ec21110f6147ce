/**
 * An account's saved replies (docs/inbox.md, "Saved replies"): short answers its agents put into the reply box and
 * may edit before sending. The owner writes them (the routes refuse agents); the owner and the agents read them.
 * Another account's id answers 404; at most INBOX_SAVED_REPLIES_PER_ACCOUNT per account.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import { inboxSavedReplies, users } from '../../../db/schema';
import { INBOX_MESSAGES, type InboxSavedReply, type InboxSavedReplyBody } from '../../../shared/api/inbox.schema';
import { conflict, notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { type AuthUser, getAccountId } from '../../core/auth-user';

type SavedReplyRow = typeof inboxSavedReplies.$inferSelect;

function toSavedReply(row: SavedReplyRow): InboxSavedReply {
  return {
    savedReplyId: row.id,
    title: row.title,
    text: row.text,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The account's saved replies, by title (all of them: the cap keeps the list short). */
export async function findSavedReplies(ctx: AppContext, user: AuthUser): Promise<InboxSavedReply[]> {
  const rows = await ctx.db
    .select()
    .from(inboxSavedReplies)
    .where(eq(inboxSavedReplies.ownerId, getAccountId(user)))
    .orderBy(asc(inboxSavedReplies.title), asc(inboxSavedReplies.id));
  return rows.map(toSavedReply);
}

/**
 * Adds a saved reply to the caller's account. The count and the insert run under a lock on the account's user row,
 * so two adds at once cannot both pass the cap.
 */
export async function createSavedReply(ctx: AppContext, user: AuthUser, body: InboxSavedReplyBody): Promise<InboxSavedReply> {
  const ownerId = getAccountId(user);
  const row = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('update');
    const [{ kept }] = (await tx.select({ kept: count() }).from(inboxSavedReplies).where(eq(inboxSavedReplies.ownerId, ownerId))) as [
      { kept: number },
    ];
    if (kept >= ctx.config.INBOX_SAVED_REPLIES_PER_ACCOUNT) throw conflict(INBOX_MESSAGES.tooManySavedReplies);
    const now = ctx.now();
    const [row] = await tx
      .insert(inboxSavedReplies)
      .values({ ownerId, title: body.title, text: body.text, createdAt: now, updatedAt: now })
      .returning();
    return row!;
  });
  return toSavedReply(row);
}

export async function updateSavedReply(
  ctx: AppContext,
  user: AuthUser,
  savedReplyId: string,
  body: InboxSavedReplyBody,
): Promise<InboxSavedReply> {
  const [row] = await ctx.db
    .update(inboxSavedReplies)
    .set({ title: body.title, text: body.text, updatedAt: ctx.now() })
    .where(and(eq(inboxSavedReplies.id, savedReplyId), eq(inboxSavedReplies.ownerId, getAccountId(user))))
    .returning();
  if (!row) throw notFound(INBOX_MESSAGES.savedReplyNotFound);
  return toSavedReply(row);
}

export async function deleteSavedReply(ctx: AppContext, user: AuthUser, savedReplyId: string): Promise<void> {
  const rows = await ctx.db
    .delete(inboxSavedReplies)
    .where(and(eq(inboxSavedReplies.id, savedReplyId), eq(inboxSavedReplies.ownerId, getAccountId(user))))
    .returning({ id: inboxSavedReplies.id });
  if (rows.length === 0) throw notFound(INBOX_MESSAGES.savedReplyNotFound);
}
