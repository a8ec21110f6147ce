import { z } from 'zod';
import { appLanguagesSchema } from './languages';
import { menuSchema } from './menu.schema';
import { MAX_SUBFLOWS_PER_APP, subflowInterfaceSchema, subflowVersionSchema } from './subflow.schema';
import { DEFAULT_SCREEN_LIMIT, MAX_SCREEN_LIMIT, MIN_SCREEN_LIMIT } from './screen-limits';
import { designScreenLimit, gatewayConnectionsSchema } from '../gateway-profiles';

/** Where an app runs: USSD gateways, or WhatsApp (a bot; docs/bots.md). */
export const APP_CHANNELS = ['ussd', 'whatsapp'] as const;
export type AppChannel = (typeof APP_CHANNELS)[number];
/** A WhatsApp text message's limit: a bot's screens page past it instead of the USSD screen limit. */
export const WHATSAPP_SCREEN_LIMIT = 4096;

export { DEFAULT_SCREEN_LIMIT, MAX_SCREEN_LIMIT, MIN_SCREEN_LIMIT } from './screen-limits';

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
  /** The gateways the app is connected to, with their narrower limits (shared/gateway-profiles.ts); USSD apps only. */
  gatewayConnections: gatewayConnectionsSchema.optional(),
  /** A bot's screens are WhatsApp messages: `screenLimit` gives way to WHATSAPP_SCREEN_LIMIT. */
  channel: z.enum(APP_CHANNELS).default('ussd'),
  menus: z.array(menuSchema).max(2000),
  /** The app's languages (docs/languages.md); left out for an app in one language. */
  languages: appLanguagesSchema.optional(),
  /**
   * The sub-flows the app's rules enter (docs/sub-flows.md): their drafts in the draft, the versions frozen at deploy
   * in a deployed version. Left out when none.
   */
  subflows: z.array(subflowVersionSchema).max(MAX_SUBFLOWS_PER_APP).optional(),
  /** Set on a sub-flow's own draft (its designer, its emulator run): its menus may Return, and may not enter one. */
  subflowInterface: subflowInterfaceSchema.optional(),
});
export type AppVersion = z.infer<typeof appVersionSchema>;
export type AppVersionInput = z.input<typeof appVersionSchema>;

/**
 * The characters one screen may hold as the designer, the lint and the preview count it: a WhatsApp message's for a
 * bot; on USSD the app's screen limit narrowed by the strictest gateway it is connected to (designScreenLimit), so a
 * menu that fits passes through every one of them. A session runs under its own gateway's (sessionScreenLimit).
 */
export function getScreenLimit(app: Pick<AppVersion, 'channel' | 'screenLimit' | 'gatewayConnections'>): number {
  return app.channel === 'whatsapp' ? WHATSAPP_SCREEN_LIMIT : designScreenLimit(app.screenLimit, app.gatewayConnections ?? []).limit;
}
