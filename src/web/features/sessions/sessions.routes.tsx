import type { RouteObject } from 'react-router';

/** The finished sessions of one app and their search. The search carries the date picker: its own chunk. */
export const sessionsRoutes: RouteObject[] = [
  {
    path: '/app/completesession/:id',
    lazy: async () => ({ Component: (await import('./session-list-page')).CompletedSessionsPage }),
  },
  {
    path: '/app/uncompletedsession/:id',
    lazy: async () => ({ Component: (await import('./session-list-page')).UncompletedSessionsPage }),
  },
  { path: '/app/search/:id', lazy: async () => ({ Component: (await import('./session-search-page')).SessionSearchPage }) },
];
