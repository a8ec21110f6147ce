import type { RouteObject } from 'react-router';

/** Signed-in screens of the custom actions area (/custom-functions and /custom-functions/{id}). */
export const customActionsRoutes: RouteObject[] = [
  { path: '/custom-functions', lazy: async () => ({ Component: (await import('./custom-action-list-page')).CustomActionListPage }) },
  { path: '/custom-functions/:id', lazy: async () => ({ Component: (await import('./custom-action-edit-page')).CustomActionEditPage }) },
];
