/**
 * What an operator's tools read of a process (docs/operations.md, "Metrics" and "Liveness and readiness"): its
 * metrics, served on the main port behind METRICS_TOKEN and/or on a listener of their own (METRICS_PORT), and
 * whether it is draining (SIGTERM: readiness answers 503 while requests in flight finish).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from '../../context';
import { createMetrics, type MetricSources, type Metrics } from '../../core/metrics';
import { registerMetricsRoute } from './health.routes';

export interface Operations {
  metrics: Metrics;
  isDraining(): boolean;
  /** From now on readiness answers 503; the process still serves (main.ts waits SHUTDOWN_DRAIN_MS, then closes). */
  startDraining(): void;
}

export function createOperations(
  app: FastifyInstance,
  ctx: AppContext,
  sources: Omit<MetricSources, 'database' | 'pingRedis'> & { redis: Redis | undefined },
): Operations {
  const { redis, ...rest } = sources;
  const metrics = createMetrics({ database: ctx.database, pingRedis: redis ? async () => void (await redis.ping()) : undefined, ...rest });
  let isDraining = false;
  // A server closing is draining too (tests close without a signal).
  app.addHook('preClose', async () => {
    isDraining = true;
  });
  const port = ctx.config.METRICS_PORT;
  if (port !== undefined) {
    // A listener of its own, for an internal network: only /metrics, never the console or the gateways.
    const listener = Fastify({ logger: false });
    registerMetricsRoute(listener, metrics, ctx.config.METRICS_TOKEN);
    app.addHook('onReady', async () => {
      await listener.listen({ port, host: ctx.config.METRICS_HOST });
    });
    app.addHook('onClose', async () => listener.close());
  }
  return {
    metrics,
    isDraining: () => isDraining,
    startDraining() {
      if (isDraining) return;
      isDraining = true;
      // Every answer from now on closes its connection: a proxy's kept-alive connection to this process ends after a
      // whole answer, rather than being closed at shutdown as the proxy sends the next request on it (a request it
      // cannot send again elsewhere). The listener runs after Fastify's, before any answer is written; it costs a hop
      // nothing until the process drains.
      app.server.on('request', (_request, response) => {
        if (!response.headersSent) response.setHeader('connection', 'close');
      });
    },
  };
}
