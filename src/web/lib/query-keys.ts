import { findApps, getApp } from '../../shared/api/apps.calls';
import { findAppVersions, findMenus, findMenusLite } from '../../shared/api/menus.calls';
import { queryKey } from './call';

/**
 * The cached queries' keys, in one place, so a screen that changes something invalidates exactly what other
 * screens read. A declared call's key comes from its declaration (`key`, src/shared/api/contract.ts; `queryKey`
 * and `callQuery` in lib/call.ts), and its feature exports the prefix invalidation names (`BILLING_KEY`); the keys
 * here are derived from declarations because other areas invalidate them. The hierarchy: `['apps']` holds the app list and, below it, each app and its versions; `['menus', appId]`
 * an app's menus and their lite list; `['custom-actions']` the functions, each function and the templates;
 * `['shortcodes']` the providers, the catalogue, what each country offers and the account's purchases;
 * `['billing']` the account's subscription and its payment history (a shortcode payment appears there too);
 * `['bots']` the bot list and, below it, each bot and its linked numbers; `['merchants']`, `['admins']` their
 * lists and records; `['simulated-phone', linkId]` a simulated phone's link and its chats (bots.calls.ts); `['webhooks', appId]` an
 * app's webhook and, below it, its deliveries (webhooks.calls.ts); `['auth', ...]` the signed-in user, API keys and
 * two-factor status; `['monitoring', ...]` the dashboard, live view, finished sessions and a session's path;
 * `['emulator', appId]` the emulator's debug lists of a session (logs.calls.ts); `['inbox']` the inbox's lists and
 * each conversation (inbox.calls.ts), all reloaded by its live stream.
 */
export const queryKeys = {
  // Derived from the declarations: screens of other areas invalidate these.
  apps: queryKey(findApps),
  app: (appId: string) => queryKey(getApp, { params: { appId } }),
  appVersions: (appId: string) => queryKey(findAppVersions, { params: { appId } }),
  menus: (appId: string) => queryKey(findMenus, { params: { appId } }),
  menusLite: (appId: string) => queryKey(findMenusLite, { params: { appId } }),
} as const;
