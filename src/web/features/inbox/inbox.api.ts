import { useQuery } from '@tanstack/react-query';
import { findInboxAgents, findInboxConversations, findInboxSavedReplies } from '../../../shared/api/inbox.calls';
import type { InboxAgent, InboxConversation, InboxFilter } from '../../../shared/api/inbox.schema';
import { callQuery } from '../../lib/call';

/** The inbox (docs/inbox.md): its address, a conversation's, and the cache key every inbox query sits below. */
export const INBOX_PATH = '/inbox';
/** The owner's screen of the account's agents (docs/inbox.md, "Agents"). */
export const INBOX_AGENTS_PATH = '/inbox/agents';
/** The owner's screen of the account's saved replies (docs/inbox.md, "Saved replies"). */
export const INBOX_SAVED_REPLIES_PATH = '/inbox/saved-replies';
export const INBOX_KEY = ['inbox'] as const;

/** Conversations a list shows: the most recent 100 (the open list's also gives the sidebar's unread count). */
export const INBOX_LIST_LIMIT = 100;

export const INBOX_FILTER_LABELS: Record<InboxFilter, string> = { open: 'Open', mine: 'Mine', unassigned: 'Unassigned', closed: 'Closed' };

export const inboxListQuery = (filter: InboxFilter, enabled = true) => ({
  ...callQuery(findInboxConversations, { query: { filter, limit: INBOX_LIST_LIMIT } }, 'The conversations could not be loaded.'),
  enabled,
});

/** The account's agents, its owner first: whom a conversation may be assigned to, and the names the screens show. */
export const inboxAgentsQuery = () => callQuery(findInboxAgents, {}, 'The agents could not be loaded.');

/** The account's saved replies, by title: what the reply box offers to put in. */
export const inboxSavedRepliesQuery = () => callQuery(findInboxSavedReplies, {}, 'The saved replies could not be loaded.');

export function useInboxAgents(): InboxAgent[] {
  return useQuery(inboxAgentsQuery()).data ?? [];
}

/** Who has the conversation, in words: you, an agent by name, or nobody. */
export function describeAssignee(conversation: Pick<InboxConversation, 'assigneeId'>, myId: string | null, agents: InboxAgent[]): string {
  if (conversation.assigneeId === null) return 'Unassigned';
  if (conversation.assigneeId === myId) return 'Assigned to you';
  const agent = agents.find((a) => a.userId === conversation.assigneeId);
  return agent ? `Assigned to ${agent.fullName}` : 'Assigned to another agent';
}

/** Unread messages across the open conversations a list shows. */
export const countUnread = (conversations: InboxConversation[]) => conversations.reduce((sum, c) => sum + c.unreadCount, 0);

/**
 * The unread count the sidebar and the tab title show: the open list's (shared with the Open tab), read again
 * every 30 seconds while the page is visible; on the inbox screen the live stream reloads it at once.
 * `more`: there are open conversations beyond the list's 100, so the count may be higher.
 */
export function useInboxUnread(enabled: boolean): { count: number; more: boolean } {
  const query = useQuery({ ...inboxListQuery('open', enabled), refetchInterval: 30_000 });
  const page = query.data;
  return { count: page ? countUnread(page.conversations) : 0, more: Boolean(page?.nextCursor) };
}

/** `3`, or `99+` past 99 (and `100+` when the list was cut). */
export function formatUnread({ count, more }: { count: number; more: boolean }): string {
  if (count > 99) return '99+';
  return more ? `${count}+` : String(count);
}

/** A list's time: the hour today, else the day. */
export function formatListTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toDateString() === now.toDateString()
    ? date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}
