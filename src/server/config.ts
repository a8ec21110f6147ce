import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * The only reader of process.env (STYLE.md). Every setting is listed in the README's table; a bad value is
 * reported with all the others before the process exits.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  MODE: z.enum(['all', 'console', 'runtime']).default('all'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  ADMIN_EMAIL: z.string().email().default('admin@localhost'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default('Dialflow <no-reply@dialflow.local>'),
  WEB_DIST: z.string().default('./dist/web'),
  // Outbound calls from actions (restapi, dbaccess): private, loopback and link-local addresses are refused
  // unless allowed (self-hosting next to your own systems); host:port pairs listed here are always allowed.
  ALLOW_PRIVATE_NETWORK: bool.default(false),
  OUTBOUND_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'host:port pairs separated by commas'))),
  // SMS (sendsms) and payments (paymentprompt): DESIGN.md section 6. Real providers need their keys (checked below).
  SMS_PROVIDER: z.enum(['outbox', 'africastalking']).default('outbox'),
  AT_USERNAME: z.string().min(1).optional(),
  AT_API_KEY: z.string().min(1).optional(),
  AT_SMS_URL: z.string().url().default('https://api.africastalking.com/version1/messaging'),
  SMS_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'paystack']).default('sandbox'),
  PAYSTACK_SECRET_KEY: z.string().min(1).optional(),
  PAYSTACK_BASE_URL: z.string().url().default('https://api.paystack.co'),
  PAYMENT_CURRENCY: z.string().regex(/^[A-Z]{3}$/, 'A three-letter currency code, e.g. GHS').default('GHS'),
  SANDBOX_PAYMENT_SECRET: z.string().min(16).default(() => randomBytes(32).toString('hex')),
})
  .refine(...requiredWith('AT_USERNAME', 'SMS_PROVIDER', 'africastalking'))
  .refine(...requiredWith('AT_API_KEY', 'SMS_PROVIDER', 'africastalking'))
  .refine(...requiredWith('PAYSTACK_SECRET_KEY', 'PAYMENT_PROVIDER', 'paystack'));

/** A real provider chosen without its key fails at boot, listed with every other bad key (`when` runs it anyway). */
function requiredWith(key: string, selector: string, value: string): [(c: Record<string, unknown>) => boolean, { path: string[]; message: string; when: () => boolean }] {
  return [(c) => c[selector] !== value || !!c[key], { path: [key], message: `required when ${selector}=${value}`, when: () => true }];
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

/** A config for tests and tools: defaults plus overrides, never the process environment. */
export function createConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), ...overrides };
}
