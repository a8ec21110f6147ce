import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../../../db/schema';

export type EventRecord =
  | { table: 'logs'; row: typeof appLogs.$inferInsert }
  | { table: 'inputs'; row: typeof sessionInputs.$inferInsert }
  | { table: 'actionResults'; row: typeof actionResults.$inferInsert }
  | { table: 'sessions'; row: typeof sessionRecords.$inferInsert };

/**
 * A batch is sent as one JSON parameter (`jsonb_to_recordset`) rather than a multi-row VALUES list: building
 * VALUES for hundreds of rows was most of a hop's CPU in the benchmark (bench/README.md), and one parameter
 * costs the same on PGlite and PostgreSQL.
 */
function createBatchInsert(table: PgTable): (rows: Array<Record<string, unknown>>) => SQL {
  const columns = Object.entries(getTableColumns(table)).filter(([, column]) => column.name !== 'id');
  const names = columns.map(([, c]) => `"${c.name}"`).join(', ');
  const types = columns.map(([, c]) => `"${c.name}" ${c.getSQLType()}`).join(', ');
  const head = sql.raw(`insert into "${getTableName(table)}" (${names}) select ${names} from jsonb_to_recordset(`);
  const tail = sql.raw(`::jsonb) as x(${types})`);
  return (rows) => {
    const records = rows.map((row) => {
      const record: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = row[key] ?? (column.hasDefault ? column.default : null);
        record[column.name] = value instanceof Date ? value.toISOString() : value;
      }
      return record;
    });
    return sql`${head}${JSON.stringify(records)}${tail}`;
  };
}

const INSERTS = {
  logs: createBatchInsert(appLogs),
  inputs: createBatchInsert(sessionInputs),
  actionResults: createBatchInsert(actionResults),
  sessions: createBatchInsert(sessionRecords),
} satisfies Record<EventRecord['table'], unknown>;

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
 * Writes events in batches: every `flushEveryMs` (250) or as soon as `flushAt` (500) are waiting. The buffer is
 * bounded for sheddable lines (`maxBuffered`); past it the oldest debug/info lines go first and are counted.
 */
export function createEventSink(
  db: Db,
  log: FastifyBaseLogger,
  options: { flushEveryMs?: number; flushAt?: number; batchSize?: number; maxBuffered?: number } = {},
): EventSink {
  const flushEveryMs = options.flushEveryMs ?? 250;
  const flushAt = options.flushAt ?? 500;
  /** Rows per statement. */
  const batchSize = options.batchSize ?? 100;
  const maxBuffered = options.maxBuffered ?? 20_000;
  // One queue in arrival order, so rows get ids in the order things happened; sheddable lines are counted
  // and, when too many wait, the oldest tenth of them is dropped in one pass.
  let queue: EventRecord[] = [];
  let sheddableCount = 0;
  const counters = { written: 0, shed: 0, failedBatches: 0 };
  let flushing: Promise<void> | undefined;
  let isClosed = false;

  function shedOldest(): void {
    let toDrop = Math.ceil(maxBuffered / 10);
    counters.shed += toDrop;
    sheddableCount -= toDrop;
    queue = queue.filter((record) => !(toDrop > 0 && isSheddable(record) && toDrop--));
  }

  async function writeBatch(batch: EventRecord[]): Promise<void> {
    const groups = new Map<EventRecord['table'], unknown[]>();
    for (const record of batch) {
      const rows = groups.get(record.table) ?? [];
      rows.push(record.row);
      groups.set(record.table, rows);
    }
    for (const [table, rows] of groups) {
      try {
        await db.execute(INSERTS[table](rows as Array<Record<string, unknown>>));
        counters.written += rows.length;
      } catch (err) {
        counters.failedBatches++;
        log.error({ err, table, rows: rows.length }, 'event batch could not be written');
      }
    }
  }

  // Short batches with a turn of the event loop between them: an embedded database runs on this thread,
  // and one long write would hold every hop waiting behind it.
  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      sheddableCount -= batch.filter(isSheddable).length;
      await writeBatch(batch);
      await yieldToEventLoop();
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
      queue.push(record);
      if (isSheddable(record) && ++sheddableCount > maxBuffered) shedOldest();
      if (!isClosed && queue.length >= flushAt) void flush();
    },
    flush,
    async close() {
      isClosed = true;
      clearInterval(timer);
      await flushing;
      await flush();
    },
    stats: () => ({ buffered: queue.length, ...counters }),
  };
}
