import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { SessionStore } from './session-store';

export type State = { id: string; hop: number };

/**
 * What every session store does, for the memory store's unit tests and the Redis store's services tests: each
 * test makes its store with a clock it moves itself (starting at the real time, as Redis is shared).
 */
export function runSessionStoreContract(makeStore: (now: () => number) => SessionStore<State>) {
  const appId = `app-${randomBytes(4).toString('hex')}`;
  let time = 0;
  const startStore = () => {
    time = Date.now();
    return makeStore(() => time);
  };

  it('keeps a session, replaces it, and deletes it', async () => {
    const store = startStore();
    await store.set(`${appId}:s1`, { id: 's1', hop: 1 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:s1`)).toEqual({ id: 's1', hop: 1 });
    await store.set(`${appId}:s1`, { id: 's1', hop: 2 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:s1`)).toEqual({ id: 's1', hop: 2 });
    await store.delete(`${appId}:s1`, appId);
    expect(await store.get(`${appId}:s1`)).toBeUndefined();
  });

  it('forgets a session after its inactivity timeout', async () => {
    const store = startStore();
    await store.set(`${appId}:short`, { id: 'short', hop: 1 }, { appId, ttlSeconds: 1 });
    expect(await store.get(`${appId}:short`)).toBeDefined();
    time += 1_000;
    expect(await store.get(`${appId}:short`)).toBeUndefined();
    expect(await store.findActive(appId)).not.toContainEqual({ id: 'short', hop: 1 });
    const expired = await store.takeExpired();
    expect(expired).toContainEqual({ id: 'short', hop: 1 });
    expect(await store.takeExpired()).not.toContainEqual({ id: 'short', hop: 1 });
  });

  it('lists the active sessions of one app only', async () => {
    const store = startStore();
    const other = `${appId}-other`;
    await store.set(`${appId}:a`, { id: 'a', hop: 1 }, { appId, ttlSeconds: 60 });
    await store.set(`${appId}:b`, { id: 'b', hop: 3 }, { appId, ttlSeconds: 60 });
    await store.set(`${other}:c`, { id: 'c', hop: 1 }, { appId: other, ttlSeconds: 60 });
    const active = await store.findActive(appId);
    expect(active.map((s) => s.id).sort()).toEqual(['a', 'b']);
    await store.delete(`${appId}:a`, appId);
    expect((await store.findActive(appId)).map((s) => s.id)).toEqual(['b']);
  });

  it('keeps an ended session for get only, not listed; a save or delete replaces it', async () => {
    const store = startStore();
    await store.set(`${appId}:k`, { id: 'k', hop: 2 }, { appId, ttlSeconds: 60 });
    await store.keep(`${appId}:k`, { id: 'k', hop: 3 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:k`)).toEqual({ id: 'k', hop: 3 });
    expect((await store.findActive(appId)).map((s) => s.id)).not.toContain('k');
    await store.set(`${appId}:k`, { id: 'k', hop: 1 }, { appId, ttlSeconds: 60 });
    expect(await store.get(`${appId}:k`)).toEqual({ id: 'k', hop: 1 });
    await store.keep(`${appId}:k`, { id: 'k', hop: 2 }, { appId, ttlSeconds: 60 });
    await store.delete(`${appId}:k`, appId);
    expect(await store.get(`${appId}:k`)).toBeUndefined();
  });

  it("keeps a dialler's resumable state for its window, hands it over once, and never lists or sweeps it", async () => {
    const store = startStore();
    const dialler = `${appId}:test:233200000001`;
    await store.saveResumable(dialler, { id: 'r', hop: 1 }, 60);
    await store.saveResumable(dialler, { id: 'r', hop: 2 }, 60);
    expect(await store.findActive(appId)).not.toContainEqual({ id: 'r', hop: 2 });
    expect(await store.get(dialler)).toBeUndefined();
    expect(await store.takeResumable(dialler)).toEqual({ id: 'r', hop: 2 });
    expect(await store.takeResumable(dialler)).toBeUndefined();

    await store.saveResumable(dialler, { id: 'r', hop: 3 }, 60);
    time += 60_000;
    expect(await store.takeExpired()).not.toContainEqual({ id: 'r', hop: 3 });
    expect(await store.takeResumable(dialler)).toBeUndefined();

    await store.saveResumable(dialler, { id: 'r', hop: 4 }, 60);
    await store.deleteResumable(dialler);
    expect(await store.takeResumable(dialler)).toBeUndefined();
  });
}
