import type { RouteObject } from 'react-router';
import { AppScreenGuard } from '../apps/app-screen-guard';
import { BotListPage } from './bot-list-page';
import { BotSettingsPage } from './bot-settings-page';
import { BotSimulatorPage } from './bot-simulator-page';
import { SimulatedPhonePage } from './simulated-phone-page';

/**
 * The WhatsApp bots' signed-in screens, in the console layout. A bot's designer is the apps' Menu Design View
 * (a bot is an app with channel 'whatsapp'), loaded as its own chunk as under /app/design; its screens answer
 * 'Bot not found' for an unknown id.
 */
export const botsRoutes: RouteObject[] = [
  { path: '/whatsapp-bots', element: <BotListPage /> },
  {
    element: <AppScreenGuard isBot />,
    children: [
      { path: '/whatsapp-bot/settings/:appId', element: <BotSettingsPage /> },
      {
        path: '/whatsapp-bot/design/:id',
        lazy: async () => ({ Component: (await import('../menus/menu-design-page')).MenuDesignPage }),
      },
    ],
  },
];

/** Full-screen routes without the console layout: the chat simulator (signed in) and the simulated phone (public). */
export const botFullScreenRoutes: RouteObject[] = [
  { path: '/whatsapp-bot/simulator/:appId', element: <BotSimulatorPage /> },
  { path: '/whatsapp-simulator/:linkId', element: <SimulatedPhonePage /> },
];
