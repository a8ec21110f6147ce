import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The end screen of a test hop past TEST_HOP_RATE_LIMIT. */
export const TEST_HOP_LIMIT_TEXT = 'Too many test runs for this account this minute. Please wait a minute and try again.';

/**
 * TEST_HOP_RATE_LIMIT: hops of an account's drafts (test URLs, the signed-in emulator) per minute, counted by the
 * same limiter as the sign-in limits (in Redis when REDIS_URL is set, else in this process). A test URL needs no
 * sign-in and accounts are free, so without it a free account could have the server run its scripts as fast as
 * it sends hops. A hop past the limit gets the gateway's end screen with TEST_HOP_LIMIT_TEXT. A Redis blink
 * admits hops rather than failing every test run (the pool's share group still holds them, runners.ts).
 *
 * @example const admitTestHop = createTestHopLimit(app, 120); await admitTestHop(ownerId) // null, or the end text
 */
export function createTestHopLimit(app: FastifyInstance, max: number): (ownerId: string) => Promise<string | null> {
  type Count = ReturnType<FastifyInstance['createRateLimit']>;
  // Made on first use: the rate-limit plugin is registered after the runtime is built.
  let count: Count | undefined;
  return async (ownerId) => {
    count ??= app.createRateLimit({
      max,
      timeWindow: 60_000,
      skipOnError: true,
      keyGenerator: (req) => `test-hops:${(req as unknown as OwnerKey).ownerId}`,
    });
    // The limiter reads its key from a request; this stands in for one, with the route options it looks at.
    const result = await count({ ownerId, routeOptions: { config: {} } } as unknown as FastifyRequest);
    return !result.isAllowed && result.isExceeded ? TEST_HOP_LIMIT_TEXT : null;
  };
}

interface OwnerKey {
  ownerId: string;
}
