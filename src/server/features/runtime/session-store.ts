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
  /**
   * Replaces a session that has ended with a value kept `ttlSeconds` for `get` only (a gateway may resend
   * the last hop): never listed by findActive, never handed over by takeExpired, and in memory held apart
   * from live sessions, so that it never pushes a live one out.
   */
  keep(key: string, value: T, options: { appId: string; ttlSeconds: number }): Promise<void>;
  findActive(appId: string, limit?: number): Promise<T[]>;
  /** Removes and returns sessions whose inactivity timer ran out (each one once, across processes). */
  takeExpired(limit?: number): Promise<T[]>;
  /**
   * The sessions that end with this process (shutdown): every one held in memory, expired or not; none in Redis,
   * where another process (or this one restarted) goes on with them.
   */
  findLostOnExit(): Promise<T[]>;
  /**
   * Resume on redial: the last state of a dialler's session (`key` names the dialler, not a session), saved after
   * each of its hops and kept `ttlSeconds` (the app's window). Apart from live sessions: never listed or swept.
   */
  saveResumable(key: string, value: T, ttlSeconds: number): Promise<void>;
  /** Removes and returns a dialler's saved state, once across processes; undefined when none or past its time. */
  takeResumable(key: string): Promise<T | undefined>;
  deleteResumable(key: string): Promise<void>;
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
 * app's last session ended.) Ended sessions kept for resends (`keep`) sit in a second Map, in the order
 * they were kept, bounded by `maxKept`.
 */
export function createMemorySessionStore<T extends object>(
  options: { maxSessions?: number; maxKept?: number; now?: () => number } = {},
): SessionStore<T> {
  const now = options.now ?? Date.now;
  const maxSessions = options.maxSessions ?? 200_000;
  const maxKept = options.maxKept ?? 50_000;
  const sessions = new Map<string, Entry<T>>();
  const byApp = new Map<string, Set<string>>();
  const kept = new Map<string, { value: T; expiresAt: number }>();
  // Resume on redial's saved states, by dialler, in the order saved; bounded like `kept`.
  const resumable = new Map<string, { value: T; expiresAt: number }>();
  /** Saves into one of the timed Maps, dropping its expired entries at the front and any past `max`. */
  function saveTimed(map: Map<string, { value: T; expiresAt: number }>, key: string, value: T, ttlSeconds: number, max: number): void {
    map.delete(key);
    const time = now();
    map.set(key, { value, expiresAt: time + ttlSeconds * 1000 });
    for (const [oldKey, entry] of map) {
      if (entry.expiresAt > time && map.size <= max) break;
      map.delete(oldKey);
    }
  }
  const live = (entry: Entry<T> | undefined) => (entry && entry.expiresAt > now() ? entry : undefined);
  function readKept(key: string): T | undefined {
    const entry = kept.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now()) return entry.value;
    kept.delete(key);
    return undefined;
  }
  function remove(key: string, appId: string): void {
    sessions.delete(key);
    const keys = byApp.get(appId);
    if (keys?.delete(key) && keys.size === 0) byApp.delete(appId);
  }
  return {
    kind: 'memory',
    async get(key) {
      return live(sessions.get(key))?.value ?? readKept(key);
    },
    async set(key, value, { appId, ttlSeconds }) {
      kept.delete(key);
      sessions.delete(key);
      sessions.set(key, { value, appId, expiresAt: now() + ttlSeconds * 1000 });
      let keys = byApp.get(appId);
      if (!keys) {
        keys = new Set();
        byApp.set(appId, keys);
      }
      keys.add(key);
      if (sessions.size > maxSessions) {
        const [oldestKey, oldest] = sessions.entries().next().value as [string, Entry<T>];
        remove(oldestKey, oldest.appId);
      }
    },
    async delete(key, appId) {
      remove(key, appId);
      kept.delete(key);
    },
    async keep(key, value, { appId, ttlSeconds }) {
      remove(key, appId);
      saveTimed(kept, key, value, ttlSeconds, maxKept);
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
    async findLostOnExit() {
      return [...sessions.values()].map((entry) => entry.value);
    },
    async saveResumable(key, value, ttlSeconds) {
      saveTimed(resumable, key, value, ttlSeconds, maxKept);
    },
    async takeResumable(key) {
      const entry = resumable.get(key);
      resumable.delete(key);
      return entry && entry.expiresAt > now() ? entry.value : undefined;
    },
    async deleteResumable(key) {
      resumable.delete(key);
    },
  };
}

/**
 * Keys, under the client's key prefix (REDIS_KEY_PREFIX, `df:` by default): `session:<key>` holds the value,
 * `active:<appId>` lists an app's live sessions and `expiry` indexes every live session by expiry for the sweeper.
 * A client with another prefix is a separate store on the same Redis (another installation; tests use one each).
 */
export function createRedisSessionStore<T extends object>(redis: Redis, options: { now?: () => number } = {}): SessionStore<T> {
  const now = options.now ?? Date.now;
  const sessionKey = (key: string) => `session:${key}`;
  const activeKey = (appId: string) => `active:${appId}`;
  const EXPIRY_INDEX = 'expiry';
  const resumableKey = (key: string) => `resume:${key}`;
  return {
    kind: 'redis',
    // One GET a hop: the expiry travels inside the value (the sorted sets are for listing and sweeping).
    async get(key) {
      const raw = await redis.get(sessionKey(key));
      if (!raw) return undefined;
      const stored = JSON.parse(raw) as { value: T; expiresAt?: number };
      return stored.expiresAt !== undefined && stored.expiresAt > now() ? stored.value : undefined;
    },
    async set(key, value, { appId, ttlSeconds }) {
      const expiresAt = now() + ttlSeconds * 1000;
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
    // Out of both sorted sets: never listed or swept; Redis drops the key when it expires.
    async keep(key, value, { appId, ttlSeconds }) {
      const expiresAt = now() + ttlSeconds * 1000;
      await redis
        .multi()
        .set(sessionKey(key), JSON.stringify({ value, appId, expiresAt }), 'EX', ttlSeconds)
        .zrem(activeKey(appId), key)
        .zrem(EXPIRY_INDEX, key)
        .exec();
    },
    async findActive(appId, limit = 500) {
      // Live means expiring after now (exclusive, as `get` and the memory store judge it).
      const keys = await redis.zrangebyscore(activeKey(appId), `(${now()}`, '+inf', 'LIMIT', 0, limit);
      if (keys.length === 0) return [];
      const values = await redis.mget(keys.map(sessionKey));
      return values.filter((v): v is string => v !== null).map((v) => (JSON.parse(v) as { value: T }).value);
    },
    async takeExpired(limit = 1000) {
      const keys = await redis.zrangebyscore(EXPIRY_INDEX, '-inf', now(), 'LIMIT', 0, limit);
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
    async findLostOnExit() {
      return [];
    },
    // Redis drops it when the window closes; the expiry inside the value serves a clock that is not Redis's (tests).
    async saveResumable(key, value, ttlSeconds) {
      const expiresAt = now() + ttlSeconds * 1000;
      await redis.set(resumableKey(key), JSON.stringify({ value, expiresAt }), 'EX', ttlSeconds);
    },
    // GETDEL: one process gets it.
    async takeResumable(key) {
      const raw = await redis.getdel(resumableKey(key));
      if (!raw) return undefined;
      const stored = JSON.parse(raw) as { value: T; expiresAt: number };
      return stored.expiresAt > now() ? stored.value : undefined;
    },
    async deleteResumable(key) {
      await redis.del(resumableKey(key));
    },
  };
}
