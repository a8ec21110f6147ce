import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRedis, testRedisUrl } from '../../tests/support/redis';
import { seedApp, seedShop } from '../../tests/support/seed-app';
import { createTestApp, seedUser, type TestApp } from '../../tests/support/test-app';
import { buildApp } from './app';
import { createConfig } from './config';

/**
 * Two installations on one Redis, told apart by REDIS_KEY_PREFIX only. They share a database here so that one
 * app can be dialled on both; in real life each has its own, and nothing either writes to Redis reaches the other.
 */
describeRedis('installations sharing one Redis (REDIS_KEY_PREFIX)', () => {
  const prefixA = `df-a-${randomBytes(4).toString('hex')}:`;
  const prefixB = `df-b-${randomBytes(4).toString('hex')}:`;
  let t: TestApp;
  let a: FastifyInstance;
  let b: FastifyInstance;
  /** A second process of installation B. */
  let b2: FastifyInstance;
  const plain = new Redis(testRedisUrl);

  const build = (prefix: string) =>
    buildApp(
      createConfig({
        NODE_ENV: 'test',
        REDIS_URL: testRedisUrl,
        REDIS_KEY_PREFIX: prefix,
        LOGIN_RATE_LIMIT: 3,
        LOGIN_ADDRESS_RATE_LIMIT: 10_000,
        LOGIN_GLOBAL_RATE_LIMIT: 10_000,
        BILLING_TIMER_INTERVAL_MS: 0,
        WEBHOOK_DISPATCH_INTERVAL_MS: 0,
        SHORTCODE_TIMER_INTERVAL_MS: 0,
      }),
      { database: t.app.ctx.database, logger: false },
    );

  beforeAll(async () => {
    t = await createTestApp();
    a = await build(prefixA);
    b = await build(prefixB);
    b2 = await build(prefixB);
  });
  afterAll(async () => {
    for (const prefix of [prefixA, prefixB]) {
      const keys = await plain.keys(`${prefix}*`);
      if (keys.length > 0) await plain.del(...keys);
    }
    plain.disconnect();
    await Promise.all([a, b, b2].map((app) => app.close()));
    await t.close();
  });

  it("counts sign-in failures per installation: one's guesses never lock the other's account", async () => {
    const email = `twin-${randomUUID()}@example.com`;
    const login = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'guess' } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(a)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await login(b)).statusCode).toBe(401);
    // The counters live under each installation's prefix, none under the library's default name.
    expect(await plain.keys(`${prefixA}rate-limit:*`)).not.toEqual([]);
  });

  it("keeps live sessions apart: the same gateway session id is a new session on the other installation, and every key is under the installation's prefix", async () => {
    const owner = await seedUser(t);
    const appId = await seedShop(t, owner.auth);
    const sessionId = `twin-${randomUUID()}`;
    const hop = (app: FastifyInstance, text: string) =>
      app.inject({
        method: 'POST',
        url: `/ussd/${appId}/test`,
        payload: { sessionId, serviceCode: '*920*55#', phoneNumber: '233241112222', networkCode: '62001', text },
      });
    expect((await hop(a, '')).body).toMatch(/^CON Welcome/);
    expect((await hop(a, '1')).body).toBe('CON Enter amount');
    // The same id dialled on B starts B's own session; A's caller is still where they were.
    expect((await hop(b, '')).body).toMatch(/^CON Welcome/);
    expect((await hop(a, '1*20')).body).toBe('END You chose Airtime for GHS 20');
    expect((await hop(b, '1')).body).toBe('CON Enter amount');
    const keys = await plain.keys(`*${sessionId}*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.every((key) => key.startsWith(prefixA) || key.startsWith(prefixB))).toBe(true);
  });

  it("does not hear the other installation's invalidations", async () => {
    // Never deployed: the cache keeps "no live version", a new object each time it loads one.
    const owner = await seedUser(t);
    const x = await seedApp(t, owner.auth);
    const y = await seedApp(t, owner.auth);
    const cachedX = await b.ctx.versions.getLive(x);
    const cachedY = await b.ctx.versions.getLive(y);
    expect(await b.ctx.versions.getLive(x)).toBe(cachedX);

    // A drops x (a deploy does this); a witness on every invalidation channel sees Redis deliver it.
    const witness = new Redis(testRedisUrl);
    try {
      const delivered = new Promise<void>((resolve) => {
        witness.on('pmessage', (_pattern, _channel, message) => {
          if (message === x) resolve();
        });
      });
      await witness.psubscribe('*invalidate');
      a.ctx.versions.invalidate(x);
      await delivered;
    } finally {
      witness.disconnect();
    }

    // Then B's other process drops y: B's subscriber gets its messages in order, so once y is gone here,
    // x's message would have arrived before it, had B been listening to A.
    b2.ctx.versions.invalidate(y);
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await b.ctx.versions.getLive(y)) === cachedY) await new Promise((r) => setImmediate(r));
    expect(await b.ctx.versions.getLive(y)).not.toBe(cachedY);
    expect(await b.ctx.versions.getLive(x)).toBe(cachedX);
  });
});
