import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp, type BuildOptions } from '../../src/server/app';
import { createConfig, type Config } from '../../src/server/config';
import { createUser, type CreateUserInput } from '../../src/server/core/accounts';
import type { Db } from '../../src/db/client';
import { subscriptions } from '../../src/db/schema';
import type { PlanName } from '../../src/shared/billing/plans';
import { createTestDatabase, type TestDatabase } from './test-db';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Moves the injected clock, e.g. past a reset token's expiry. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/**
 * Every request of a test comes from one address (app.inject) and signs in often (seedUser): the per-address
 * and global sign-in limits, and the per-address import and upload limits, are raised unless a test sets them. The
 * per-account limits keep their defaults.
 */
const TEST_SIGN_IN_LIMITS = {
  LOGIN_ADDRESS_RATE_LIMIT: 10_000,
  LOGIN_GLOBAL_RATE_LIMIT: 10_000,
  IMPORT_ADDRESS_RATE_LIMIT: 10_000,
  MEDIA_UPLOAD_ADDRESS_RATE_LIMIT: 10_000,
  SIGN_IN_SECRET: randomBytes(32).toString('hex'),
  // Media links are signed with a key of the run's, not a file in DATA_DIR.
  MEDIA_URL_SECRET: randomBytes(32).toString('hex'),
} satisfies Partial<Config>;
/** For the same reason, the limit of new gateway sessions per source address; the per-number limits keep their defaults. */
const TEST_GATEWAY_LIMITS = { GATEWAY_SOURCE_SESSIONS_PER_MINUTE: 100_000 } satisfies Partial<Config>;
/**
 * The billing timer expires payments left PENDING for an hour of the (moved) clock, and the webhook dispatcher
 * would send what a test queued before it looked: tests run them themselves (runOnce, deliverDue).
 */
/** Tests hop on test URLs as fast as they like; the per-account limit has its own test (runners.int.test.ts). */
const TEST_HOP_LIMIT = { TEST_HOP_RATE_LIMIT: 100_000 } satisfies Partial<Config>;

const TEST_TIMERS = {
  BILLING_TIMER_INTERVAL_MS: 0,
  WEBHOOK_DISPATCH_INTERVAL_MS: 0,
  CAMPAIGN_DISPATCH_INTERVAL_MS: 0,
  // An erasure's second pass comes at once: one process, no other process's buffer to wait for (a test sets a wait).
  SUBSCRIBER_ERASURE_SETTLE_MS: 0,
} satisfies Partial<Config>;

/**
 * Admins' forced two-factor enrolment would stop every admin test at its first call: it is off unless a test
 * turns it on (two-factor.int.test.ts does). Secrets are sealed with a key of the run's, not a file in DATA_DIR.
 */
const TEST_TWO_FACTOR = {
  TWO_FACTOR_REQUIRED_FOR_ADMINS: false,
  TWO_FACTOR_KEY: randomBytes(32).toString('hex'),
} satisfies Partial<Config>;

export type TestAppOptions = Pick<BuildOptions, 'mailer' | 'logger'> & {
  /** The test's own database rather than a copy of the migrated template (one left as an older release had it). */
  openDatabase?: () => Promise<TestDatabase>;
};

/** A whole server on its own database, driven with app.inject() (it never listens); silent unless `options.logger` says. */
export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { openDatabase = createTestDatabase, ...buildOptions } = options;
  const testDb = await openDatabase();
  let offset = 0;
  const app = await buildApp(
    createConfig({
      NODE_ENV: 'test',
      ...TEST_SIGN_IN_LIMITS,
      ...TEST_HOP_LIMIT,
      ...TEST_GATEWAY_LIMITS,
      ...TEST_TIMERS,
      ...TEST_TWO_FACTOR,
      ...overrides,
    }),
    {
      logger: false,
      ...buildOptions,
      database: testDb.database,
      now: () => new Date(Date.now() + offset),
    },
  );
  await app.ready();
  return {
    app,
    db: testDb.database.db,
    advanceClock: (ms) => {
      offset += ms;
    },
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}

/**
 * A test app for the enclosing describe: created before its first test, closed after its last. The object is
 * filled in by that beforeAll hook, so read its fields in hooks and tests, not while the describe is declared.
 */
export function useTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): TestApp {
  const t = {} as TestApp;
  let created: TestApp | undefined;
  beforeAll(async () => {
    created = await createTestApp(overrides, options);
    Object.assign(t, created);
  });
  afterAll(() => created?.close());
  return t;
}

export type SeededUser = Awaited<ReturnType<typeof seedUser>>;

/**
 * A user of `t` for the enclosing describe, seeded in a beforeAll hook declared after useTestApp's (hooks run in
 * the order they are declared), and filled in like it.
 */
export function useUser(t: TestApp, input: Partial<CreateUserInput> & { plan?: PlanName } = {}): SeededUser {
  const user = {} as SeededUser;
  beforeAll(async () => {
    Object.assign(user, await seedUser(t, input));
  });
  return user;
}

/** GET and POST to the API as `user`, or with the headers given (another user's, or none). */
export function createApiClient(t: TestApp, user: Pick<SeededUser, 'auth'>) {
  return {
    get: (url: string, headers: Record<string, string> = user.auth) => t.app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: object, headers: Record<string, string> = user.auth) =>
      t.app.inject({ method: 'POST', url, headers, payload }),
    delete: (url: string, headers: Record<string, string> = user.auth) => t.app.inject({ method: 'DELETE', url, headers }),
  };
}

let counter = 0;
/**
 * Creates a user with a unique email (tests run in parallel) and signs in; returns the bearer token. The account
 * is on ENTERPRISE for a century (no app, menu or session limit: tests create freely) unless `plan` says
 * otherwise; `TRIAL` leaves it without a subscription, as a newly registered account (billing tests).
 */
export async function seedUser(t: TestApp, input: Partial<CreateUserInput> & { plan?: PlanName } = {}) {
  const { plan = 'ENTERPRISE', ...fields } = input;
  const email = fields.email ?? `user${Date.now()}${counter++}@test.dialflow`;
  const password = fields.password ?? 'secret-123';
  const user = await createUser(t.db, { fullName: 'Test User', mobileNumber: '233200000000', ...fields, email, password });
  if (plan !== 'TRIAL') {
    const now = new Date();
    await t.db
      .insert(subscriptions)
      .values({ userId: user.id, plan, periodStart: now, periodEnd: new Date(now.getTime() + 100 * 365 * 86_400_000) });
  }
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const token = res.json().token as string;
  if (!token) throw new Error(`seedUser: login failed: ${res.body}`);
  return { user, email, password, token, auth: { authorization: `Bearer ${token}` } };
}
