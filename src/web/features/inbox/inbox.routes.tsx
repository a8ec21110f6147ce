import type { RouteObject } from 'react-router';
import { INBOX_AGENTS_PATH, INBOX_PATH, INBOX_SAVED_REPLIES_PATH } from './inbox.api';

/** The inbox (docs/inbox.md): the conversations bots handed to a person, one chosen with `?c=` and the tab with `?filter=`. */
export const inboxRoutes: RouteObject[] = [
  { path: INBOX_PATH, lazy: async () => ({ Component: (await import('./inbox-page')).InboxPage }) },
  // The account's agents: its owner adds and removes them.
  { path: INBOX_AGENTS_PATH, lazy: async () => ({ Component: (await import('./inbox-agents-page')).InboxAgentsPage }) },
  // The account's saved replies: its owner writes them, the agents put them into the reply box.
  {
    path: INBOX_SAVED_REPLIES_PATH,
    lazy: async () => ({ Component: (await import('./inbox-saved-replies-page')).InboxSavedRepliesPage }),
  },
];
