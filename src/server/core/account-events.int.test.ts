import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isRedisServerInstalled, startOwnRedisServer, type OwnRedisServer } from '../../../tests/support/redis';
import { describeWithService } from '../../../tests/support/services';
import { createAccountEvents } from './account-events';

/**
 * The account events bus across a Redis restart: its subscriber connection subscribes again itself when Redis is back
 * (ioredis's own resubscription is off: its promise is caught by nobody), so a screen hears events again, and the
 * restart leaves no unhandled rejection.
 */
describeWithService('the account events bus', isRedisServerInstalled, 'redis-server is not installed', () => {
  let server: OwnRedisServer;
  let publisher: Redis;
  const log = pino({ level: 'silent' });
  beforeAll(async () => {
    server = await startOwnRedisServer();
    publisher = new Redis(server.url, { maxRetriesPerRequest: 2 });
    publisher.on('error', () => {});
  });
  afterAll(async () => {
    publisher?.disconnect();
    await server?.stop();
  });

  it('hears an account again once Redis is back, with no unhandled rejection', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const client = new Redis(server.url, { maxRetriesPerRequest: 2 });
    client.on('error', () => {});
    const listening = createAccountEvents<{ n: number }>(client, log, 'restart-test');
    const heard: Array<{ n: number }> = [];
    listening.subscribe('owner-1', (event) => heard.push(event));
    const sending = createAccountEvents<{ n: number }>(publisher, log, 'restart-test');
    try {
      await expect.poll(() => (sending.publish('owner-1', { n: 1 }), heard.length), { timeout: 5000 }).toBeGreaterThan(0);
      await server.stop();
      await server.start();
      const before = heard.length;
      await expect.poll(() => (sending.publish('owner-1', { n: 2 }), heard.length), { timeout: 10_000 }).toBeGreaterThan(before);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      listening.close();
      client.disconnect();
    }
  });
});
