import type { RouteObject } from 'react-router';

/**
 * Signed-in screens of the designer area, shown inside the console layout. The designer carries CodeMirror,
 * the engine's renderer and the JavaScript parser, so it loads as its own chunk on first visit.
 */
export const designerRoutes: RouteObject[] = [
  { path: '/app/design/:appId', lazy: async () => ({ Component: (await import('./menu-design-page')).MenuDesignPage }) },
  // The flow map carries React Flow and dagre: its own chunk too.
  { path: '/app/design/:appId/flow', lazy: async () => ({ Component: (await import('../flowmap/flow-map-page')).FlowMapPage }) },
];
