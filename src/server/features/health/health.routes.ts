import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { statusSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import type { EventSinkStats } from '../runtime/event-sink';
import { MIGRATIONS_DIR } from '../../../db/client';
import type { Metrics } from '../../core/metrics';

const componentSchema = z.enum(['up', 'down', 'not configured']);
const healthSchema = z.object({
  status: statusSchema,
  message: z.string(),
  data: z.object({
    database: componentSchema,
    databaseKind: z.enum(['pglite', 'postgres']),
    redis: componentSchema,
    uptimeSeconds: z.number(),
    /**
     * The runtime's event buffer: rows waiting, in the write under way and written, debug/info lines shed, rows
     * refused as data, times hops waited for the writer, writes tried again after the database failed them.
     */
    events: z
      .object({
        buffered: z.number(),
        writing: z.number(),
        written: z.number(),
        shed: z.number(),
        failedBatches: z.number(),
        holds: z.number(),
        retries: z.number(),
      })
      .optional(),
  }),
});

export interface HealthProbe {
  /** Undefined when Redis is not configured. */
  pingRedis?: () => Promise<void>;
  getEventStats?: () => EventSinkStats;
  /** True once the process is shutting down (SIGTERM's drain, then close): readiness answers 503. */
  isDraining?: () => boolean;
  /** The metrics a scrape gets (core/metrics.ts); undefined when none are served on this port. */
  metrics?: Metrics;
}

const readinessSchema = z.object({
  status: statusSchema,
  message: z.string(),
  data: z.object({
    database: componentSchema,
    redis: componentSchema,
    migrations: z.enum(['applied', 'pending', 'unknown']),
    draining: z.boolean(),
  }),
});

/** How many migrations the code has (its journal), read once. */
let journalLength: number | undefined;
function readJournalLength(): number {
  journalLength ??= (JSON.parse(readFileSync(resolve(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries
    .length;
  return journalLength;
}

/** Whether the database has every migration the code knows (drizzle's own table); unknown when it cannot say. */
async function checkMigrations(ctx: AppContext): Promise<'applied' | 'pending' | 'unknown'> {
  try {
    const result = await ctx.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const [row] = (result as unknown as { rows: Array<{ n: number }> }).rows;
    return Number(row?.n ?? 0) >= readJournalLength() ? 'applied' : 'pending';
  } catch {
    return 'unknown';
  }
}

/** `Authorization: Bearer <token>`, compared in constant time. */
function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `GET /metrics` in Prometheus' text format. On the main port only with METRICS_TOKEN (a scraper without it gets 401);
 * on METRICS_PORT's listener too, which checks the token when one is set.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (token !== undefined && !hasToken(req.headers.authorization, token))
      return reply.code(401).header('www-authenticate', 'Bearer').send({ status: '01', message: 'A metrics token is required' });
    return reply
      .header('content-type', metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.render());
  });
}

async function check(probe: () => Promise<void>): Promise<'up' | 'down'> {
  try {
    await probe();
    return 'up';
  } catch {
    return 'down';
  }
}

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext, probe: HealthProbe): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
    schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } },
    handler: async (_req, reply) => {
      const database = await check(() => ctx.database.ping());
      const redis = probe.pingRedis ? await check(probe.pingRedis) : 'not configured';
      const isUp = database === 'up' && redis !== 'down';
      return reply.code(isUp ? 200 : 503).send({
        status: isUp ? '00' : '03',
        message: isUp ? 'ok' : 'degraded',
        data: {
          database,
          databaseKind: ctx.database.kind,
          redis,
          uptimeSeconds: Math.round(process.uptime()),
          events: probe.getEventStats?.(),
        },
      });
    },
  });

  // Liveness: the process answers. For an orchestrator's restart decision: nothing it depends on is asked.
  app.get('/livez', { schema: { tags: ['health'] } }, async () => ({ status: '00', message: 'alive' }));

  // Readiness: send it traffic. The database and Redis answer, every migration is applied, and it is not draining.
  app.withTypeProvider<ZodTypeProvider>().get('/readyz', {
    schema: { tags: ['health'], response: { 200: readinessSchema, 503: readinessSchema } },
    handler: async (_req, reply) => {
      const draining = probe.isDraining?.() ?? false;
      const [database, redis, migrations] = await Promise.all([
        check(() => ctx.database.ping()),
        probe.pingRedis ? check(probe.pingRedis) : ('not configured' as const),
        checkMigrations(ctx),
      ]);
      const isReady = !draining && database === 'up' && redis !== 'down' && migrations === 'applied';
      return reply.code(isReady ? 200 : 503).send({
        status: isReady ? '00' : '03',
        message: isReady ? 'ready' : draining ? 'draining' : 'not ready',
        data: { database, redis, migrations, draining },
      });
    },
  });
  if (probe.metrics && ctx.config.METRICS_TOKEN) registerMetricsRoute(app, probe.metrics, ctx.config.METRICS_TOKEN);
}
