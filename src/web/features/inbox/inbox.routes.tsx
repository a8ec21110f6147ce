import type { RouteObject } from 'react-router';
import { INBOX_AGENTS_PATH, INBOX_PATH } from './inbox.api';

/** The inbox (docs/inbox.md): the conversations bots handed to a person, one chosen with `?c=` and the tab with `?filter=`. */
export const inboxRoutes: RouteObject[] = [
  { path: INBOX_PATH, lazy: async () => ({ Component: (await import('./inbox-page')).InboxPage }) },
  // The account's agents: its owner adds and removes them.
  { path: INBOX_AGENTS_PATH, lazy: async () => ({ Component: (await import('./inbox-agents-page')).InboxAgentsPage }) },
];
