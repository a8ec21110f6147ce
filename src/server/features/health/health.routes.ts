import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { statusSchema } from '../../../shared/api/envelope';
import type { AppContext } from '../../context';
import type { EventSinkStats } from '../runtime/event-sink';

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
     * The runtime's event buffer: rows written and waiting, debug/info lines shed, rows refused as data, times hops
     * waited for the writer, writes tried again after the database failed them.
     */
    events: z
      .object({
        buffered: z.number(),
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
}
