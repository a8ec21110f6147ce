import { Redis } from 'ioredis';
import type { Config } from './config';

/**
 * The platform's one Redis client, or undefined without REDIS_URL. Every key goes under REDIS_KEY_PREFIX through
 * ioredis's `keyPrefix` (sessions, rate-limit counters, anything added later); a `duplicate()` keeps it. Channel
 * names are not keys to ioredis, so pub/sub names come from `getRedisChannel`, which reads the same prefix.
 */
export function connectRedis(config: Pick<Config, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>): Redis | undefined {
  if (!config.REDIS_URL) return undefined;
  // A command waits at most 2 s (reconnects included): with Redis gone a hop ends on the unavailable screen well
  // within a gateway's timeout, while a blip shorter than that (a reconnect) is never seen.
  return new Redis(config.REDIS_URL, {
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    commandTimeout: 2000,
    keyPrefix: config.REDIS_KEY_PREFIX,
  });
}

/** A pub/sub channel under the client's key prefix: `getRedisChannel(redis, 'invalidate')` is `df:invalidate` by default. */
export function getRedisChannel(redis: Redis, name: string): string {
  return `${redis.options.keyPrefix ?? ''}${name}`;
}

/**
 * How a subscriber connection (`redis.duplicate(SUBSCRIBER_OPTIONS)`) is made: each one subscribes again itself on
 * every `ready`, with a catch. ioredis's own resubscription after a reconnect leaves a promise nobody catches, which
 * rejects ("Connection is closed") when Redis goes again at that moment and would take the process down.
 */
export const SUBSCRIBER_OPTIONS = { autoResubscribe: false } as const;
