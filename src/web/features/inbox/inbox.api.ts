import { useQuery } from '@tanstack/react-query';
import { findInboxConversations } from '../../../shared/api/inbox.calls';
import type { InboxConversation, InboxFilter } from '../../../shared/api/inbox.schema';
import { callQuery } from '../../lib/call';

/** The inbox (docs/inbox.md): its address, a conversation's, and the cache key every inbox query sits below. */
export const INBOX_PATH = '/inbox';
export const INBOX_KEY = ['inbox'] as const;

/** Conversations a list shows: the most recent 100 (the open list's also gives the sidebar's unread count). */
export const INBOX_LIST_LIMIT = 100;

export const INBOX_FILTER_LABELS: Record<InboxFilter, string> = { open: 'Open', mine: 'Mine', unassigned: 'Unassigned', closed: 'Closed' };

export const inboxListQuery = (filter: InboxFilter, enabled = true) => ({
  ...callQuery(findInboxConversations, { query: { filter, limit: INBOX_LIST_LIMIT } }, 'The conversations could not be loaded.'),
  enabled,
});

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
