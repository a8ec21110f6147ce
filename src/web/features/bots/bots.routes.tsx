import type { RouteObject } from 'react-router';

/** The WhatsApp bots' signed-in list, in the console layout. */
export const botsRoutes: RouteObject[] = [
  { path: '/whatsapp-bots', lazy: async () => ({ Component: (await import('./bot-list-page')).BotListPage }) },
];

/** The bots area's screens of one bot, which src/web/routes.tsx puts behind the app guard ('Bot not found'). */
export const botScreenRoutes: RouteObject[] = [
  { path: '/whatsapp-bot/settings/:appId', lazy: async () => ({ Component: (await import('./bot-settings-page')).BotSettingsPage }) },
];

/** Full-screen routes without the console layout: the chat simulator (signed in) and the simulated phone (public). */
export const botFullScreenRoutes: RouteObject[] = [
  { path: '/whatsapp-bot/simulator/:appId', lazy: async () => ({ Component: (await import('./bot-simulator-page')).BotSimulatorPage }) },
  { path: '/whatsapp-simulator/:linkId', lazy: async () => ({ Component: (await import('./simulated-phone-page')).SimulatedPhonePage }) },
];
