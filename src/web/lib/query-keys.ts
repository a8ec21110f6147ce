import type { DashboardEnvironment } from '../../shared/api/monitoring.schema';

/**
 * Every cached query's key, in one place, so a screen that changes something invalidates exactly what other
 * screens read: `['apps']` holds the app list and, below it, each app and its versions; `['menus', appId]` an
 * app's menus and their lite list; `['custom-actions']` the functions, each function and the templates;
 * `['shortcodes']` the providers, the catalogue, what each country offers and the account's purchases;
 * `['billing']` the account's subscription and its payment history (a shortcode payment appears there too);
 * `['bots']` the bot list and, below it, each bot and its linked numbers; `['simulated-phone', linkId]` a simulated
 * phone's link and its chats; `['webhooks', appId]` an app's webhook and, below it, its deliveries.
 * A declared call's key is in its declaration (src/shared/api/*.calls.ts, `key`) and sits in the same hierarchy;
 * its feature exports the prefix invalidation names (`BILLING_KEY`).
 */
export const queryKeys = {
  currentUser: ['auth', 'me'],
  apiKeys: ['auth', 'api-keys'],
  twoFactor: ['auth', 'two-factor'],
  rememberedDevices: ['auth', 'two-factor', 'devices'],
  apps: ['apps'],
  app: (appId: string) => ['apps', appId],
  appVersions: (appId: string) => ['apps', appId, 'versions'],
  menus: (appId: string) => ['menus', appId],
  menusLite: (appId: string) => ['menus', appId, 'lite'],
  featuredTemplates: ['templates', 'featured'],
  liveSessions: (appId: string) => ['monitoring', 'live', appId],
  dashboard: (appId: string, environment: DashboardEnvironment) => ['monitoring', 'dashboard', appId, environment],
  finishedSessions: (kind: 'completed' | 'uncompleted', appId: string) => ['monitoring', kind, appId],
  emulatorApp: (source: 'app' | 'template', appId: string) => ['emulator', 'app', source, appId],
  emulatorUserInputs: (appId: string, sessionId: string | null) => ['emulator', 'userInputs', appId, sessionId],
  emulatorActionResults: (appId: string, sessionId: string | null) => ['emulator', 'actionResults', appId, sessionId],
  sessionPath: (appId: string, sessionId: string) => ['monitoring', 'path', appId, sessionId],
  simulatedPhone: (linkId: string) => ['simulated-phone', linkId],
  simulatedPhoneTranscript: (linkId: string, from: string) => ['simulated-phone', linkId, 'transcript', from],
  webhook: (appId: string) => ['webhooks', appId],
  webhookDeliveries: (appId: string) => ['webhooks', appId, 'deliveries'],
  mailOutbox: ['mail', 'outbox'],
} as const;
