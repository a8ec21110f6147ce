import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createRedisSessionStore } from './session-store';
import { runSessionStoreContract, type State } from './session-store.contract';

describeRedis('redis session store', () => {
  const redis = new Redis(testRedisUrl);
  afterAll(() => redis.disconnect());
  // A prefix of its own: the shared Redis also holds other runs' sessions, which a sweep would take first.
  const prefix = `df-test-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  });
  runSessionStoreContract((now) => createRedisSessionStore<State>(redis, { now, prefix }));

  it('lets a second process (another connection) continue the session', async () => {
    const other = new Redis(testRedisUrl);
    try {
      // Under the test's own prefix: a state of this shape in the shared default prefix would trip another run's sweep.
      await createRedisSessionStore<State>(redis, { prefix }).set('handoff:1', { id: 'h', hop: 4 }, { appId: 'handoff', ttlSeconds: 60 });
      expect(await createRedisSessionStore<State>(other, { prefix }).get('handoff:1')).toEqual({ id: 'h', hop: 4 });
    } finally {
      other.disconnect();
    }
  });
});
