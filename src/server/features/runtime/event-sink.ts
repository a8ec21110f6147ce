import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../../../db/schema';
import { cleanText } from '../../../channels/fields';

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
  // The JSON is written directly, key by key, rather than through an object per row and JSON.stringify of
  // the lot: this runs on the hop thread for every event (1.5 µs a row the other way).
  const keys = columns.map(([key]) => key);
  const prefixes = columns.map(([, c], i) => `${i === 0 ? '{' : ','}${JSON.stringify(c.name)}:`);
  const fallbacks = columns.map(([, c]) => (c.hasDefault && ['string', 'number', 'boolean'].includes(typeof c.default) ? c.default : null));
  function toJson(row: Record<string, unknown>): string {
    let json = '';
    for (let i = 0; i < keys.length; i++) {
      let value = row[keys[i]!] ?? fallbacks[i];
      if (value instanceof Date) value = value.toISOString();
      json += prefixes[i]! + (value === undefined ? 'null' : JSON.stringify(value));
    }
    return `${json}}`;
  }
  return (rows) => {
    let json = '[';
    for (let i = 0; i < rows.length; i++) json += (i === 0 ? '' : ',') + toJson(rows[i]!);
    return sql`${head}${`${json}]`}${tail}`;
  };
}

/** Text PostgreSQL cannot store (NUL, lone surrogates) made storable, deep; Dates and numbers untouched. */
function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[cleanValue(key) as string] = cleanValue(item);
  return out;
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

type Queued = { seq: number; record: EventRecord };

/** A FIFO with O(1) push, shift and drop-from-the-front (an array and a moving head, compacted now and then). */
class Fifo {
  #items: Queued[] = [];
  #head = 0;
  get length(): number {
    return this.#items.length - this.#head;
  }
  push(item: Queued): void {
    this.#items.push(item);
  }
  peek(): Queued | undefined {
    return this.#items[this.#head];
  }
  shift(): Queued | undefined {
    const item = this.#items[this.#head];
    if (item) this.#drop(1);
    return item;
  }
  /** Drops up to n items from the front; returns how many went. */
  dropFront(n: number): number {
    const dropped = Math.min(n, this.length);
    this.#drop(dropped);
    return dropped;
  }
  #drop(n: number): void {
    this.#head += n;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}

/**
 * Writes events in batches: every `flushEveryMs` (250) or as soon as `flushAt` (500) are waiting, `batchSize`
 * (500) rows a statement. Sheddable lines wait in their own queue, bounded by `maxBuffered`: past it the
 * oldest tenth goes at once and is counted. Both queues are written merged in arrival order, so rows get
 * ids in the order things happened. Every operation on the hop's path is O(1).
 */
export function createEventSink(
  db: Db,
  log: FastifyBaseLogger,
  options: { flushEveryMs?: number; flushAt?: number; batchSize?: number; maxBuffered?: number } = {},
): EventSink {
  const flushEveryMs = options.flushEveryMs ?? 250;
  const flushAt = options.flushAt ?? 500;
  const batchSize = options.batchSize ?? 500;
  const maxBuffered = options.maxBuffered ?? 20_000;
  const kept = new Fifo();
  const sheddable = new Fifo();
  let seq = 0;
  const counters = { written: 0, shed: 0, failedBatches: 0 };
  let flushing: Promise<void> | undefined;
  let isClosed = false;
  const buffered = () => kept.length + sheddable.length;

  /** The next `batchSize` records in arrival order, taken from the front of both queues. */
  function takeBatch(): EventRecord[] {
    const batch: EventRecord[] = [];
    while (batch.length < batchSize) {
      const a = kept.peek();
      const b = sheddable.peek();
      if (!a && !b) break;
      const next = !b || (a && a.seq < b.seq) ? kept.shift()! : sheddable.shift()!;
      batch.push(next.record);
    }
    return batch;
  }

  async function writeBatch(batch: EventRecord[]): Promise<void> {
    const groups = new Map<EventRecord['table'], unknown[]>();
    for (const record of batch) {
      const rows = groups.get(record.table) ?? [];
      rows.push(record.row);
      groups.set(record.table, rows);
    }
    for (const [table, rows] of groups) await writeRows(table, rows as Array<Record<string, unknown>>);
  }

  /**
   * Rows from many tenants share a statement, so one unstorable row must not cost the others: a script can
   * log or return text with NUL or a lone surrogate, which PostgreSQL's text and jsonb refuse. On a failure
   * the rows are cleaned as the gateways' text is (NUL dropped, lone surrogates become U+FFFD) and written again;
   * if that fails too, one by one, so only a row that still cannot be stored is lost (and counted).
   */
  async function writeRows(table: EventRecord['table'], rows: Array<Record<string, unknown>>): Promise<void> {
    try {
      await db.execute(INSERTS[table](rows));
      counters.written += rows.length;
      return;
    } catch (err) {
      log.warn({ err, table, rows: rows.length }, 'event batch refused; writing it again with its text cleaned');
    }
    const cleaned = rows.map((row) => cleanValue(row) as Record<string, unknown>);
    const attempts = [cleaned, ...(cleaned.length > 1 ? cleaned.map((row) => [row]) : [])];
    for (const [i, attempt] of attempts.entries()) {
      try {
        await db.execute(INSERTS[table](attempt));
        counters.written += attempt.length;
        if (i === 0) return;
      } catch (err) {
        if (i === 0 && attempts.length > 1) continue;
        counters.failedBatches++;
        log.error({ err, table, rows: attempt.length }, 'event rows could not be written');
      }
    }
  }

  // One statement at a time with a turn of the event loop between them: an embedded database on this thread
  // (tests) would otherwise hold every hop waiting behind a long write.
  async function drain(): Promise<void> {
    while (buffered() > 0) {
      await writeBatch(takeBatch());
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
      const item = { seq: seq++, record };
      if (isSheddable(record)) {
        sheddable.push(item);
        if (sheddable.length > maxBuffered) counters.shed += sheddable.dropFront(Math.ceil(maxBuffered / 10));
      } else {
        kept.push(item);
      }
      if (!isClosed && buffered() >= flushAt && !flushing) void flush();
    },
    flush,
    async close() {
      isClosed = true;
      clearInterval(timer);
      await flushing;
      await flush();
    },
    stats: () => ({ buffered: buffered(), ...counters }),
  };
}
