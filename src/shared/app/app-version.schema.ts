import { z } from 'zod';
import { appLanguagesSchema } from './languages';
import { menuSchema } from './menu.schema';

/** Where an app runs: USSD gateways, or WhatsApp (a bot; docs/bots.md). */
export const APP_CHANNELS = ['ussd', 'whatsapp'] as const;
export type AppChannel = (typeof APP_CHANNELS)[number];
/** A WhatsApp text message's limit: a bot's screens page past it instead of the USSD screen limit. */
export const WHATSAPP_SCREEN_LIMIT = 4096;

/** 160 characters is the safe screen on many networks; 182 is the USSD protocol maximum. */
export const DEFAULT_SCREEN_LIMIT = 160;
export const MAX_SCREEN_LIMIT = 182;
/** Below this a page cannot hold a line of text and its `98. More`. */
export const MIN_SCREEN_LIMIT = 60;

/**
 * What the engine runs: an app's menus in order, frozen as a draft snapshot or a deployed version.
 * `shortCode` may carry template tags (`*920*{merchantCode}*{amount}#`) when `useTemplateTag` is set.
 */
export const appVersionSchema = z.object({
  appId: z.string().min(1).max(64),
  /** 'draft' for the test URL, the deployed version's id for the live URL. */
  versionId: z.string().max(64).default('draft'),
  appName: z.string().max(200).default(''),
  shortCode: z.string().max(100).default(''),
  useTemplateTag: z.boolean().default(false),
  screenLimit: z.number().int().min(MIN_SCREEN_LIMIT).max(MAX_SCREEN_LIMIT).default(DEFAULT_SCREEN_LIMIT),
  /** A bot's screens are WhatsApp messages: `screenLimit` gives way to WHATSAPP_SCREEN_LIMIT. */
  channel: z.enum(APP_CHANNELS).default('ussd'),
  menus: z.array(menuSchema).max(2000),
  /** The app's languages (docs/languages.md); left out for an app in one language. */
  languages: appLanguagesSchema.optional(),
});
export type AppVersion = z.infer<typeof appVersionSchema>;
export type AppVersionInput = z.input<typeof appVersionSchema>;

/** The characters one screen may hold: the app's USSD screen limit, or a WhatsApp message's for a bot. */
export function getScreenLimit(app: Pick<AppVersion, 'channel' | 'screenLimit'>): number {
  return app.channel === 'whatsapp' ? WHATSAPP_SCREEN_LIMIT : app.screenLimit;
}
