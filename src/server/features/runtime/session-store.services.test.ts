import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createRedisSessionStore } from './session-store';
import { runSessionStoreContract, type State } from './session-store.contract';

describeRedis('redis session store', () => {
  // A prefix of its own: the shared Redis also holds other runs' sessions, which a sweep would take first.
  const keyPrefix = `df-test-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(testRedisUrl, { keyPrefix });
  afterAll(async () => {
    // KEYS takes a pattern, which ioredis leaves alone, and answers whole names: DEL through an unprefixed client.
    const plain = new Redis(testRedisUrl);
    const keys = await plain.keys(`${keyPrefix}*`);
    if (keys.length > 0) await plain.del(...keys);
    plain.disconnect();
    redis.disconnect();
  });
  runSessionStoreContract((now) => createRedisSessionStore<State>(redis, { now }));

  it('lets a second process (another connection) continue the session', async () => {
    const other = new Redis(testRedisUrl, { keyPrefix });
    try {
      // Under the test's own prefix: a state of this shape in the shared default prefix would trip another run's sweep.
      await createRedisSessionStore<State>(redis).set('handoff:1', { id: 'h', hop: 4 }, { appId: 'handoff', ttlSeconds: 60 });
      expect(await createRedisSessionStore<State>(other).get('handoff:1')).toEqual({ id: 'h', hop: 4 });
      // Nothing ends with the process that stops: the other goes on with the session.
      expect(await createRedisSessionStore<State>(redis).findLostOnExit()).toEqual([]);
      expect(await createRedisSessionStore<State>(other).get('handoff:1')).toEqual({ id: 'h', hop: 4 });
    } finally {
      other.disconnect();
    }
  });
});
