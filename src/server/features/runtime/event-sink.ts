import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../../db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../../../db/schema';
import { cleanText } from '../../../channels/fields';

export type EventRecord =
  | { table: 'logs'; row: typeof appLogs.$inferInsert }
  | { table: 'inputs'; row: typeof sessionInputs.$inferInsert }
  | { table: 'actionResults'; row: typeof actionResults.$inferInsert }
  | { table: 'sessions'; row: typeof sessionRecords.$inferInsert };

/** The column of each kind the event tables hold, as COPY's text format writes it. */
type ColumnKind = 'text' | 'json' | 'time' | 'other';

/** COPY's text format: a backslash, newline, carriage return or tab in a value is written as an escape. */
const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const escapeCopy = (text: string) => (COPY_SPECIAL.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]!) : text);

/** JSON that jsonb refuses: an escaped NUL or a lone surrogate (JSON.stringify escapes those, and only those, as \ud8xx-\udfxx). */
const UNSTORABLE_JSON = /\\u0000|\\ud[89a-f]/i;

/** Text PostgreSQL cannot store (NUL, lone surrogates) made storable, deep; Dates and numbers untouched. */
function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[cleanValue(key) as string] = cleanValue(item);
  return out;
}

/**
 * A table's rows as lines of COPY's text format (Database.copyRows), every column but the serial id. A row is
 * written when it is pushed, so the buffer holds one string a row rather than the row's objects (what the
 * garbage collector walks while the writer catches up), and text PostgreSQL would refuse (NUL, a lone
 * surrogate, from a script's log line or result) is made storable then: rows from many tenants share a COPY,
 * and one tenant's text must not cost the others theirs.
 */
function createRowEncoder(table: PgTable) {
  const columns = Object.entries(getTableColumns(table)).filter(([, column]) => column.name !== 'id');
  const keys = columns.map(([key]) => key);
  const kinds: ColumnKind[] = columns.map(([, c]) =>
    c.dataType === 'json' ? 'json' : c.dataType === 'date' ? 'time' : c.dataType === 'string' ? 'text' : 'other',
  );
  // A column the row leaves out takes its default, as an INSERT naming every column would not.
  const fallbacks = columns.map(([, c]) => (c.hasDefault && ['string', 'number', 'boolean'].includes(typeof c.default) ? c.default : null));
  function encodeValue(value: unknown, kind: ColumnKind): string {
    if (value === null || value === undefined) return '\\N';
    if (kind === 'text') return escapeCopy(cleanText(String(value)));
    if (kind === 'json') {
      let json = JSON.stringify(value);
      if (json === undefined) return '\\N';
      if (UNSTORABLE_JSON.test(json)) json = JSON.stringify(cleanValue(value));
      return escapeCopy(json);
    }
    if (kind === 'time') return value instanceof Date ? value.toISOString() : escapeCopy(String(value));
    return typeof value === 'boolean' ? (value ? 't' : 'f') : escapeCopy(String(value));
  }
  return {
    table: getTableName(table),
    columns: columns.map(([, c]) => c.name),
    encode(row: Record<string, unknown>): string {
      let line = '';
      for (let i = 0; i < keys.length; i++) line += (i === 0 ? '' : '\t') + encodeValue(row[keys[i]!] ?? fallbacks[i], kinds[i]!);
      return `${line}\n`;
    },
  };
}

const ENCODERS = {
  logs: createRowEncoder(appLogs),
  inputs: createRowEncoder(sessionInputs),
  actionResults: createRowEncoder(actionResults),
  sessions: createRowEncoder(sessionRecords),
} satisfies Record<EventRecord['table'], unknown>;

export interface EventSinkStats {
  buffered: number;
  written: number;
  /** debug and info log lines dropped because the database refused writes for long (see createEventSink). */
  shed: number;
  failedBatches: number;
  /** Times new hops were held until the writer caught up (whenCaughtUp). */
  holds: number;
}

export interface EventSink {
  /** Never waits and never throws. `ownerId`: the account the row counts against (see whenCaughtUp); '' for none. */
  push(record: EventRecord, ownerId?: string): void;
  /**
   * null when the writer is keeping up (the usual case: nothing to wait for), or when the account's own rows
   * waiting are within its fair share; else a promise that resolves once the writer has caught up. The runtime
   * awaits it before a hop of the account starts, so traffic the database cannot keep up with slows down rather
   * than losing what it wrote, and it is the accounts whose rows fill the buffer that slow down.
   */
  whenCaughtUp(ownerId: string): Promise<void> | null;
  flush(): Promise<void>;
  /** Stops the timer and writes everything still buffered (shutdown). */
  close(): Promise<void>;
  stats(): EventSinkStats;
}

/** debug and info log lines may be shed; session records, inputs, action results and errors never are. */
const isSheddable = (r: EventRecord) => r.table === 'logs' && (r.row.level === 'debug' || r.row.level === 'info');

/** A pushed record, encoded: its table, its COPY line and the account it counts against. */
type Queued = { seq: number; table: EventRecord['table']; line: string; ownerId: string };

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
  /** Drops up to n items from the front, each handed to `onDrop`; returns how many went. */
  dropFront(n: number, onDrop: (item: Queued) => void): number {
    const dropped = Math.min(n, this.length);
    for (let i = 0; i < dropped; i++) onDrop(this.#items[this.#head + i]!);
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
 * (500) rows at a time, one COPY a table. Nothing pushed is dropped while the database takes writes: once
 * `holdAt` (20,000) rows wait, new hops wait (whenCaughtUp) until the writer is back under half of that, which
 * also hands it the CPU the hops were using. Only while the database refuses writes (down, full) are hops never
 * held; debug and info lines then wait in their own queue, bounded by `maxBuffered` (50,000, above `holdAt` so that
 * a writer that takes writes never reaches it): past it the oldest tenth goes at once and is counted. Session records, inputs, action results and error lines are never shed.
 * Holds are per account: rows waiting are counted per account, and past `holdAt` only the accounts holding more
 * than a fair share of it (`holdAt` over the accounts with rows waiting) are held, so one tenant's flood slows
 * that tenant; past `holdAllAt` (twice `holdAt`), which bounds memory however many accounts share the flood,
 * every account is held.
 * Both queues are written merged in arrival order, so rows get ids in the order things happened. Every
 * operation on the hop's path is O(1).
 */
export function createEventSink(
  database: Pick<Database, 'copyRows'>,
  log: FastifyBaseLogger,
  options: { flushEveryMs?: number; flushAt?: number; batchSize?: number; maxBuffered?: number; holdAt?: number; holdAllAt?: number } = {},
): EventSink {
  const flushEveryMs = options.flushEveryMs ?? 250;
  const flushAt = options.flushAt ?? 500;
  const batchSize = options.batchSize ?? 500;
  const maxBuffered = options.maxBuffered ?? 50_000;
  const holdAt = options.holdAt ?? 20_000;
  const resumeAt = Math.floor(holdAt / 2);
  const holdAllAt = options.holdAllAt ?? holdAt * 2;
  /** Rows waiting per account; an account leaves the map when its last row is taken. */
  const waiting = new Map<string, number>();
  const countOut = ({ ownerId }: Queued) => {
    const n = (waiting.get(ownerId) ?? 1) - 1;
    if (n > 0) waiting.set(ownerId, n);
    else waiting.delete(ownerId);
  };
  /** Whether the account holds more than its fair share of `holdAt` (an account alone: all of it). */
  const isOverShare = (ownerId: string) => (waiting.get(ownerId) ?? 0) * waiting.size >= holdAt;
  const kept = new Fifo();
  const sheddable = new Fifo();
  let seq = 0;
  const counters = { written: 0, shed: 0, failedBatches: 0, holds: 0 };
  // Whether the last COPY was taken: hops are held for a writer that is behind, never for one that fails.
  let isWriterHealthy = true;
  let hold: { promise: Promise<void>; release: () => void } | undefined;
  function releaseHold(): void {
    hold?.release();
    hold = undefined;
  }
  let flushing: Promise<void> | undefined;
  let isClosed = false;
  const buffered = () => kept.length + sheddable.length;

  /**
   * The next records in arrival order, taken from the front of both queues: `batchSize`, or up to twenty times
   * that when more wait. A writer that is behind then needs fewer round trips to the database's thread, each of
   * which waits for a turn of this thread's event loop, which a saturating load makes long.
   */
  function takeBatch(): Queued[] {
    // A failing database gets batches of the usual size: each of their rows is tried alone.
    const size = isWriterHealthy ? Math.max(batchSize, Math.min(buffered(), batchSize * 20)) : batchSize;
    const batch: Queued[] = [];
    while (batch.length < size) {
      const a = kept.peek();
      const b = sheddable.peek();
      if (!a && !b) break;
      const item = !b || (a && a.seq < b.seq) ? kept.shift()! : sheddable.shift()!;
      countOut(item);
      batch.push(item);
    }
    return batch;
  }

  async function writeBatch(batch: Queued[]): Promise<void> {
    const groups = new Map<EventRecord['table'], string[]>();
    for (const { table, line } of batch) {
      const lines = groups.get(table);
      if (lines) lines.push(line);
      else groups.set(table, [line]);
    }
    for (const [table, lines] of groups) await writeLines(table, lines);
  }

  /** One COPY; the error (and the writer marked failing) when the database refuses it. */
  async function copy(table: EventRecord['table'], lines: string[]): Promise<{ err?: unknown }> {
    const { table: name, columns } = ENCODERS[table];
    try {
      await database.copyRows(name, columns, lines.join(''));
      counters.written += lines.length;
      isWriterHealthy = true;
      return {};
    } catch (err) {
      isWriterHealthy = false;
      return { err };
    }
  }

  /**
   * One COPY a table a batch. Text was made storable when the rows were encoded, so a refusal is the database
   * (gone, full) or a row we did not foresee: the rows are then written one by one, so only a row that still
   * cannot be stored is lost (and counted), never its batch. One line is logged for the batch, not one a row.
   */
  async function writeLines(table: EventRecord['table'], lines: string[]): Promise<void> {
    const refused = await copy(table, lines);
    if (!('err' in refused)) return;
    let lost = lines.length;
    let lastErr = refused.err;
    if (lines.length > 1) {
      log.warn({ err: refused.err, table, rows: lines.length }, 'event batch refused; writing its rows one by one');
      lost = 0;
      for (const line of lines) {
        const result = await copy(table, [line]);
        if ('err' in result) {
          lost++;
          lastErr = result.err;
        }
      }
    }
    if (lost > 0) {
      counters.failedBatches += lost;
      log.error({ err: lastErr, table, rows: lost }, 'event rows could not be written');
    }
  }

  // One statement at a time with a turn of the event loop between them: an embedded database on this thread
  // (tests) would otherwise hold every hop waiting behind a long write.
  async function drain(): Promise<void> {
    try {
      while (buffered() > 0) {
        await writeBatch(takeBatch());
        if (hold && (buffered() <= resumeAt || !isWriterHealthy)) releaseHold();
        await yieldToEventLoop();
      }
    } finally {
      releaseHold();
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
    push(record, ownerId = '') {
      const item: Queued = { seq: seq++, table: record.table, line: ENCODERS[record.table].encode(record.row), ownerId };
      waiting.set(ownerId, (waiting.get(ownerId) ?? 0) + 1);
      if (isSheddable(record)) {
        sheddable.push(item);
        if (sheddable.length > maxBuffered) counters.shed += sheddable.dropFront(Math.ceil(maxBuffered / 10), countOut);
      } else {
        kept.push(item);
      }
      if (!isClosed && buffered() >= flushAt && !flushing) void flush();
    },
    whenCaughtUp(ownerId) {
      if (buffered() < holdAt || !isWriterHealthy || isClosed) return null;
      if (buffered() < holdAllAt && !isOverShare(ownerId)) return null;
      if (!hold) {
        let release!: () => void;
        const promise = new Promise<void>((resolve) => (release = resolve));
        hold = { promise, release };
        counters.holds++;
      }
      if (!flushing) void flush();
      return hold.promise;
    },
    flush,
    async close() {
      isClosed = true;
      releaseHold();
      clearInterval(timer);
      await flushing;
      await flush();
    },
    stats: () => ({ buffered: buffered(), ...counters }),
  };
}
