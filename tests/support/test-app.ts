import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { createConfig, type Config } from '../../src/server/config';
import { createUser, type CreateUserInput } from '../../src/server/features/auth/auth.service';
import type { Db } from '../../src/db/client';
import { createTestDatabase } from './test-db';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** Moves the injected clock, e.g. past a reset token's expiry. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** A whole server on its own database, driven with app.inject() (it never listens). */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  let offset = 0;
  const app = await buildApp(createConfig({ NODE_ENV: 'test', ...overrides }), {
    database: testDb.database,
    logger: false,
    now: () => new Date(Date.now() + offset),
  });
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

let counter = 0;
/** Creates a user with a unique email (tests run in parallel) and signs in; returns the bearer token. */
export async function seedUser(t: TestApp, input: Partial<CreateUserInput> = {}) {
  const email = input.email ?? `user${Date.now()}${counter++}@test.dialflow`;
  const password = input.password ?? 'secret-123';
  const user = await createUser(t.db, { fullName: 'Test User', mobileNumber: '233200000000', ...input, email, password });
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const token = res.json().token as string;
  if (!token) throw new Error(`seedUser: login failed: ${res.body}`);
  return { user, email, password, token, auth: { authorization: `Bearer ${token}` } };
}
