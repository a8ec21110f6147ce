import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../../../db/schema';

export type EventRecord =
  | { table: 'logs'; row: typeof appLogs.$inferInsert }
  | { table: 'inputs'; row: typeof sessionInputs.$inferInsert }
  | { table: 'actionResults'; row: typeof actionResults.$inferInsert }
  | { table: 'sessions'; row: typeof sessionRecords.$inferInsert };

const TABLES = { logs: appLogs, inputs: sessionInputs, actionResults, sessions: sessionRecords } as const;

export interface EventSinkStats {
  buffered: number;
  written: number;
  /** debug and info log lines dropped because the store could not keep up. */
  shed: number;
  failedBatches: number;
}

export interface EventSink {
  /** Never waits and never throws: the hop is never slowed by logging. */
  push(record: EventRecord): void;
  flush(): Promise<void>;
  /** Stops the timer and writes everything still buffered (shutdown). */
  close(): Promise<void>;
  stats(): EventSinkStats;
}

/** debug and info log lines may be shed; session records, inputs, action results and errors never are. */
const isSheddable = (r: EventRecord) => r.table === 'logs' && (r.row.level === 'debug' || r.row.level === 'info');

/**
 * Writes events in batches: every `flushEveryMs` or as soon as `batchSize` are waiting. The buffer is
 * bounded for sheddable lines (`maxBuffered`); past it the oldest debug/info lines go first and are counted.
 */
export function createEventSink(db: Db, log: FastifyBaseLogger, options: { flushEveryMs?: number; batchSize?: number; maxBuffered?: number } = {}): EventSink {
  const flushEveryMs = options.flushEveryMs ?? 250;
  const batchSize = options.batchSize ?? 500;
  const maxBuffered = options.maxBuffered ?? 20_000;
  const essential: EventRecord[] = [];
  const sheddable: EventRecord[] = [];
  const counters = { written: 0, shed: 0, failedBatches: 0 };
  let flushing: Promise<void> | undefined;
  let isClosed = false;

  async function writeBatch(batch: EventRecord[]): Promise<void> {
    const groups = new Map<EventRecord['table'], unknown[]>();
    for (const record of batch) {
      const rows = groups.get(record.table) ?? [];
      rows.push(record.row);
      groups.set(record.table, rows);
    }
    for (const [table, rows] of groups) {
      try {
        await db.insert(TABLES[table]).values(rows as never[]);
        counters.written += rows.length;
      } catch (err) {
        counters.failedBatches++;
        log.error({ err, table, rows: rows.length }, 'event batch could not be written');
      }
    }
  }

  async function drain(): Promise<void> {
    while (essential.length + sheddable.length > 0) {
      const batch = essential.splice(0, batchSize);
      if (batch.length < batchSize) batch.push(...sheddable.splice(0, batchSize - batch.length));
      await writeBatch(batch);
    }
  }

  function flush(): Promise<void> {
    flushing ??= drain().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  const timer = setInterval(() => void flush(), flushEveryMs);
  timer.unref();

  return {
    push(record) {
      if (isSheddable(record)) {
        if (sheddable.length >= maxBuffered) {
          sheddable.shift();
          counters.shed++;
        }
        sheddable.push(record);
      } else {
        essential.push(record);
      }
      if (!isClosed && essential.length + sheddable.length >= batchSize) void flush();
    },
    flush,
    async close() {
      isClosed = true;
      clearInterval(timer);
      await flushing;
      await flush();
    },
    stats: () => ({ buffered: essential.length + sheddable.length, ...counters }),
  };
}
