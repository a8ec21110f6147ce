import type { App } from '../../../shared/api/apps.schema';
import { BOT_LIST_PATH, botDesignerPath, botSettingsPath, botSimulatorPath } from '../bots/bots.api';
import { APP_LIST_PATH } from './apps.api';
import { designerPath, settingsPath } from './app-row-actions';

export const emulatorPath = (appId: string) => `/app/emulator/${encodeURIComponent(appId)}`;

/** Where one app's own screens are: a USSD app's under /app..., a WhatsApp bot's under /whatsapp-bot/... */
export interface AppLinks {
  isBot: boolean;
  /** The list the app is on, and its name: 'My USSD Apps' or 'WhatsApp Bots'. */
  list: { path: string; label: string };
  designer: string;
  settings: string;
  /** Where it is tried out: the USSD emulator, or a bot's chat simulator. */
  tester: { path: string; label: string };
}

/**
 * The links of an app's screens by its channel, so every screen both share (the designer, the monitoring
 * screens) leads back to the right list and tester. The monitoring paths are the same for both.
 */
export function getAppLinks(app: Pick<App, 'appId' | 'channel'>): AppLinks {
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
