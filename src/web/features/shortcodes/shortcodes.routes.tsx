import type { RouteObject } from 'react-router';
import { ShortCodeBuyPage } from './shortcode-buy-page';
import { ShortCodeConnectPage } from './shortcode-connect-page';
import { ShortCodeExtensionListPage } from './shortcode-extension-list-page';
import { ShortCodeProviderListPage } from './shortcode-provider-list-page';
import { ShortCodePurchaseListPage } from './shortcode-purchase-list-page';
import { BUY_PATH, CATALOGUE_PATH, MY_SHORTCODES_PATH, PROVIDERS_PATH } from './shortcodes.api';

/** Signed-in screens of the shortcodes area: providers and the catalogue (admins), buying, one's own, connecting. */
export const shortcodesRoutes: RouteObject[] = [
  { path: PROVIDERS_PATH, element: <ShortCodeProviderListPage /> },
  { path: CATALOGUE_PATH, element: <ShortCodeExtensionListPage /> },
  { path: BUY_PATH, element: <ShortCodeBuyPage /> },
  { path: MY_SHORTCODES_PATH, element: <ShortCodePurchaseListPage /> },
  { path: '/connect-shortcode/:uuid', element: <ShortCodeConnectPage /> },
];
