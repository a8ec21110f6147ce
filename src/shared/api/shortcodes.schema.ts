import { z } from 'zod';
import { statusSchema } from './envelope';

/**
 * Shortcodes: the calls, bodies, replies and messages shared by the console's screens and the server
 * (docs/shortcodes.md has the model; docs/product.md the screens). Every reply is the envelope
 * `{ status, message, data? }`; a refused call answers its status ('02' invalid, '04' not found, also for another
 * account's purchase, '05' not allowed) with one of the messages below.
 *
 * Admins only (ShortCode Providers, Available USSD Extensions):
 * - `POST /api/registerProvider` {@link registerProviderBodySchema} -> `data`: {@link providerSchema}
 * - `GET  /api/getAllProviders` -> `data`: providerSchema[] (empty list: 'There are no ShortCode Providers')
 * - `GET  /api/deleteProvider/{uuid}` -> `{ status, message }`; a provider that still has extensions: '02'
 * - `POST /api/rotateProviderKey/{uuid}` -> `data`: providerSchema (a new key; the old one is refused at once)
 * - `POST /api/updateProviderAccess/{uuid}` {@link updateProviderAccessBodySchema} -> `data`: providerSchema
 * - `POST /api/subscription/createShortCode` {@link createShortcodeBodySchema} -> `data`: {@link extensionSchema}
 * - `GET  /api/getAllAvailableShortCodes` -> `data`: extensionSchema[] (the whole catalogue)
 * - `GET  /api/deleteShortCode/{uuid}` -> `{ status, message }`; an extension someone holds: '02'
 * - `POST /api/subscription/provisionShortCode` {@link provisionShortcodeBodySchema} -> `data`: {@link purchaseSchema}
 *   (active at once, no payment)
 *
 * Everyone signed in (Buy USSD ShortCode, My USSD Extensions, Connect):
 * - `GET  /api/getAvailableShortCodes/{country}` (Ghana, Nigeria, Eswatini, Kenya; any case) -> `data`: extensionSchema[]
 *   (only those that can be bought now)
 * - `POST /api/subscription/buyshortcode` {@link buyShortcodeBodySchema} -> {@link checkoutReplySchema}: status '01'
 *   with `redirectUrl` (open the payment page in a new tab) and the reserved purchase in `data`; '00' when the
 *   provider asks the payer on the phone instead (the message says so); anything else: show the message
 * - `POST /api/subscription/renewShortcode` {@link renewShortcodeBodySchema} -> checkoutReplySchema, the same handling
 * - `GET  /api/myPurchasedShortCodes` -> `data`: purchaseSchema[] (reserved, active, expired; newest first)
 * - `GET  /api/getShortCodeByUuid/{uuid}` -> `data`: purchaseSchema
 * - `POST /api/connectAppToShortCode/` (with the trailing slash) {@link connectAppBodySchema} -> `data`: purchaseSchema;
 *   on '00' the screen goes to /my-shortcodes after {@link CONNECT_REDIRECT_MS} ms
 *
 * Gateways (no sign-in): `/ussd/provider/{providerId}` (POST, GET, PUT), the `providerUrl` of a provider.
 */

/** Countries an extension can be bought in, in the buy screen's order, with the currency of their prices. */
export const SHORTCODE_COUNTRIES = [
  { name: 'Ghana', currency: 'GHS' },
  { name: 'Nigeria', currency: 'NGN' },
  { name: 'Eswatini', currency: 'SZL' },
  { name: 'Kenya', currency: 'KES' },
] as const;
export type ShortcodeCountry = (typeof SHORTCODE_COUNTRIES)[number]['name'];
export const SHORTCODE_COUNTRY_NAMES = SHORTCODE_COUNTRIES.map((c) => c.name) as [ShortcodeCountry, ...ShortcodeCountry[]];

/** The provider choices of the New Extension form; `other` takes a name in `otherprovider`. */
export const SHORTCODE_PROVIDER_CHOICES = ['mtngh', 'airtelgh', 'vodagh', 'other'] as const;
/** The HTTP methods an extension's traffic may arrive with. */
export const SHORTCODE_METHODS = ['POST', 'GET', 'PUT'] as const;
export type ShortcodeMethod = (typeof SHORTCODE_METHODS)[number];
/** Where a connected app runs: `test` its draft (the default), `production` its latest deployed version. */
export const LINKED_APP_ENVS = ['test', 'production'] as const;
export type LinkedAppEnv = (typeof LINKED_APP_ENVS)[number];

/** A purchase or renewal pays for 1 to 12 months (`leaseCount`); the renewal form starts at 1. */
export const LEASE_MONTHS_MIN = 1;
export const LEASE_MONTHS_MAX = 12;
export const RENEW_MONTHS_DEFAULT = 1;
/** An admin's provision without a `leaseCount` gives 12 months. */
export const PROVISION_MONTHS_DEFAULT = 12;
/** A dial string is held for its buyer this long from checkout while the payment is made. */
export const RESERVATION_MINUTES = 15;
/** Expiry reminders go out by mail this many days before the expiry date. */
export const REMINDER_DAYS_BEFORE = [7, 1] as const;
/** After a connect answered '00' the screen goes to /my-shortcodes after this long. */
export const CONNECT_REDIRECT_MS = 1000;
/** The digits a buyer chooses for an open extension: at most this many. */
export const EXT_LENGTH_MAX = 6;
/** A catalogue extension's own digits (`34` of `*920*34#`): at most this many. */
export const EXTENSION_DIGITS_MAX = 10;
/** A price per month is above 0 and at most this, with at most two decimals. */
export const PRICE_MAX = 1_000_000;

/** Every fixed text of the shortcode screens and calls. */
export const SHORTCODE_MESSAGES = {
  noProviders: 'There are no ShortCode Providers',
  providerNameRequired: 'Enter Provider Name',
  providerIdRequired: 'Enter Provider Id',
  providerIdFormat: 'Provider Id may have only letters, digits, - and _ (at most 40)',
  providerIdTaken: 'A provider with this Provider Id already exists',
  providerInUse: 'This provider still has extensions: delete them first',
  providerNotFound: 'Provider not found',
  providerSourceFormat: 'Each allowed source must be an IPv4 or IPv6 address, or a range such as 197.255.0.0/16',
  countryRequired: 'Select a country',
  providerRequired: 'Select shortcode provider',
  extensionRequired: 'Enter USSD extension',
  methodRequired: 'Select http method',
  otherProviderRequired: 'Enter other provider name',
  baseShortcodeFormat: 'The shortcode must start and end with *, with digits between, e.g. *920*',
  extensionDigits: 'The extension must be digits, e.g. 34',
  extLengthRange: `The digits a buyer chooses must be 0 to ${EXT_LENGTH_MAX}`,
  priceRequired: 'Enter a price per month above 0, with at most two decimals',
  extensionExists: 'This extension is already in the catalogue',
  extensionInUse: 'This extension is held by an account: it can be deleted once that purchase has ended',
  extensionNotFound: 'Shortcode extension not found',
  selectExtension: 'Select a shortcode extension',
  numericExtension: 'Enter a numeric extension',
  leaseCount: `Choose a period of ${LEASE_MONTHS_MIN} to ${LEASE_MONTHS_MAX} months`,
  taken: `This shortcode is held or reserved by another buyer. Choose other digits, or try again in ${RESERVATION_MINUTES} minutes.`,
  alreadyYours: 'You already hold this shortcode: renew it from My USSD Extensions',
  /** Provisioning a dial string an account holds or has reserved: a fixed extension marked Taken, or digits in use. */
  provisionTaken: (dialString: string) =>
    `${dialString} is taken: an account holds or has reserved it. It can be provisioned once that purchase has ended.`,
  purchaseNotFound: 'Shortcode not found',
  notRenewable: 'This shortcode can no longer be renewed: its reservation lapsed without payment',
  noLongerOffered: 'This extension is no longer offered',
  checkout: `Complete the payment in the new tab. The shortcode is reserved for you for ${RESERVATION_MINUTES} minutes.`,
  paymentRefused: 'The payment provider refused the payment',
  provisioned: 'Extension provisioned',
  userEmailRequired: "Enter the account's email",
  accountNotFound: 'No account has this email',
  selectApp: 'Select app to connect',
  notActive: 'This shortcode is not active: pay for it first',
  notDeployed: 'Deploy the app before connecting it in production',
  connected: 'App connected to shortcode',
} as const;

/** `Extension length must be 3 digits` */
export const formatExtensionLengthMessage = (n: number) => `Extension length must be ${n} digits`;

/** The base of a shared shortcode, `*920*` or `*920*5*`: digits between stars. */
const BASE_SHORTCODE = /^\*(?:\d+\*)+$/;
const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
const PRICE = /^\d{1,7}(?:\.\d{1,2})?$/;

/** The Provider Id an `other` provider's name gets: `Hubtel Ghana` -> `hubtel-ghana`; empty when nothing is left. */
export function toProviderId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 40);
  return PROVIDER_ID.test(id) ? id : '';
}

/** `*920*` + `34` + `` -> `*920*34#`; `*800*` + `` + `123` -> `*800*123#`. */
export function buildDialString(shortCode: string, extension: string, digits = ''): string {
  return `${shortCode}${extension}${digits}#`;
}

/** What the buy table's Example shows: the dial string, with 1, 2, 3... for the digits a buyer chooses. */
export function buildExample(extension: Pick<Extension, 'shortCode' | 'extension' | 'extLength'>): string {
  return buildDialString(extension.shortCode, extension.extension, '1234567890'.slice(0, extension.extLength));
}

/**
 * How the catalogue shows an extension: a fixed one as its dial string (`*920*34#`), an open one as a pattern with
 * an X for each digit a buyer chooses (`*555*XX#`, `*920*5X#`).
 */
export function buildDialPattern(extension: Pick<Extension, 'shortCode' | 'extension' | 'extLength'>): string {
  return buildDialString(extension.shortCode, extension.extension, 'X'.repeat(extension.extLength));
}

/** The first problem of a buyer's digits for an extension (`null` when they fit), with the screen's messages. */
export function findDigitsProblem(extLength: number, digits: string): string | null {
  if (extLength === 0) return null;
  if (!/^\d+$/.test(digits)) return SHORTCODE_MESSAGES.numericExtension;
  if (digits.length !== extLength) return formatExtensionLengthMessage(extLength);
  return null;
}

const text = (max: number) => z.string().trim().max(max).default('');
const uuidText = z.string().trim().max(64).default('');
const leaseCount = z.coerce
  .number({ message: SHORTCODE_MESSAGES.leaseCount })
  .int(SHORTCODE_MESSAGES.leaseCount)
  .min(LEASE_MONTHS_MIN, SHORTCODE_MESSAGES.leaseCount)
  .max(LEASE_MONTHS_MAX, SHORTCODE_MESSAGES.leaseCount);

// ---- providers ----

export const registerProviderBodySchema = z.object({
  providerName: z.string().trim().min(1, SHORTCODE_MESSAGES.providerNameRequired).max(120),
  providerId: z
    .string()
    .trim()
    .min(1, { message: SHORTCODE_MESSAGES.providerIdRequired, abort: true })
    .regex(PROVIDER_ID, SHORTCODE_MESSAGES.providerIdFormat),
});
export type RegisterProviderBody = z.infer<typeof registerProviderBodySchema>;

export const providerSchema = z.object({
  uuid: z.string(),
  providerName: z.string(),
  providerId: z.string(),
  /** Where the aggregator must forward the shortcode's traffic: `<public origin>/ussd/provider/{providerId}/{gatewayKey}`. */
  providerUrl: z.string(),
  /** 256 random bits, base64url; the last part of `providerUrl`, or an `X-Dialflow-Key` header (docs/shortcodes.md). */
  gatewayKey: z.string(),
  /** Legacy: the URL without the key is still served (providers registered before keys existed). */
  acceptsUnauthenticated: z.boolean(),
  /** Addresses and CIDR ranges the traffic may come from; empty: any (the key decides). */
  allowedSources: z.array(z.string()),
  createdAt: z.string(),
});
export type Provider = z.infer<typeof providerSchema>;

/** POST /api/updateProviderAccess/{uuid}: the legacy flag and the address allow-list (at most 50 entries). */
export const updateProviderAccessBodySchema = z.object({
  acceptsUnauthenticated: z.boolean(),
  allowedSources: z.array(z.string().trim().min(1).max(64)).max(50),
});
export type UpdateProviderAccessBody = z.infer<typeof updateProviderAccessBodySchema>;

// ---- the extension catalogue ----

/**
 * POST /api/subscription/createShortCode. `shortCode` is the base (`*920*`); `extension` its own digits (`34`),
 * empty for an open extension whose buyer chooses `extLength` digits; both may be set (`*920*5` + 2 digits).
 * `currency` defaults to the country's. The rules and their messages are {@link findExtensionProblem}'s.
 */
export const createShortcodeBodySchema = z.object({
  country: text(40),
  shortCode: text(40),
  provider: text(40),
  otherprovider: text(120),
  method: text(10),
  extension: text(EXTENSION_DIGITS_MAX + 10),
  extLength: z.coerce
    .number({ message: SHORTCODE_MESSAGES.extLengthRange })
    .int(SHORTCODE_MESSAGES.extLengthRange)
    .min(0, SHORTCODE_MESSAGES.extLengthRange)
    .max(99, SHORTCODE_MESSAGES.extLengthRange)
    .default(0),
  price: z.union([z.string().trim().max(20), z.number()]).default(''),
  currency: text(3),
});
export type CreateShortcodeBody = z.input<typeof createShortcodeBodySchema>;

/** The New Extension form's rules in the form's order, shared with the server: the first problem, or null. */
export function findExtensionProblem(body: z.infer<typeof createShortcodeBodySchema>): { field: string; message: string } | null {
  if (!SHORTCODE_COUNTRY_NAMES.some((c) => c.toLowerCase() === body.country.toLowerCase()))
    return { field: 'country', message: SHORTCODE_MESSAGES.countryRequired };
  if (!body.provider) return { field: 'provider', message: SHORTCODE_MESSAGES.providerRequired };
  if (!body.extension && body.extLength === 0) return { field: 'extension', message: SHORTCODE_MESSAGES.extensionRequired };
  if (!(SHORTCODE_METHODS as readonly string[]).includes(body.method.toUpperCase()))
    return { field: 'method', message: SHORTCODE_MESSAGES.methodRequired };
  if (body.provider === 'other' && !body.otherprovider)
    return { field: 'otherprovider', message: SHORTCODE_MESSAGES.otherProviderRequired };
  if (body.provider === 'other' && !toProviderId(body.otherprovider))
    return { field: 'otherprovider', message: SHORTCODE_MESSAGES.providerIdFormat };
  if (!BASE_SHORTCODE.test(body.shortCode) || body.shortCode.length > 20)
    return { field: 'shortCode', message: SHORTCODE_MESSAGES.baseShortcodeFormat };
  if (body.extension && !new RegExp(`^\\d{1,${EXTENSION_DIGITS_MAX}}$`).test(body.extension))
    return { field: 'extension', message: SHORTCODE_MESSAGES.extensionDigits };
  if (body.extLength > EXT_LENGTH_MAX) return { field: 'extLength', message: SHORTCODE_MESSAGES.extLengthRange };
  const price = String(body.price).trim();
  if (!PRICE.test(price) || Number(price) <= 0 || Number(price) > PRICE_MAX)
    return { field: 'price', message: SHORTCODE_MESSAGES.priceRequired };
  return null;
}

export const EXTENSION_STATUSES = ['available', 'taken'] as const;

export const extensionSchema = z.object({
  uuid: z.string(),
  /** The base, `*920*`. */
  shortCode: z.string(),
  /** The extension's own digits, `34`; empty for an open extension. */
  extension: z.string(),
  /** The provider's `providerId` (`mtngh`). */
  provider: z.string(),
  providerName: z.string(),
  requestMethod: z.enum(SHORTCODE_METHODS),
  /** `taken`: a fixed extension someone holds or has reserved. Open extensions stay `available`. */
  status: z.enum(EXTENSION_STATUSES),
  /** Per month, in `currency`. */
  price: z.number(),
  currency: z.string(),
  /** How many digits the buyer chooses (0: none, the extension is fixed). */
  extLength: z.number(),
  selected: z.boolean(),
  country: z.string(),
  /** `*920*34#`, or `*800*123#` for an open extension of 3 digits. */
  example: z.string(),
  createdAt: z.string(),
});
export type Extension = z.infer<typeof extensionSchema>;

export const countryParamsSchema = z.object({ country: z.string().trim().max(40) });

// ---- purchases ----

/**
 * `reserved`: checked out, waiting for its payment until `reservedUntil`; `active`: paid or provisioned, routed
 * until `expiryDate`; `expired`: past `expiryDate`, no longer routed (renewable while no one else has taken the
 * dial string); `lapsed`: the reservation passed unpaid (not listed); `refund_due`: paid after its reservation
 * lapsed while another account took the dial string (an admin refunds it).
 */
export const PURCHASE_STATUSES = ['reserved', 'active', 'expired', 'lapsed', 'refund_due'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const purchaseSchema = z.object({
  /** The same value as `uuid` (renewShortcode's `id`). */
  id: z.string(),
  uuid: z.string(),
  /** The whole dial string, `*920*34#`. */
  shortCode: z.string(),
  country: z.string(),
  /** ISO date-times; null until the first payment settles. */
  startDate: z.string().nullable(),
  expiryDate: z.string().nullable(),
  connected: z.boolean(),
  existingConnection: z.object({ appId: z.string(), appName: z.string() }).nullable(),
  linkedAppEnv: z.enum(LINKED_APP_ENVS).nullable(),
  status: z.enum(PURCHASE_STATUSES),
  /** The catalogue extension it came from; null once that was deleted. */
  extensionUuid: z.string().nullable(),
  provider: z.string(),
  requestMethod: z.enum(SHORTCODE_METHODS),
  /** Per month, as bought. */
  price: z.number(),
  currency: z.string(),
  /** While `reserved`: until when the dial string is held for the payment. */
  reservedUntil: z.string().nullable(),
  /** Given by an admin, without payment. */
  provisioned: z.boolean(),
  createdAt: z.string(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** POST /api/subscription/buyshortcode. `shortCode`: the digits the buyer chose for an open extension (else empty). */
export const buyShortcodeBodySchema = z.object({
  leaseCount,
  extensionUuid: z.string().trim().min(1, SHORTCODE_MESSAGES.selectExtension).max(64),
  shortCode: text(40),
});
export type BuyShortcodeBody = z.input<typeof buyShortcodeBodySchema>;

/** POST /api/subscription/renewShortcode. `id`: the purchase's uuid; `extensionUuid` and `shortCode` are not needed. */
export const renewShortcodeBodySchema = z.object({
  id: z.string().trim().min(1, SHORTCODE_MESSAGES.purchaseNotFound).max(64),
  leaseCount: leaseCount.default(RENEW_MONTHS_DEFAULT),
  extensionUuid: uuidText,
  shortCode: text(40),
});
export type RenewShortcodeBody = z.input<typeof renewShortcodeBodySchema>;

/** Buy and renew: `'01'` + `redirectUrl` (the payment page), the purchase in `data`, our payment `reference`. */
export const checkoutReplySchema = z.object({
  status: statusSchema,
  message: z.string(),
  data: purchaseSchema,
  redirectUrl: z.string().optional(),
  reference: z.string(),
});
export type CheckoutReply = z.infer<typeof checkoutReplySchema>;

/**
 * POST /api/subscription/provisionShortCode (admins): `self` gives it to the admin, else to the account with
 * `userEmail`; `shortCode` the digits of an open extension; `leaseCount` defaults to {@link PROVISION_MONTHS_DEFAULT}.
 */
export const provisionShortcodeBodySchema = z.object({
  extensionUuid: z.string().trim().min(1, SHORTCODE_MESSAGES.selectExtension).max(64),
  userEmail: z.string().trim().toLowerCase().max(254).default(''),
  self: z.boolean().default(false),
  shortCode: text(40),
  leaseCount: leaseCount.default(PROVISION_MONTHS_DEFAULT),
});
export type ProvisionShortcodeBody = z.input<typeof provisionShortcodeBodySchema>;

/** POST /api/connectAppToShortCode/: `uuid` the purchase, `appId` one of the caller's apps. */
export const connectAppBodySchema = z.object({
  appId: z.string().trim().min(1, SHORTCODE_MESSAGES.selectApp).max(64),
  linkedAppEnv: z.enum(LINKED_APP_ENVS).default('test'),
  uuid: z.string().trim().min(1, SHORTCODE_MESSAGES.purchaseNotFound).max(64),
});
export type ConnectAppBody = z.input<typeof connectAppBodySchema>;

export const uuidParamsSchema = z.object({ uuid: z.string().max(64) });
