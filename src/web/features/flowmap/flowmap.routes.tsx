import type { RouteObject } from 'react-router';

/** The flow map of one app's menus. It carries React Flow and dagre, so it loads as its own chunk. */
export const flowmapRoutes: RouteObject[] = [
  { path: '/app/design/:appId/flow', lazy: async () => ({ Component: (await import('./flow-map-page')).FlowMapPage }) },
];
