import type { RouteObject } from 'react-router';

/**
 * The menus area's screen of one app: the Menu Design View (the designer). It carries CodeMirror, the engine's
 * renderer and the JavaScript parser, so it loads as its own chunk on first visit.
 */
export const menusRoutes: RouteObject[] = [
  { path: '/app/design/:appId', lazy: async () => ({ Component: (await import('./menu-design-page')).MenuDesignPage }) },
];
