import { describe, expect, it } from 'vitest';
import { createMemorySessionStore } from './session-store';
import { runSessionStoreContract, type State } from './session-store.contract';

// The same contract against Redis: session-store.services.test.ts.

describe('memory session store', () => {
  runSessionStoreContract((now) => createMemorySessionStore<State>({ now }));

  it('evicts the least recently used session past its capacity', async () => {
    const store = createMemorySessionStore<State>({ maxSessions: 2 });
    for (const id of ['1', '2', '3']) await store.set(id, { id, hop: 1 }, { appId: 'x', ttlSeconds: 60 });
    expect(await store.get('1')).toBeUndefined();
    expect(await store.get('3')).toEqual({ id: '3', hop: 1 });
  });

  it('holds kept sessions apart: they never push out a live one, are bounded, and expire', async () => {
    let time = 0;
    const store = createMemorySessionStore<State>({ maxSessions: 2, maxKept: 2, now: () => time });
    await store.set('live-1', { id: 'live-1', hop: 1 }, { appId: 'x', ttlSeconds: 600 });
    await store.set('live-2', { id: 'live-2', hop: 1 }, { appId: 'x', ttlSeconds: 600 });
    for (const id of ['k1', 'k2', 'k3']) await store.keep(id, { id, hop: 9 }, { appId: 'x', ttlSeconds: 60 });
    expect(await store.get('live-1')).toEqual({ id: 'live-1', hop: 1 });
    expect(await store.get('live-2')).toEqual({ id: 'live-2', hop: 1 });
    expect(await store.get('k1')).toBeUndefined();
    expect(await store.get('k3')).toEqual({ id: 'k3', hop: 9 });
    time += 60_000;
    expect(await store.get('k3')).toBeUndefined();
    expect(await store.get('live-1')).toEqual({ id: 'live-1', hop: 1 });
    // Expired kept sessions are never handed over for an abandoned record.
    await store.keep('k4', { id: 'k4', hop: 9 }, { appId: 'x', ttlSeconds: 60 });
    time += 60_000;
    expect(await store.takeExpired()).toEqual([]);
  });

  it('hands every session it holds, expired or not, to a process that stops, and none it deleted or kept ended', async () => {
    let time = 0;
    const store = createMemorySessionStore<State>({ now: () => time });
    await store.set('short', { id: 'short', hop: 1 }, { appId: 'x', ttlSeconds: 1 });
    await store.set('long', { id: 'long', hop: 2 }, { appId: 'y', ttlSeconds: 600 });
    await store.set('gone', { id: 'gone', hop: 1 }, { appId: 'x', ttlSeconds: 600 });
    await store.delete('gone', 'x');
    await store.keep('ended', { id: 'ended', hop: 3 }, { appId: 'x', ttlSeconds: 60 });
    time += 5_000;
    expect(await store.findLostOnExit()).toEqual([
      { id: 'short', hop: 1 },
      { id: 'long', hop: 2 },
    ]);
  });
});
