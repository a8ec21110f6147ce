import type { App } from '../../shared/api/apps.schema';

/**
 * The console's addresses that one area links to and another owns: a screen links here, never to the other
 * area's page or API module, so following a link loads no code of the screen it leads to and areas do not
 * import each other. An area's own addresses (its list's sub-pages, its query parameters) stay beside it.
 */

export const CREATE_APP_PATH = '/create-app';
export const APP_LIST_PATH = '/app-list';
export const designerPath = (appId: string) => `/app/design/${encodeURIComponent(appId)}`;
export const settingsPath = (appId: string) => `/app-settings/${encodeURIComponent(appId)}`;
export const emulatorPath = (appId: string) => `/app/emulator/${encodeURIComponent(appId)}`;
export const webhooksPath = (appId: string) => `/app-webhooks/${encodeURIComponent(appId)}`;
/** The app's saved test cases and their last run (docs/testing-apps.md). */
export const testsPath = (appId: string) => `/app/tests/${encodeURIComponent(appId)}`;

/** One deployed version, read-only (docs/versions.md). */
export const versionViewPath = (appId: string, version: number) => `${designerPath(appId)}/versions/${version}`;

/** The emulator running a deployed version instead of the draft. */
export const versionEmulatorPath = (appId: string, version: number) => `${emulatorPath(appId)}?version=${version}`;

/** The flow map (its own route, so linking to it does not load React Flow). */
export const flowMapPath = (appId: string) => `${designerPath(appId)}/flow`;

/** The flow map with the path one session took highlighted. */
export const sessionPathUrl = (appId: string, sessionId: string) => `${flowMapPath(appId)}?session=${encodeURIComponent(sessionId)}`;

/** The designer opens this menu's edit form (on a tab) when it loads. */
export const designMenuPath = (appId: string, menuId: string, tab?: string) =>
  `${designerPath(appId)}?menu=${encodeURIComponent(menuId)}${tab ? `&tab=${tab}` : ''}`;

export type MonitoringScreen = 'live' | 'logs' | 'dashboard' | 'completed' | 'uncompleted' | 'search';

/** An app's monitoring screens, in the order of their tabs; a WhatsApp bot's are the same. */
export const MONITORING_SCREENS: { value: MonitoringScreen; label: string; path: (appId: string) => string }[] = [
  { value: 'live', label: 'Live', path: (appId) => `/app/liveview/${encodeURIComponent(appId)}` },
  { value: 'logs', label: 'Logs', path: (appId) => `/app/actionlogs/${encodeURIComponent(appId)}` },
  { value: 'dashboard', label: 'Dashboard', path: (appId) => `/app/dashboard/${encodeURIComponent(appId)}` },
  { value: 'completed', label: 'Completed', path: (appId) => `/app/completesession/${encodeURIComponent(appId)}` },
  { value: 'uncompleted', label: 'Uncompleted', path: (appId) => `/app/uncompletedsession/${encodeURIComponent(appId)}` },
  { value: 'search', label: 'Search', path: (appId) => `/app/search/${encodeURIComponent(appId)}` },
];

export const monitoringPath = (screen: MonitoringScreen, appId: string) => MONITORING_SCREENS.find((s) => s.value === screen)!.path(appId);

export const BOT_LIST_PATH = '/whatsapp-bots';
export const botDesignerPath = (appId: string) => `/whatsapp-bot/design/${encodeURIComponent(appId)}`;
export const botSettingsPath = (appId: string) => `/whatsapp-bot/settings/${encodeURIComponent(appId)}`;
export const botSimulatorPath = (appId: string) => `/whatsapp-bot/simulator/${encodeURIComponent(appId)}`;

/** Where one app's own screens are: a USSD app's under /app..., a WhatsApp bot's under /whatsapp-bot/... */
export interface AppLinks {
  isBot: boolean;
  /** The list the app is on, and its name: 'My USSD Apps' or 'WhatsApp Bots'. */
  list: { path: string; label: string };
  designer: string;
  settings: string;
  /** Where it is tried out: the USSD emulator, or a bot's chat simulator; null for a sub-flow (tried in an app that enters it). */
  tester: { path: string; label: string } | null;
}

/**
 * The links of an app's screens by its channel, so every screen both share (the designer, the monitoring
 * screens) leads back to the right list and tester. The monitoring paths are the same for both.
 */
export function getAppLinks(app: Pick<App, 'appId' | 'channel' | 'isSubflow'>): AppLinks {
  // A sub-flow's menus are designed as an app's; it runs inside the apps that enter it (docs/sub-flows.md).
  if (app.isSubflow)
    return {
      isBot: false,
      list: { path: '/subflows', label: 'Sub-flows' },
      designer: designerPath(app.appId),
      settings: '/subflows',
      tester: null,
    };
  if (app.channel === 'whatsapp')
    return {
      isBot: true,
      list: { path: BOT_LIST_PATH, label: 'WhatsApp Bots' },
      designer: botDesignerPath(app.appId),
      settings: botSettingsPath(app.appId),
      tester: { path: botSimulatorPath(app.appId), label: 'Chat simulator' },
    };
  return {
    isBot: false,
    list: { path: APP_LIST_PATH, label: 'My USSD Apps' },
    designer: designerPath(app.appId),
    settings: settingsPath(app.appId),
    tester: { path: emulatorPath(app.appId), label: 'Emulator' },
  };
}

/** The templates page (signed in). */
export const TEMPLATES_PATH = '/app-templates';

/** The query parameter that opens the clone dialog of one template on the templates page. */
export const CLONE_PARAM = 'clone';

/** `/app-templates?clone={appId}`: the templates page with that template's clone dialog open. */
export const templateClonePath = (appId: string) => `${TEMPLATES_PATH}?${CLONE_PARAM}=${encodeURIComponent(appId)}`;

/** A template tried out in the emulator; its back button returns to `returnUrl`. */
export const templateEmulatorPath = (appId: string, returnUrl: string) =>
  `/apptemplate/emulator/${encodeURIComponent(appId)}?returnUrl=${encodeURIComponent(returnUrl)}`;

export const BILLING_PATH = '/account-billing';
/** The query parameter that opens the billing page on one plan's confirm dialog (the pricing page's Start Now). */
export const BILLING_PLAN_PARAM = 'plan';
/** `/account-billing?plan=STANDARD`: Account Billing with that plan's payment waiting for the user's yes. */
export const billingPlanPath = (plan: string) => `${BILLING_PATH}?${BILLING_PLAN_PARAM}=${encodeURIComponent(plan)}`;
/** Subscriptions (admins): any account's subscription, extended or activated by hand. */
export const ADMIN_SUBSCRIPTIONS_PATH = '/admin/subscriptions';

export const merchantProfilePath = (uuid: string) => `/merchant/profile/${encodeURIComponent(uuid)}`;

/** The contacts list and one contact's page (the contacts area; the inbox links to a customer's). */
export const CONTACTS_PATH = '/contacts';
export const contactPath = (contactId: string) => `${CONTACTS_PATH}/${encodeURIComponent(contactId)}`;
