import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { findFreePort } from './free-port';
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

/**
 * A redis-server of the test's own on a free loopback port, to take away and bring back (a Redis outage) without
 * touching the shared one. `stop` kills it (SIGKILL, as a crash or a lost network would look); `start` starts it
 * again on the same port. No persistence: it comes back empty, as a failed-over cache may.
 */
export interface OwnRedisServer {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export const isRedisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;

export async function startOwnRedisServer(): Promise<OwnRedisServer> {
  const port = await findFreePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  async function start(): Promise<void> {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    // Until it listens (a few ms): bounded, and a server that never comes up fails the test.
    for (let attempt = 0; ; attempt++) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch (err) {
        if (attempt >= 100 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}: ${String(err)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        probe.disconnect();
      }
    }
  }
  await start();
  return {
    url,
    start,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
