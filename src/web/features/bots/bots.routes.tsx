import type { RouteObject } from 'react-router';
import { AppScreenGuard } from '../apps/app-screen-guard';

/**
 * The WhatsApp bots' signed-in screens, in the console layout. A bot's designer is the apps' Menu Design View
 * (a bot is an app with channel 'whatsapp'), loaded as its own chunk as under /app/design; its screens answer
 * 'Bot not found' for an unknown id.
 */
export const botsRoutes: RouteObject[] = [
  { path: '/whatsapp-bots', lazy: async () => ({ Component: (await import('./bot-list-page')).BotListPage }) },
  {
    element: <AppScreenGuard isBot />,
    children: [
      { path: '/whatsapp-bot/settings/:appId', lazy: async () => ({ Component: (await import('./bot-settings-page')).BotSettingsPage }) },
      {
        path: '/whatsapp-bot/design/:id',
        lazy: async () => ({ Component: (await import('../menus/menu-design-page')).MenuDesignPage }),
      },
    ],
  },
];

/** Full-screen routes without the console layout: the chat simulator (signed in) and the simulated phone (public). */
export const botFullScreenRoutes: RouteObject[] = [
  { path: '/whatsapp-bot/simulator/:appId', lazy: async () => ({ Component: (await import('./bot-simulator-page')).BotSimulatorPage }) },
  { path: '/whatsapp-simulator/:linkId', lazy: async () => ({ Component: (await import('./simulated-phone-page')).SimulatedPhonePage }) },
];
