import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { newPasswordSchema } from '../shared/api/auth.schema';
import { WHATSAPP_CONNECTORS, type WhatsAppConnectorName } from '../shared/whatsapp';
import { campaignPricesSchema } from '../shared/campaign-prices';
import { DEFAULT_MAP_TILE_ATTRIBUTION, DEFAULT_MAP_TILE_URL, isTileUrl } from './core/map-tiles';

/**
 * The only reader of process.env (docs/architecture.md, How the code looks). Every setting is listed in the README's table; a bad value is
 * reported with all the others before the process exits.
 */
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * Which X-Forwarded-For entries to believe. `false` (none), a hop count (`true` is 1: the address our own
 * proxy appended, the right-most), or a list of proxy addresses and CIDR ranges. Never "every hop": the
 * left-most address is whatever the client wrote, so rate limits keyed on it could be dodged at will.
 */
const trustProxy = z.string().transform((value, ctx): false | number | string[] => {
  const v = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(v)) return false;
  if (['true', 'yes'].includes(v)) return 1;
  if (/^\d+$/.test(v) && Number(v) <= 10) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `false, true, a hop count (1-10) or proxy addresses/CIDR ranges separated by commas (not: ${bad.join(', ') || value})`,
    });
    return z.NEVER;
  }
  return entries;
});

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    MODE: z.enum(['all', 'console', 'runtime']).default('all'),
    DATA_DIR: z.string().min(1).default('./data'),
    // The embedded database's shared buffers (no DATABASE_URL), in MB: resident from start (docs/operations.md, Memory).
    PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4096).default(16),
    // A JavaScript worker without a job this long is stopped; the next script starts one (docs/operations.md, Memory).
    SCRIPT_WORKER_IDLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    DATABASE_URL: z.string().url().optional(),
    REDIS_URL: z.string().url().optional(),
    // Every Redis key and pub/sub channel starts with it, so installations sharing one Redis never meet. `df:` is
    // what the keys were before the setting existed: live sessions survive the upgrade (docs/operations.md).
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, '1-64 letters, digits or _ . : -, e.g. df: or shop-a:')
      .default('df:'),
    PUBLIC_URL: z.string().url().optional(),
    ADMIN_EMAIL: z.string().email().default('admin@localhost'),
    ADMIN_PASSWORD: newPasswordSchema('ADMIN_PASSWORD').optional(),
    SEED_DEMO: bool.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // auto: readable lines at a terminal (outside production), JSON lines when piped or in production.
    LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
    TRUST_PROXY: trustProxy.default(false),
    TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    // Sign-in limits, per minute (docs/operations.md): per account, per address, and for all sign-ins together.
    LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    LOGIN_ADDRESS_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    LOGIN_GLOBAL_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
    // Two-factor sign-in (docs/security.md): admins must enrol before their console works (false: optional for
    // them too); TOTP secrets are sealed with TWO_FACTOR_KEY, else with a key file created under DATA_DIR.
    TWO_FACTOR_REQUIRED_FOR_ADMINS: bool.default(true),
    TWO_FACTOR_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, '64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`')
      .optional(),
    // Signed-out visitors run featured templates in the emulator: hops per minute, per address.
    EMULATOR_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
    // App imports (POST /api/importApp), per minute: per account, and per address (docs/import-export.md).
    IMPORT_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    IMPORT_ADDRESS_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    TEST_HOP_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
    // Hop admission (docs/runtime.md): past this many hops started in one turn of the event loop, an account over
    // its share of them waits for a later turn; 0: every hop starts at once.
    HOP_ADMISSION_SLOTS: z.coerce.number().int().min(0).max(10_000).default(8),
    // Conversations a business starts (POST /api/bots/{botId}/conversations), per account a minute (docs/bots.md).
    CONVERSATION_START_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    // New sessions on gateway URLs (docs/security.md, "Gateway URLs"): per calling number per app, a minute's and
    // an hour's; and per source address per URL for traffic that presents no key.
    GATEWAY_CALLER_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    GATEWAY_CALLER_SESSIONS_PER_HOUR: z.coerce.number().int().min(1).default(60),
    GATEWAY_SOURCE_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(300),
    // Metrics in Prometheus' format (docs/operations.md, "Metrics"): /metrics on the main port for a scraper that
    // sends `Authorization: Bearer <METRICS_TOKEN>`, and/or on a port of its own (METRICS_PORT, on METRICS_HOST,
    // loopback by default) for an internal network. Neither set: no metrics are served.
    METRICS_TOKEN: z.string().min(16).optional(),
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    // On SIGTERM, how long the process answers "not ready" (GET /readyz 503) while still serving, so a load balancer
    // stops sending traffic before it closes.
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().min(3).default('Dialflow <no-reply@dialflow.local>'),
    WEB_DIST: z.string().default('./dist/web'),
    // Outbound calls from actions (restapi, dbaccess): private, loopback and link-local addresses are refused
    // unless allowed (self-hosting next to your own systems); host:port pairs listed here are always allowed.
    ALLOW_PRIVATE_NETWORK: bool.default(false),
    OUTBOUND_ALLOW_HOSTS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'host:port pairs separated by commas'))),
    // A PEM file of certificates trusted for outbound https (REST actions, files a bot sends by address) besides the
    // system's: an internal CA on a self-hosted install, the test suite's local https servers.
    OUTBOUND_CA_FILE: z.string().min(1).optional(),
    // The server that holds DATABASE_URL is never reachable from actions (any database on it can reach ours);
    // true lets database actions use other databases on it: only where every builder is trusted.
    ALLOW_PLATFORM_DATABASE_SERVER: bool.default(false),
    // SMS (sendsms) and payments (paymentprompt): a local default and one real provider each. Real providers need their keys (checked below).
    SMS_PROVIDER: z.enum(['outbox', 'africastalking']).default('outbox'),
    AT_USERNAME: z.string().min(1).optional(),
    AT_API_KEY: z.string().min(1).optional(),
    AT_SMS_URL: z.string().url().default('https://api.africastalking.com/version1/messaging'),
    SMS_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
    // The secret in the address the SMS provider calls back (delivery reports, incoming messages, bulk opt-outs):
    // /api/sms/callbacks/africastalking/<token>/... Unset: those addresses answer 404.
    SMS_CALLBACK_TOKEN: z.string().min(16).optional(),
    // Replies people write to SMS in the local outbox (the console's "Reply as the recipient"), per account a minute.
    SMS_OUTBOX_REPLIES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
    // Webhooks (docs/webhooks.md): how often due deliveries are looked for (0 turns the timer off), and the limit on one attempt.
    WEBHOOK_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    // "Send test event" presses per account per minute: each queues a delivery to a URL the builder chose.
    WEBHOOK_TEST_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    // How often shortcode purchases that ran out are marked and expiry reminders mailed; 0 turns the timer off.
    SHORTCODE_TIMER_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
    PAYMENT_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
    PAYSTACK_SECRET_KEY: z.string().min(1).optional(),
    PAYSTACK_BASE_URL: z.string().url().default('https://api.paystack.co'),
    PAYMENT_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'A three-letter currency code, e.g. GHS')
      .default('GHS'),
    // Plans and limits (docs/billing.md): `off` lifts every limit and asks no plan payment (self-hosted, benches).
    BILLING: z.enum(['on', 'off']).default('on'),
    // The currency plan and credit payments are charged in, and how many of it make one USD (prices are USD).
    BILLING_CURRENCY: z
      .string()
      .regex(/^[A-Z]{3}$/, 'A three-letter currency code, e.g. USD')
      .default('USD'),
    BILLING_USD_RATE: z.coerce.number().positive().max(1_000_000).default(1),
    // Units of other currencies per USD (`GHS=15.5,NGN=1600`): payments charged in them (shortcodes, in the
    // country's currency) are shown in USD in the payment history, at the rate when they were asked.
    USD_RATES: z
      .string()
      .default('')
      .refine(
        (v) => v.split(',').every((entry) => !entry.trim() || /^[A-Z]{3}=(?=.*[1-9])\d{1,7}(\.\d{1,6})?$/.test(entry.trim())),
        'Comma-separated CODE=units per USD, e.g. GHS=15.5,NGN=1600',
      )
      .transform(
        (v) =>
          Object.fromEntries(
            v
              .split(',')
              .map((entry) => entry.trim())
              .filter(Boolean)
              .map((entry) => [entry.slice(0, 3), Number(entry.slice(4))]),
          ) as Record<string, number>,
      ),
    // How often subscriptions are checked (reminders, lapses) and stale PENDING payments verified or expired; 0: off.
    BILLING_TIMER_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
    // WhatsApp bots (docs/bots.md): the local simulator by default; a linked device (Baileys) or the Cloud API for real numbers.
    // The connectors offered (`simulator,cloud`): each linked number uses the one it was added with. Unset: the one
    // WHATSAPP_CONNECTOR names (kept as a deprecated alias of a one-kind list for existing installations).
    WHATSAPP_CONNECTORS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(WHATSAPP_CONNECTORS, { message: 'Comma-separated simulator, baileys or cloud' })).min(1))
      .optional(),
    WHATSAPP_CONNECTOR: z.enum(WHATSAPP_CONNECTORS).default('simulator'),
    // Encrypts linked devices' credentials at rest: 32 bytes as 64 hex characters.
    WHATSAPP_CREDENTIALS_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, '64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`')
      .optional(),
    WHATSAPP_CLOUD_API_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
    WHATSAPP_CLOUD_ACCESS_TOKEN: z.string().min(1).optional(),
    WHATSAPP_CLOUD_APP_SECRET: z.string().min(1).optional(),
    WHATSAPP_CLOUD_VERIFY_TOKEN: z.string().min(1).optional(),
    // Embedded Signup (docs/whatsapp-connectors.md): the Meta app's id and the signup configuration's id; unset, the
    // console shows no "Continue with Facebook" button.
    WHATSAPP_CLOUD_APP_ID: z
      .string()
      .regex(/^\d{1,30}$/, 'The Meta app id: digits')
      .optional(),
    WHATSAPP_EMBEDDED_SIGNUP_CONFIG_ID: z
      .string()
      .regex(/^\d{1,30}$/, 'The Embedded Signup configuration id: digits')
      .optional(),
    // The WhatsApp Business Account of the numbers linked with the installation's token, for their message templates
    // (docs/whatsapp-templates.md); a number linked with its own token uses its own.
    WHATSAPP_CLOUD_WABA_ID: z
      .string()
      .regex(/^\d{5,30}$/, 'digits: the WhatsApp Business Account ID')
      .optional(),
    SANDBOX_PAYMENT_SECRET: z
      .string()
      .min(16)
      .default(() => randomBytes(32).toString('hex')),
    // Signs known-device cookies and sign-in challenges (docs/operations.md, "Sign-in limits"). Unset: a key file
    // under DATA_DIR, shared by the processes of one host and kept across restarts.
    SIGN_IN_SECRET: z.string().min(16).optional(),
    // Media files (docs/media.md): where their bytes go (the database, or an S3-compatible bucket), how long links to
    // them live, how long they are kept, and the largest image in pixels any file may decode to.
    MEDIA_STORE: z.enum(['database', 's3']).default('database'),
    MEDIA_S3_ENDPOINT: z.string().url().optional(),
    MEDIA_S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name: 3-63 lower-case letters, digits, dots or hyphens')
      .optional(),
    MEDIA_S3_REGION: z.string().min(1).default('us-east-1'),
    MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    // Signs media links. Unset: a key file under DATA_DIR, shared by the processes of one host (like SIGN_IN_SECRET).
    MEDIA_URL_SECRET: z.string().min(16).optional(),
    MEDIA_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .max(7 * 86_400)
      .default(900),
    // Days a file's bytes are kept (0: for ever); the retention sweep runs this often (0 turns its timer off).
    MEDIA_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(90),
    MEDIA_RETENTION_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
    // The most one run of an app's test cases may take (docs/testing-apps.md); the cases after it are reported as not run.
    TEST_RUN_MAX_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
    // Days log lines, inputs, action results and session records are kept (0: for ever; at most 10 years), and how
    // often expired ones are deleted (0 turns this process's timer off). docs/operations.md, "Data lifetime".
    DATA_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
    DATA_RETENTION_INTERVAL_MS: z.coerce.number().int().min(0).default(600_000),
    // How long a subscriber's erasure waits after its first pass before a second one takes the rows other processes
    // still held in their event buffers (docs/security.md, "Subscriber data").
    SUBSCRIBER_ERASURE_SETTLE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    MEDIA_MAX_PIXELS: z.coerce.number().int().min(1).default(40_000_000),
    // Uploads (POST /api/media; docs/media.md, "Limits on uploads"): per minute per account and per address, at once
    // per account, and the bytes of all uploads this process holds at once (256 MB; below 100 MB the largest
    // documents can never be received).
    // The map of the console's location form (docs/operations.md, "Map tiles"): a tile address with {z}, {x} and {y}
    // ({s} for a subdomain), and the credit its provider asks for (HTML, as Leaflet shows it). `off` (an empty
    // setting is an unset one): no map, the typed form alone. The console's CSP allows images from this host only.
    MAP_TILE_URL: z
      .string()
      .trim()
      .default(DEFAULT_MAP_TILE_URL)
      .transform((v) => (v === 'off' ? '' : v))
      .refine(
        (v) => v === '' || isTileUrl(v),
        'an http(s) tile address with {z}, {x} and {y}, e.g. https://tile.example.com/{z}/{x}/{y}.png',
      ),
    MAP_TILE_ATTRIBUTION: z.string().trim().max(1000).default(DEFAULT_MAP_TILE_ATTRIBUTION),
    MEDIA_UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    MEDIA_UPLOAD_ADDRESS_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
    MEDIA_UPLOADS_PER_ACCOUNT: z.coerce.number().int().min(1).default(2),
    // An upload whose body sends nothing for this long is cut off and its place freed (a stalled or trickling client).
    MEDIA_UPLOAD_IDLE_MS: z.coerce.number().int().min(100).default(30_000),
    MEDIA_UPLOAD_BUFFER_BYTES: z.coerce
      .number()
      .int()
      .min(1024 * 1024)
      .default(256 * 1024 * 1024),
    /**
     * Agents one account may have (docs/inbox.md, "Agents"): each is a user and an invitation mail, so a free account
     * cannot mint users or mail strangers without end.
     */
    INBOX_AGENTS_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(50),
    /** Saved replies one account may keep (docs/inbox.md, "Saved replies"): rows a free account could otherwise pile up. */
    INBOX_SAVED_REPLIES_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(200),
    /**
     * Open conversations one app may have (docs/inbox.md, "Limits"): a gateway URL's caller or a flood of numbers
     * cannot fill the inbox and the database without end. Past it a new handoff is refused as when the inbox cannot
     * take it; a contact's own open conversation still takes more.
     */
    INBOX_OPEN_PER_APP: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    // The inbox's live streams (docs/inbox.md, "Live"): open at once per account and in this process, and how
    // often an idle one gets a heartbeat (proxies close a silent connection).
    INBOX_STREAMS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
    INBOX_STREAMS_MAX: z.coerce.number().int().min(1).max(100_000).default(2000),
    INBOX_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(300_000).default(25_000),
    // Campaigns (docs/campaigns.md). Saved audiences per account, campaigns scheduled, sending or paused at once per
    // account, and contacts one campaign may send to: what one account, or many free ones, can make the platform hold.
    AUDIENCES_PER_ACCOUNT: z.coerce.number().int().min(1).max(10_000).default(100),
    CAMPAIGNS_ACTIVE_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(5),
    CAMPAIGNS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(1000),
    CAMPAIGN_AUDIENCE_MAX: z.coerce.number().int().min(1).max(10_000_000).default(1_000_000),
    /** How often a process claims campaign messages; 0 turns its sender off (tests run it themselves). */
    CAMPAIGN_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    /**
     * The pace of a campaign's sends, shared by every process: a WhatsApp Cloud API number's messages a second (Meta's
     * default throughput is 80) and the simulator's; a linked device's a minute (a personal number that sends fast is
     * banned); a WhatsApp number's business-initiated messages a day (its messaging limit tier: 250, 1,000, 10,000,
     * 100,000); the SMS provider's messages a second.
     */
    CAMPAIGN_WHATSAPP_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(80),
    CAMPAIGN_LINKED_DEVICE_PER_MINUTE: z.coerce.number().int().min(1).max(600).default(20),
    CAMPAIGN_WHATSAPP_DAILY_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(1000),
    CAMPAIGN_SMS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(20),
    /**
     * The line every campaign SMS ends with, telling the person how to stop them (most regulators ask for one on
     * promotional SMS). Empty: none, e.g. where the provider appends its own (Africa's Talking does for bulk sender ids).
     */
    CAMPAIGN_SMS_OPT_OUT: z.string().trim().max(60).default('Reply STOP to opt out'),
    /** How long after a message a reply, a dial or a completed flow counts for the campaign. */
    CAMPAIGN_ATTRIBUTION_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(72),
    /**
     * The prices a campaign's cost is estimated and counted with, as JSON (src/shared/campaign-prices.ts): a currency,
     * and per channel a price by calling code or `*`. Empty: no cost is shown.
     */
    CAMPAIGN_PRICES: z
      .string()
      .default('')
      .transform((text, ctx) => {
        if (text.trim() === '') return null;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'CAMPAIGN_PRICES is not JSON' });
          return z.NEVER;
        }
      })
      .pipe(campaignPricesSchema.nullable()),
  })
  .refine(...requiredWith('AT_USERNAME', 'SMS_PROVIDER', 'africastalking'))
  .refine(...requiredWith('AT_API_KEY', 'SMS_PROVIDER', 'africastalking'))
  .refine(...requiredWith('PAYSTACK_SECRET_KEY', 'PAYMENT_PROVIDER', 'paystack'))
  .refine(...requiredWith('MEDIA_S3_ENDPOINT', 'MEDIA_STORE', 's3'))
  .refine(...requiredWith('MEDIA_S3_BUCKET', 'MEDIA_STORE', 's3'))
  .refine(...requiredWith('MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_STORE', 's3'))
  .refine(...requiredWith('MEDIA_S3_SECRET_ACCESS_KEY', 'MEDIA_STORE', 's3'))
  .refine(...requiredWithConnector('WHATSAPP_CREDENTIALS_KEY', 'baileys'))
  .refine(...requiredWithConnector('WHATSAPP_CLOUD_ACCESS_TOKEN', 'cloud'))
  .refine(...requiredWithConnector('WHATSAPP_CLOUD_APP_SECRET', 'cloud'))
  .refine(...requiredWithConnector('WHATSAPP_CLOUD_VERIFY_TOKEN', 'cloud'))
  .refine((c) => c.BILLING_CURRENCY !== 'USD' || c.BILLING_USD_RATE === 1, {
    path: ['BILLING_USD_RATE'],
    message: 'must be 1 when BILLING_CURRENCY=USD',
    when: () => true,
  });

/** A real provider chosen without its key fails at boot, listed with every other bad key (`when` runs it anyway). */
function requiredWith(
  key: string,
  selector: string,
  value: string,
): [(c: Record<string, unknown>) => boolean, { path: string[]; message: string; when: () => boolean }] {
  return [(c) => c[selector] !== value || !!c[key], { path: [key], message: `required when ${selector}=${value}`, when: () => true }];
}

/** The WhatsApp connectors this installation offers: WHATSAPP_CONNECTORS, else the one WHATSAPP_CONNECTOR names. */
export function getOfferedConnectors(config: {
  WHATSAPP_CONNECTORS?: WhatsAppConnectorName[] | undefined;
  WHATSAPP_CONNECTOR: WhatsAppConnectorName;
}): WhatsAppConnectorName[] {
  return [...new Set(config.WHATSAPP_CONNECTORS ?? [config.WHATSAPP_CONNECTOR])];
}

/** What an offered WhatsApp connector needs, named with the setting that offers it. */
function requiredWithConnector(
  key: string,
  name: WhatsAppConnectorName,
): [(c: Record<string, unknown>) => boolean, { path: string[]; message: string; when: () => boolean }] {
  const offers = (c: Record<string, unknown>) => getOfferedConnectors(c as Parameters<typeof getOfferedConnectors>[0]).includes(name);
  return [
    (c) => !offers(c) || !!c[key],
    { path: [key], message: `required when WHATSAPP_CONNECTORS offers ${name} (or WHATSAPP_CONNECTOR=${name})`, when: () => true },
  ];
}

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses the environment once. Throws a ConfigError listing every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/**
 * Where mailed links (password reset) and payment callbacks point: PUBLIC_URL, else this server's own port.
 * Fixed at boot and never taken from a request's Host header, which the sender controls.
 */
export function getPublicOrigin(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

/** TRUST_PROXY as Fastify reads it; a hop count becomes a function because Fastify ignores plain numbers. */
export function getTrustProxy(config: Config): false | string[] | ((address: string, hop: number) => boolean) {
  const trust = config.TRUST_PROXY;
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

/** A config for tests and tools: defaults plus overrides, never the process environment. */
export function createConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), ...overrides };
}
