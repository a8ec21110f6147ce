/**
 * An account's live events (the inbox's, a campaign's progress): what happened, told to every screen of the account
 * that listens. With Redis, through pub/sub on one channel per kind, so a fleet shares them (the process that did the
 * work is seldom the one holding the screen's stream); without, in this process. An event is published once stored:
 * a stream that misses one (Redis blinking) shows it on the screen's next read.
 */
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { getRedisChannel, SUBSCRIBER_OPTIONS } from '../redis';

export type AccountListener<E> = (event: E) => void;

export interface AccountEvents<E> {
  /** Tells the account's listeners, in every process. */
  publish(ownerId: string, event: E): void;
  /** Listens to the account's events here; the function returned stops it. */
  subscribe(ownerId: string, listener: AccountListener<E>): () => void;
  close(): void;
}

/** `kind` names the channel (`inbox`, `campaigns`) and the events in the log. */
export function createAccountEvents<E>(redis: Redis | undefined, log: FastifyBaseLogger, kind: string): AccountEvents<E> {
  const listeners = new Map<string, Set<AccountListener<E>>>();
  const deliver = (ownerId: string, event: E) => {
    for (const listener of listeners.get(ownerId) ?? []) {
      try {
        listener(event);
      } catch (err) {
        log.error({ err, kind }, 'a live event listener failed');
      }
    }
  };
  // Under REDIS_KEY_PREFIX, as the version cache's channel: another installation's events on the same Redis are not heard.
  const channel = redis ? getRedisChannel(redis, kind) : '';
  const subscriber = redis?.duplicate(SUBSCRIBER_OPTIONS);
  if (subscriber) {
    subscriber.on('error', () => {});
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', (_channel, raw: string) => {
      try {
        const { ownerId, event } = JSON.parse(raw) as { ownerId: string; event: E };
        deliver(ownerId, event);
      } catch (err) {
        log.warn({ err, kind }, 'a live event on Redis could not be read');
      }
    });
  }

  return {
    publish(ownerId, event) {
      if (!redis) return deliver(ownerId, event);
      // Redis down: this process's screens still hear it (Redis never took it, so it cannot come back twice).
      redis.publish(channel, JSON.stringify({ ownerId, event })).catch((err: unknown) => {
        log.warn({ err, kind }, 'a live event could not go through Redis; told to this process only');
        deliver(ownerId, event);
      });
    },
    subscribe(ownerId, listener) {
      const set = listeners.get(ownerId) ?? new Set<AccountListener<E>>();
      listeners.set(ownerId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(ownerId) === set) listeners.delete(ownerId);
      };
    },
    close() {
      listeners.clear();
      subscriber?.disconnect();
    },
  };
}
