import type { RouteObject } from 'react-router';

/**
 * The menus area's screen of one app: the Menu Design View (the designer). It carries CodeMirror, the engine's
 * renderer and the JavaScript parser, so it loads as its own chunk on first visit.
 */
export const menusRoutes: RouteObject[] = [
  { path: '/app/design/:appId', lazy: async () => ({ Component: (await import('./menu-design-page')).MenuDesignPage }) },
  // A deployed version, read-only (docs/versions.md): its own screen, so the designer itself is unchanged.
  {
    path: '/app/design/:appId/versions/:version',
    lazy: async () => ({ Component: (await import('./version-view-page')).VersionViewPage }),
  },
];

/** A WhatsApp bot's designer is the same Menu Design View (a bot is an app with channel 'whatsapp'). */
export const botDesignerRoutes: RouteObject[] = [
  { path: '/whatsapp-bot/design/:id', lazy: async () => ({ Component: (await import('./menu-design-page')).MenuDesignPage }) },
];
