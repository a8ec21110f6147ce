import { Redis } from 'ioredis';
import { describeWithService } from './services';

export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function isRedisReachable(): Promise<boolean> {
  const redis = new Redis(testRedisUrl, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export const isRedisAvailable = await isRedisReachable();

/** `describe` when Redis answers, else a skipped describe after a loud line (a failure with REQUIRE_SERVICES=1). */
export function describeRedis(name: string, fn: () => void): void {
  describeWithService(name, isRedisAvailable, `Redis not reachable at ${testRedisUrl}`, fn);
}
