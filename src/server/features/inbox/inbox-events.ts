/**
 * The inbox's live events (docs/inbox.md, "Live"): what happened to an account's conversations, told to every agent
 * of the account who has the inbox open. With Redis, through pub/sub, so a fleet shares them (the process that stored
 * a message is seldom the one holding the agent's stream); without, in this process. An event is published once
 * stored: a stream that misses one (Redis blinking) shows it on the next read of the list.
 */
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { InboxEvent } from '../../../shared/api/inbox.schema';
import { getRedisChannel } from '../../redis';

export type InboxListener = (event: InboxEvent) => void;

export interface InboxEvents {
  /** Tells the account's listeners, in every process. */
  publish(ownerId: string, event: InboxEvent): void;
  /** Listens to the account's events here; the function returned stops it. */
  subscribe(ownerId: string, listener: InboxListener): () => void;
  close(): void;
}

export function createInboxEvents(redis: Redis | undefined, log: FastifyBaseLogger): InboxEvents {
  const listeners = new Map<string, Set<InboxListener>>();
  const deliver = (ownerId: string, event: InboxEvent) => {
    for (const listener of listeners.get(ownerId) ?? []) {
      try {
        listener(event);
      } catch (err) {
        log.error({ err }, 'an inbox listener failed');
      }
    }
  };
  // Under REDIS_KEY_PREFIX, as the version cache's channel: another installation's inbox on the same Redis is not heard.
  const channel = redis ? getRedisChannel(redis, 'inbox') : '';
  const subscriber = redis?.duplicate();
  if (subscriber) {
    subscriber.on('error', () => {});
    subscriber.on('ready', () => void subscriber.subscribe(channel).catch(() => {}));
    subscriber.on('message', (_channel, raw: string) => {
      try {
        const { ownerId, event } = JSON.parse(raw) as { ownerId: string; event: InboxEvent };
        deliver(ownerId, event);
      } catch (err) {
        log.warn({ err }, 'an inbox event on Redis could not be read');
      }
    });
  }

  return {
    publish(ownerId, event) {
      if (!redis) return deliver(ownerId, event);
      // Redis down: this process's agents still hear it (Redis never took it, so it cannot come back twice).
      redis.publish(channel, JSON.stringify({ ownerId, event })).catch((err: unknown) => {
        log.warn({ err }, 'an inbox event could not go through Redis; told to this process only');
        deliver(ownerId, event);
      });
    },
    subscribe(ownerId, listener) {
      const set = listeners.get(ownerId) ?? new Set<InboxListener>();
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
