import type { RouteObject } from 'react-router';
import { BUY_PATH, CATALOGUE_PATH, MY_SHORTCODES_PATH, PROVIDERS_PATH } from './shortcodes.api';

/** Signed-in screens of the shortcodes area: providers and the catalogue (admins), buying, one's own, connecting. */
export const shortcodesRoutes: RouteObject[] = [
  { path: PROVIDERS_PATH, lazy: async () => ({ Component: (await import('./shortcode-provider-list-page')).ShortcodeProviderListPage }) },
  { path: CATALOGUE_PATH, lazy: async () => ({ Component: (await import('./shortcode-extension-list-page')).ShortcodeExtensionListPage }) },
  { path: BUY_PATH, lazy: async () => ({ Component: (await import('./shortcode-buy-page')).ShortcodeBuyPage }) },
  {
    path: MY_SHORTCODES_PATH,
    lazy: async () => ({ Component: (await import('./shortcode-purchase-list-page')).ShortcodePurchaseListPage }),
  },
  { path: '/connect-shortcode/:uuid', lazy: async () => ({ Component: (await import('./shortcode-connect-page')).ShortcodeConnectPage }) },
];
