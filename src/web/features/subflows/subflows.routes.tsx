import type { RouteObject } from 'react-router';

/** The account's sub-flows (/subflows); a sub-flow's menus open in the designer, as an app's. */
export const subflowsRoutes: RouteObject[] = [
  { path: '/subflows', lazy: async () => ({ Component: (await import('./subflows-page')).SubflowsPage }) },
];
