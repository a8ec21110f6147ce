import { officeHoursSchema } from '../office-hours';
import { z } from 'zod';
import { subflowInterfaceSchema } from '../app/subflow.schema';
import { APP_CHANNELS } from '../app/app-version.schema';
import { appLanguagesSchema } from '../app/languages';
import { gatewayConnectionSchema, gatewayConnectionsSchema, USSD_GATEWAYS } from '../gateway-profiles';

/** Countries for app creation (values, in the product's order). */
export const APP_COUNTRIES = [
  'ghana',
  'nigeria',
  'swaziland',
  'kenya',
  'sierra-leone',
  'rwanda',
  'liberia',
  'gabon',
  'guinea',
  'gambia',
  'malawi',
  'burundi',
  'mauritius',
  'eritrea',
  'dr-congo',
  'niger',
  'tunisia',
  'algeria',
  'south-africa',
  'cape-verde',
  'ivory-coast',
  'togo',
  'lesotho',
  'morocco',
  'zimbabwe',
  'namibia',
  'chad',
  'seychelles',
  'equitorial-guinea',
] as const;

/** Base shortcodes; 'custom' means the typed shortcode is used as it is. */
export const BASE_SHORTCODES = ['*800*', '*389*', '*790*', '*920*', 'custom'] as const;
export const CONNECTION_MODES = ['new-shortcode', 'existing-shortcode'] as const;
export type ConnectionMode = (typeof CONNECTION_MODES)[number];

export const APP_MESSAGES = {
  incomplete: 'Please complete all fields',
  isBot: 'This is a WhatsApp bot: change it on its Bot Settings',
  isSubflow: 'This is a sub-flow: change or delete it on the Sub-flows screen (/subflows)',
  noBase: 'Please select top level shortcode',
  noHash: "Shortcode must end with '#'",
  existingFormat: 'Shortcode must start with * and end with # . examples: *966#, *900*200#',
  noShortcode: 'Please enter Short Code',
  unknownCountry: 'Please select a country from the list',
  resumeWindow: 'Resume window must be a whole number of minutes from 1 to 60',
  /** A merchant user who is not a Developer creates, clones or imports an app (403; docs/merchants.md). */
  notAppBuilder: "Only your company's developers build its apps: ask your account manager to make you a Developer",
  /** An app's dial string is one app's in its account (docs/shortcodes.md, "An app's dial string"). */
  dialStringInUse: (shortCode: string) => `Another of your apps uses ${shortCode}: choose another shortcode.`,
  /** A dial string another account holds as a shortcode purchase (reserved or active). */
  dialStringHeld: (shortCode: string) => `${shortCode} is a shortcode another account holds: choose another shortcode.`,
} as const;

/**
 * Resume on redial (docs/runtime.md): off unless the builder turns it on; a dialler whose session dropped is offered
 * it back when they dial again within the window, counted in minutes from their last answer.
 */
export const RESUME_WINDOW_MINUTES = { min: 1, max: 60, default: 5 } as const;

export function isValidResumeWindow(minutes: unknown): boolean {
  return (
    typeof minutes === 'number' && Number.isInteger(minutes) && minutes >= RESUME_WINDOW_MINUTES.min && minutes <= RESUME_WINDOW_MINUTES.max
  );
}

const TAG = String.raw`\{[A-Za-z_][A-Za-z0-9_]*\}`;
/** `*966#`, `*900*200#`; with template tags also `*920*{merchantCode}*{amount}#`. */
const EXISTING_PLAIN = /^\*[\d*]+#$/;
const EXISTING_TEMPLATED = new RegExp(String.raw`^\*(?:\d+|${TAG})(?:\*(?:\d+|${TAG}))*#$`);

export function isValidExistingShortcode(shortCode: string, useTemplateTag: boolean): boolean {
  return EXISTING_PLAIN.test(shortCode) || (useTemplateTag && EXISTING_TEMPLATED.test(shortCode));
}

/**
 * The create-app rules (docs/product.md, Apps), shared by the form and the server. Returns the first message, or
 * the final shortcode: for new-shortcode, a leading `*` on the typed part is dropped and the base prefixed
 * (unless the base is custom).
 */
export function resolveAppShortcode(input: {
  connectionMode: string;
  baseShortCode?: string;
  shortCode?: string;
  customShortCode?: string;
  useTemplateTag: boolean;
}): { ok: true; shortCode: string } | { ok: false; message: string; field: string } {
  if (input.connectionMode === 'existing-shortcode') {
    const shortCode = (input.customShortCode || input.shortCode || '').trim();
    if (!isValidExistingShortcode(shortCode, input.useTemplateTag))
      return { ok: false, message: APP_MESSAGES.existingFormat, field: 'customShortCode' };
    return { ok: true, shortCode };
  }
  const base = input.baseShortCode ?? '';
  if (!(BASE_SHORTCODES as readonly string[]).includes(base)) return { ok: false, message: APP_MESSAGES.noBase, field: 'baseShortCode' };
  const typed = (input.shortCode ?? '').trim();
  if (!typed.includes('#')) return { ok: false, message: APP_MESSAGES.noHash, field: 'shortCode' };
  const shortCode = base === 'custom' ? typed : `${base}${typed.replace(/^\*/, '')}`;
  if (!isValidExistingShortcode(shortCode, input.useTemplateTag))
    return { ok: false, message: APP_MESSAGES.existingFormat, field: 'shortCode' };
  return { ok: true, shortCode };
}

const text = (max: number) => z.string().trim().max(max).default('');

/** Create-app payload. Presence rules give the product's messages in the service. */
export const createAppBodySchema = z.object({
  appName: text(120),
  description: text(1000),
  country: text(40),
  connectionMode: z.enum(CONNECTION_MODES, { message: 'Please choose how the app connects to a shortcode' }),
  useTemplateTag: z.boolean().default(false),
  shortCode: text(100),
  baseShortCode: text(20),
  customShortCode: text(100),
});
export type CreateAppBody = z.infer<typeof createAppBodySchema>;

/**
 * A shortcode purchase of the app's account that holds the app's dial string now (docs/shortcodes.md, "An app's
 * dial string"): `connectedHere` when its traffic comes to this app.
 */
export const dialStringHoldSchema = z.object({
  uuid: z.string(),
  provider: z.string(),
  status: z.enum(['reserved', 'active']),
  expiryDate: z.string().nullable(),
  connectedHere: z.boolean(),
});
export type DialStringHold = z.infer<typeof dialStringHoldSchema>;

export const appSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  description: z.string(),
  country: z.string(),
  useTemplateTag: z.boolean(),
  shortCode: z.string(),
  connectionMode: z.string(),
  baseShortCode: z.string(),
  customShortCode: z.string(),
  screenLimit: z.number(),
  resumeOnRedial: z.boolean(),
  resumeWindowMinutes: z.number(),
  /** The app's languages (docs/languages.md), null for an app in one language. */
  languages: appLanguagesSchema.nullable(),
  /** When its agents answer a callback request or a handoff (docs/inbox.md, "Office hours"); null: always. */
  officeHours: officeHoursSchema.nullable(),
  /** The gateways the app is connected to and their narrower limits (docs/runtime.md, "Gateway profiles"); [] for a bot. */
  gatewayConnections: z.array(gatewayConnectionSchema),
  flagIcon: z.string(),
  isTemplate: z.boolean(),
  /** `whatsapp` for a bot (its screens are on /whatsapp-bot/...); every menu, deploy and monitoring call takes either. */
  channel: z.enum(APP_CHANNELS),
  /** A bot's active or inactive; always active for a USSD app. */
  status: z.enum(['active', 'inactive']),
  /** Set on a sub-flow (docs/sub-flows.md), whose menus the designer edits as an app's; never served by a gateway. */
  isSubflow: z.literal(true).optional(),
  /** A sub-flow's declared inputs and outputs (its designer's lint knows them as session variables). */
  subflowInterface: subflowInterfaceSchema.optional(),
  /** With the gateway key on, both URLs end in it (docs/runtime.md, "Gateway keys"). */
  testUrl: z.string(),
  productionUrl: z.string(),
  /** Whether the gateway URLs need the app's key. */
  hasGatewayKey: z.boolean(),
  /** The key, for whoever may change the app; null while off or for anyone else (a featured template). */
  gatewayKey: z.string().nullable(),
  companyName: z.string(),
  userEmail: z.string(),
  liveVersion: z.number().nullable(),
  /** GET /api/getAppByAppId only: the purchase that reserves the dial string, null when nothing does. */
  dialStringHold: dialStringHoldSchema.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type App = z.infer<typeof appSchema>;

/** POST /api/updateApp: the whole app object; only the editable fields are read. */
export const updateAppBodySchema = createAppBodySchema
  .extend({
    appId: z.string().min(1).max(64),
    screenLimit: z.number().int().min(60).max(182).optional(),
    resumeOnRedial: z.boolean({ message: 'Resume on redial must be on or off' }).optional(),
    resumeWindowMinutes: z
      .number({ message: APP_MESSAGES.resumeWindow })
      .int({ message: APP_MESSAGES.resumeWindow })
      .min(RESUME_WINDOW_MINUTES.min, { message: APP_MESSAGES.resumeWindow })
      .max(RESUME_WINDOW_MINUTES.max, { message: APP_MESSAGES.resumeWindow })
      .optional(),
    /** The app's languages; null turns them off (the menus keep their translations), absent keeps them. */
    languages: appLanguagesSchema.nullable().optional(),
    /** When its agents answer; null: always, absent keeps them. */
    officeHours: officeHoursSchema.nullable().optional(),
    /** The gateways it is connected to, the whole list ([] disconnects them all); absent keeps them. */
    gatewayConnections: gatewayConnectionsSchema.optional(),
  })
  .passthrough();

export type UpdateAppBody = z.infer<typeof updateAppBodySchema>;

/** How far back App Settings looks for the gateways that sent the app sessions. */
export const GATEWAY_TRAFFIC_DAYS = 30;

/** A gateway that sent the app sessions in the last GATEWAY_TRAFFIC_DAYS: how many (test and live URLs), the last one's end. */
export const gatewayTrafficSchema = z.object({
  gateway: z.enum(USSD_GATEWAYS),
  sessions: z.number().int(),
  lastAt: z.string(),
});
export type GatewayTraffic = z.infer<typeof gatewayTrafficSchema>;

export const cloneAppBodySchema = z.object({
  appId: z.string().min(1).max(64),
  appName: text(120),
  description: text(1000),
  useTemplateTag: z.boolean().optional(),
  /** Admins: clone into a merchant's account. */
  merchantUuid: z.string().max(64).optional(),
  shortCode: z.string().trim().max(100).optional(),
});
export type CloneAppBody = z.infer<typeof cloneAppBodySchema>;
