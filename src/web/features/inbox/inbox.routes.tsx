import type { RouteObject } from 'react-router';
import { INBOX_PATH } from './inbox.api';

/** The inbox (docs/inbox.md): the conversations bots handed to a person, one chosen with `?c=` and the tab with `?filter=`. */
export const inboxRoutes: RouteObject[] = [
  { path: INBOX_PATH, lazy: async () => ({ Component: (await import('./inbox-page')).InboxPage }) },
];
