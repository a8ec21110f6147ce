import type { Redis } from 'ioredis';

/**
 * Where live USSD sessions are kept between hops: in this process (an LRU) by default, or in Redis when
 * REDIS_URL is set, so any process behind the load balancer can serve a session's next hop. Values are
 * plain JSON. A session is live until `ttlSeconds` pass without a hop; after that `get` no longer returns
 * it, and `takeExpired` hands it over once so the runtime can record it as abandoned.
 */
export interface SessionStore<T> {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<T | undefined>;
  /** Saves the state and (re)starts its inactivity timer. */
  set(key: string, value: T, options: { appId: string; ttlSeconds: number }): Promise<void>;
  delete(key: string, appId: string): Promise<void>;
  findActive(appId: string, limit?: number): Promise<T[]>;
  /** Removes and returns sessions whose inactivity timer ran out (each one once, across processes). */
  takeExpired(limit?: number): Promise<T[]>;
}

/** How long an expired session is kept for `takeExpired` before it is dropped without a record. */
const GRACE_SECONDS = 900;

interface Entry<T> {
  value: T;
  appId: string;
  expiresAt: number;
}

/**
 * A Map kept in least-recently-saved order (a save moves the session to the end), bounded by `maxSessions`:
 * past it the least recently saved session is dropped. (lru-cache was used before; it clears all its
 * preallocated arrays whenever its last entry is deleted, which cost about a millisecond each time a quiet
 * app's last session ended.)
 */
export function createMemorySessionStore<T extends object>(options: { maxSessions?: number; now?: () => number } = {}): SessionStore<T> {
  const now = options.now ?? Date.now;
  const maxSessions = options.maxSessions ?? 200_000;
  const sessions = new Map<string, Entry<T>>();
  const byApp = new Map<string, Set<string>>();
  const live = (entry: Entry<T> | undefined) => (entry && entry.expiresAt > now() ? entry : undefined);
  function remove(key: string, appId: string): void {
    sessions.delete(key);
    const keys = byApp.get(appId);
    if (keys?.delete(key) && keys.size === 0) byApp.delete(appId);
  }
  return {
    kind: 'memory',
    async get(key) {
      return live(sessions.get(key))?.value;
    },
    async set(key, value, { appId, ttlSeconds }) {
      sessions.delete(key);
      sessions.set(key, { value, appId, expiresAt: now() + ttlSeconds * 1000 });
      let keys = byApp.get(appId);
      if (!keys) byApp.set(appId, (keys = new Set()));
      keys.add(key);
      if (sessions.size > maxSessions) {
        const [oldestKey, oldest] = sessions.entries().next().value as [string, Entry<T>];
        remove(oldestKey, oldest.appId);
      }
    },
    async delete(key, appId) {
      remove(key, appId);
    },
    async findActive(appId, limit = 500) {
      const found: T[] = [];
      for (const key of byApp.get(appId) ?? []) {
        const entry = live(sessions.get(key));
        if (entry && found.length < limit) found.push(entry.value);
      }
      return found;
    },
    async takeExpired(limit = 1000) {
      const expired: T[] = [];
      const time = now();
      for (const [key, entry] of sessions) {
        if (expired.length >= limit) break;
        if (entry.expiresAt > time) continue;
        remove(key, entry.appId);
        // Past the grace period nobody is waiting for the record: dropped as before.
        if (entry.expiresAt + GRACE_SECONDS * 1000 > time) expired.push(entry.value);
      }
      return expired;
    },
  };
}

const sessionKey = (key: string) => `df:session:${key}`;
const activeKey = (appId: string) => `df:active:${appId}`;
/** Every live session of every app, scored by expiry: the sweeper's index. */
const EXPIRY_INDEX = 'df:expiry';

export function createRedisSessionStore<T extends object>(redis: Redis): SessionStore<T> {
  return {
    kind: 'redis',
    // One GET a hop: the expiry travels inside the value (the sorted sets are for listing and sweeping).
    async get(key) {
      const raw = await redis.get(sessionKey(key));
      if (!raw) return undefined;
      const stored = JSON.parse(raw) as { value: T; expiresAt?: number };
      return stored.expiresAt !== undefined && stored.expiresAt > Date.now() ? stored.value : undefined;
    },
    async set(key, value, { appId, ttlSeconds }) {
      const expiresAt = Date.now() + ttlSeconds * 1000;
      await redis
        .multi()
        .set(sessionKey(key), JSON.stringify({ value, appId, expiresAt }), 'EX', ttlSeconds + GRACE_SECONDS)
        .zadd(activeKey(appId), expiresAt, key)
        .zadd(EXPIRY_INDEX, expiresAt, key)
        .exec();
    },
    async delete(key, appId) {
      await redis.multi().del(sessionKey(key)).zrem(activeKey(appId), key).zrem(EXPIRY_INDEX, key).exec();
    },
    async findActive(appId, limit = 500) {
      const keys = await redis.zrangebyscore(activeKey(appId), Date.now(), '+inf', 'LIMIT', 0, limit);
      if (keys.length === 0) return [];
      const values = await redis.mget(keys.map(sessionKey));
      return values.filter((v): v is string => v !== null).map((v) => (JSON.parse(v) as { value: T }).value);
    },
    async takeExpired(limit = 1000) {
      const keys = await redis.zrangebyscore(EXPIRY_INDEX, '-inf', Date.now(), 'LIMIT', 0, limit);
      const taken: T[] = [];
      for (const key of keys) {
        // ZREM answers 1 for exactly one process: that one records the session.
        if ((await redis.zrem(EXPIRY_INDEX, key)) !== 1) continue;
        const raw = await redis.get(sessionKey(key));
        await redis.del(sessionKey(key));
        if (!raw) continue;
        const { value, appId } = JSON.parse(raw) as { value: T; appId: string };
        await redis.zrem(activeKey(appId), key);
        taken.push(value);
      }
      return taken;
    },
  };
}
