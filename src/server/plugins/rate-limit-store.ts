import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
type StoreWithRead = FastifyRateLimitStore & { read?: FastifyRateLimitStore['incr'] };

/**
 * Counts in Redis, shared by the fleet; when Redis cannot answer (an outage: the client gives up after its command
 * timeout), counts in this process instead. So every limit still holds during an outage, per process rather than
 * for the fleet, and the routes behind a limit (sign-in, imports, webhook tests) keep answering instead of failing
 * with a 500. Counts made meanwhile stay local: a limit is at most one window looser when Redis comes back.
 */
class RedisWithLocalFallback implements FastifyRateLimitStore {
  constructor(
    private readonly remote: StoreWithRead,
    private readonly local: StoreWithRead,
    private readonly onFallback: (err: Error) => void,
    private readonly isRemoteUp: () => boolean,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    // Known down (reconnecting): no command timeout to wait out on every request.
    if (!this.isRemoteUp()) {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    this.remote.incr(
      key,
      (err, result) => {
        if (!err) return callback(null, result);
        this.onFallback(err);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    if (!this.isRemoteUp()) {
      this.local.read?.(key, callback, timeWindow, max);
      return;
    }
    this.remote.read?.(
      key,
      (err, result) => {
        if (!err) return callback(null, result);
        this.onFallback(err);
        this.local.read?.(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new RedisWithLocalFallback(this.remote.child(routeOptions), this.local.child(routeOptions), this.onFallback, this.isRemoteUp);
  }
}

/** The store class for @fastify/rate-limit's `store` option: Redis under `nameSpace`, this process's memory when it fails. */
export function createRateLimitStore(redis: Redis, nameSpace: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  let warnedAt = Number.NEGATIVE_INFINITY;
  const onFallback = (err: Error) => {
    if (performance.now() - warnedAt < 60_000) return;
    warnedAt = performance.now();
    log.warn({ err: err.message }, 'rate limits counted in this process: Redis did not answer');
  };
  return class extends RedisWithLocalFallback {
    constructor(options: FastifyRateLimitOptions) {
      // The plugin hands its stores its resolved settings, which its option type does not list.
      const settings = options as { continueExceeding?: boolean; exponentialBackoff?: boolean; cache?: number };
      const continueExceeding = settings.continueExceeding ?? false;
      const exponentialBackoff = settings.exponentialBackoff ?? false;
      super(
        new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff, settings.cache),
        onFallback,
        () => redis.status === 'ready',
      );
    }
  };
}
