/**
 * An account's inbox agents (docs/inbox.md, "Agents"): users of type `agent` whose `agent_of` is the account's owner.
 * The owner adds them (a name, an email, a first password the owner gives them) and removes them; they sign in
 * and see the owner's inbox, nothing else (the guard refuses them every other route, plugins/guard.ts). Adding
 * and removing one is written to the audit log; the agent gets a mail saying where to sign in.
 */
import { and, asc, count, eq, or } from 'drizzle-orm';
import { inboxConversations, users } from '../../../db/schema';
import { type CreateInboxAgentBody, INBOX_MESSAGES, type InboxAgent } from '../../../shared/api/inbox.schema';
import { conflict, notFound } from '../../../shared/errors';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { createUser } from '../../core/accounts';
import { recordAdminAction } from '../../core/audit-log';
import { type AuthUser, getAccountId } from '../../core/auth-user';
import { sendMail } from '../../core/mail';
import type { InboxEvents } from './inbox-events';
import type { InboxStreams } from './inbox-stream';

/** Who may hold an account's conversations: its owner, and the agents the owner added. */
const isAgentOf = (ownerId: string) => or(eq(users.id, ownerId), eq(users.agentOf, ownerId))!;

/** One of the account's agents (the owner included), or null: a user of another account is no agent of this one. */
export async function findAgent(ctx: AppContext, ownerId: string, userId: string) {
  const [row] = await ctx.db
    .select({ id: users.id, fullName: users.fullName })
    .from(users)
    .where(and(eq(users.id, userId), isAgentOf(ownerId)));
  return row ?? null;
}

/** The account's agents, the owner first: whom a conversation may be assigned to (`GET /api/inbox/agents`). */
export async function findAgents(ctx: AppContext, user: AuthUser): Promise<InboxAgent[]> {
  const ownerId = getAccountId(user);
  const rows = await ctx.db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(isAgentOf(ownerId))
    .orderBy(asc(users.fullName), asc(users.id));
  const agents = rows.map((r) => ({ userId: r.id, fullName: r.fullName, email: r.email, isOwner: r.id === ownerId }));
  return [...agents.filter((a) => a.isOwner), ...agents.filter((a) => !a.isOwner)];
}

/** Adds an agent to the owner's account (email unique across every user, as registration's) and mails them. */
export async function createAgent(ctx: AppContext, owner: AuthUser, body: CreateInboxAgentBody): Promise<InboxAgent> {
  const [{ agents }] = (await ctx.db.select({ agents: count() }).from(users).where(eq(users.agentOf, owner.id))) as [{ agents: number }];
  if (agents >= ctx.config.INBOX_AGENTS_PER_ACCOUNT) throw conflict(INBOX_MESSAGES.tooManyAgents);
  const row = await createUser(ctx.db, { ...body, userType: 'agent', agentOf: owner.id });
  await recordAdminAction(ctx.db, owner, 'agent_created', row.id, { email: row.email, ownerId: owner.id });
  ctx.background.run('agent invitation mail', () =>
    sendMail(ctx, {
      to: row.email,
      subject: `${owner.fullName} added you to their Dialflow inbox`,
      text: `Hello ${row.fullName},\n\n${owner.fullName} (${owner.email}) added you as an agent of their WhatsApp inbox on Dialflow. Sign in at ${getPublicOrigin(ctx.config)}/login with this email and the password ${owner.fullName} gives you, then choose your own under Account Settings.\n\nIf you did not expect this, ignore this mail.`,
    }),
  );
  return { userId: row.id, fullName: row.fullName, email: row.email, isOwner: false };
}

/**
 * Removes one of the owner's agents (another account's agent, or any other user: 404). Their open conversations
 * go back to nobody, their sign-ins end (the tokens go with the user) and so do their open inbox screens.
 */
export async function deleteAgent(
  ctx: AppContext,
  owner: AuthUser,
  agentId: string,
  live: { events: InboxEvents; streams: InboxStreams },
): Promise<void> {
  const [agent] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, agentId), eq(users.agentOf, owner.id)));
  if (!agent) throw notFound(INBOX_MESSAGES.agentNotFound);
  const unassigned = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(inboxConversations)
      .set({ assigneeId: null, updatedAt: ctx.now() })
      .where(
        and(eq(inboxConversations.ownerId, owner.id), eq(inboxConversations.assigneeId, agent.id), eq(inboxConversations.status, 'open')),
      )
      .returning({ id: inboxConversations.id });
    await tx.delete(users).where(eq(users.id, agent.id));
    await recordAdminAction(tx, owner, 'agent_deleted', agent.id, { email: agent.email, ownerId: owner.id, unassigned: rows.length });
    return rows;
  });
  // This process's streams at once; the others' through the events (with Redis, every process hears them).
  live.streams.closeUser(agent.id);
  live.events.publish(owner.id, { type: 'agent_removed', userId: agent.id });
  for (const row of unassigned) live.events.publish(owner.id, { type: 'conversation_assigned', conversationId: row.id, assigneeId: null });
}
