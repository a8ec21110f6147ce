import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRedis, testRedisUrl } from '../../../../tests/support/redis';
import { createMemorySessionStore, createRedisSessionStore, type SessionStore } from './session-store';

type State = { id: string; hop: number };

function runStoreContract(makeStore: () => SessionStore<State>) {
  const appId = `app-${randomBytes(4).toString('hex')}`;

  it('keeps a session, replaces it, and deletes it', async () => {
    const store = makeStore();
    await store.set(`${appId}:s1`, { id: 's1', hop: 1 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:s1`)).toEqual({ id: 's1', hop: 1 });
    await store.set(`${appId}:s1`, { id: 's1', hop: 2 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:s1`)).toEqual({ id: 's1', hop: 2 });
    await store.delete(`${appId}:s1`, appId);
    expect(await store.get(`${appId}:s1`)).toBeUndefined();
  });

  it('forgets a session after its inactivity timeout', async () => {
    const store = makeStore();
    await store.set(`${appId}:short`, { id: 'short', hop: 1 }, { appId, ttlSeconds: 1 });
    expect(await store.get(`${appId}:short`)).toBeDefined();
    await new Promise((r) => setTimeout(r, 1100));
    expect(await store.get(`${appId}:short`)).toBeUndefined();
    expect(await store.findActive(appId)).not.toContainEqual({ id: 'short', hop: 1 });
    const expired = await store.takeExpired();
    expect(expired).toContainEqual({ id: 'short', hop: 1 });
    expect(await store.takeExpired()).not.toContainEqual({ id: 'short', hop: 1 });
  });

  it('lists the active sessions of one app only', async () => {
    const store = makeStore();
    const other = `${appId}-other`;
    await store.set(`${appId}:a`, { id: 'a', hop: 1 }, { appId, ttlSeconds: 60 });
    await store.set(`${appId}:b`, { id: 'b', hop: 3 }, { appId, ttlSeconds: 60 });
    await store.set(`${other}:c`, { id: 'c', hop: 1 }, { appId: other, ttlSeconds: 60 });
    const active = await store.findActive(appId);
    expect(active.map((s) => s.id).sort()).toEqual(['a', 'b']);
    await store.delete(`${appId}:a`, appId);
    expect((await store.findActive(appId)).map((s) => s.id)).toEqual(['b']);
  });
}

describe('memory session store', () => {
  runStoreContract(() => createMemorySessionStore<State>());

  it('evicts the least recently used session past its capacity', async () => {
    const store = createMemorySessionStore<State>({ maxSessions: 2 });
    for (const id of ['1', '2', '3']) await store.set(id, { id, hop: 1 }, { appId: 'x', ttlSeconds: 60 });
    expect(await store.get('1')).toBeUndefined();
    expect(await store.get('3')).toEqual({ id: '3', hop: 1 });
  });
});

describeRedis('redis session store', () => {
  const redis = new Redis(testRedisUrl);
  afterAll(() => redis.disconnect());
  runStoreContract(() => createRedisSessionStore<State>(redis));

  it('lets a second process (another connection) continue the session', async () => {
    const other = new Redis(testRedisUrl);
    try {
      await createRedisSessionStore<State>(redis).set('handoff:1', { id: 'h', hop: 4 }, { appId: 'handoff', ttlSeconds: 60 });
      expect(await createRedisSessionStore<State>(other).get('handoff:1')).toEqual({ id: 'h', hop: 4 });
    } finally {
      other.disconnect();
    }
  });
});
