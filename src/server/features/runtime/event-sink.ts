// Over 400 lines: the batching, back-pressure and retry of one writer share its queue; split, each would reach into it.
import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { isDataRefusal, type Database } from '../../../db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords, whatsappMessages } from '../../../db/schema';
import { cleanText } from '../../../channels/fields';
import { writeContactRecords, type ContactRecord } from '../../core/contact-records';
import { writeWindowRecords, type WindowRecord } from '../../core/whatsapp-windows';
import { writeSessionNotices, type SessionNotice } from '../../core/session-notices';

export type EventRecord =
  | { table: 'logs'; row: typeof appLogs.$inferInsert }
  | { table: 'inputs'; row: typeof sessionInputs.$inferInsert }
  | { table: 'actionResults'; row: typeof actionResults.$inferInsert }
  | { table: 'sessions'; row: typeof sessionRecords.$inferInsert }
  /** A message a bot sent on WhatsApp, its delivery status to follow (features/bots/whatsapp-messages.ts). */
  | { table: 'whatsappMessages'; row: typeof whatsappMessages.$inferInsert }
  /** What a session leaves on its caller's contact: upserted, not copied (contact-records.ts). */
  | { table: 'contacts'; row: ContactRecord }
  /** A WhatsApp user's message to a linked number, for its 24-hour window: upserted (core/whatsapp-windows.ts). */
  | { table: 'windows'; row: WindowRecord }
  /** A gateway's end notice for a session already recorded: added to its record (core/session-notices.ts). */
  | { table: 'notices'; row: SessionNotice };

/** The column of each kind the event tables hold, as COPY's text format writes it. */
type ColumnKind = 'text' | 'json' | 'time' | 'numbers' | 'other';

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
    c.dataType === 'json'
      ? 'json'
      : c.dataType === 'date'
        ? 'time'
        : c.dataType === 'string'
          ? 'text'
          : c.dataType === 'array'
            ? 'numbers'
            : 'other',
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
    // Integer arrays (a session's hop timings) as an array literal; anything not a finite number is left out.
    if (kind === 'numbers')
      return Array.isArray(value)
        ? `{${value
            .filter(Number.isFinite)
            .map((n) => Math.round(n))
            .join(',')}}`
        : '\\N';
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

/** Contact and window records are kept as JSON until their batch is upserted (about one a session, one a message). */
const toJsonEncoder = <T>(table: string) => ({ table, columns: [], encode: (row: T) => JSON.stringify(cleanValue(row)) });
const CONTACT_ENCODER = toJsonEncoder<ContactRecord>('contacts');
const WINDOW_ENCODER = toJsonEncoder<WindowRecord>('whatsapp_windows');
const NOTICE_ENCODER = toJsonEncoder<SessionNotice>('session_records');

const ENCODERS = {
  logs: createRowEncoder(appLogs),
  inputs: createRowEncoder(sessionInputs),
  actionResults: createRowEncoder(actionResults),
  sessions: createRowEncoder(sessionRecords),
  whatsappMessages: createRowEncoder(whatsappMessages),
  contacts: CONTACT_ENCODER,
  windows: WINDOW_ENCODER,
  notices: NOTICE_ENCODER,
} satisfies Record<EventRecord['table'], unknown>;

export interface EventSinkStats {
  /** Rows waiting to be written (queued, or kept to be tried again). */
  buffered: number;
  /** Rows in the write under way: written once it commits (0 between writes). */
  writing: number;
  written: number;
  /** debug and info log lines dropped because the database refused writes for long (see createEventSink). */
  shed: number;
  /** Rows lost because the database refused them as data (a NUL we did not foresee, a constraint), one by one. */
  failedBatches: number;
  /** Times new hops were held until the writer caught up (whenCaughtUp). */
  holds: number;
  /** Writes that failed on the database (a lost connection, a failover) and were tried again whole. */
  retries: number;
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

const isQuiet = (level: string) => level === 'debug' || level === 'info';

/**
 * debug and info log lines may be shed; session records, inputs, action results and errors never are: a hop's row
 * only when all its lines are debug or info and it stored no input.
 */
const isSheddable = (r: EventRecord) =>
  r.table === 'logs' && (r.row.lines ? !r.row.inputs && r.row.lines.every((line) => isQuiet(line.level)) : isQuiet(r.row.level));

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

/** The longest wait between two tries of a write the database did not take (a lost connection, a failover). */
const MAX_RETRY_DELAY_MS = 5000;

/**
 * Writes events in batches: every `flushEveryMs` (250) or as soon as `flushAt` (500) are waiting, `batchSize`
 * (500) rows at a time, one COPY a table. Nothing pushed is dropped while the database takes writes: once
 * `holdAt` (20,000) rows wait, new hops wait (whenCaughtUp) until the writer is back under half of that, which
 * also hands it the CPU the hops were using.
 *
 * A write that fails on the database rather than its rows (a lost connection: a failover, a restart, a network
 * blip; a full disk) keeps its rows, first in line, and is tried again whole after `flushEveryMs`, doubling up to
 * 5 s (isDataRefusal, db/client.ts): a blip costs a retried batch. While it fails, debug and info lines wait in
 * their own queue, bounded by `maxBuffered` (50,000, above `holdAt` so that a writer that takes writes never
 * reaches it): past it the oldest tenth goes at once and is counted. Session records, inputs, action results and
 * error lines are never shed: once `holdAt` of them wait, new hops wait for the database to come back. Only a
 * batch refused for its data (class 22/23/54) is written again row by row, so only the row refused is lost.
 *
 * Holds are per account: rows waiting are counted per account, and past `holdAt` only the accounts holding at
 * least a fair share of it (`holdAt` over the accounts with rows waiting) are held, so one tenant's flood slows
 * that tenant; past `holdAllAt` (twice `holdAt`), which bounds memory however many accounts share the flood,
 * every account is held.
 * Both queues are written merged in arrival order, so rows get ids in the order things happened. Every
 * operation on the hop's path is O(1).
 */
export function createEventSink(
  database: Pick<Database, 'copyRows' | 'db'>,
  log: FastifyBaseLogger,
  options: {
    flushEveryMs?: number;
    flushAt?: number;
    batchSize?: number;
    maxBuffered?: number;
    holdAt?: number;
    /** Past this many rows waiting every account's hops are held, not only the flooding ones' (twice holdAt). */
    holdAllAt?: number;
    /** How long close() keeps trying a database that does not take writes before it gives up (5 s). */
    closeWaitMs?: number;
  } = {},
): EventSink {
  const flushEveryMs = options.flushEveryMs ?? 250;
  const flushAt = options.flushAt ?? 500;
  const batchSize = options.batchSize ?? 500;
  const maxBuffered = options.maxBuffered ?? 50_000;
  const holdAt = options.holdAt ?? 20_000;
  const resumeAt = Math.floor(holdAt / 2);
  const closeWaitMs = options.closeWaitMs ?? 5000;
  const holdAllAt = options.holdAllAt ?? holdAt * 2;
  /** Rows waiting (queued or to be retried, not in a write under way) per account; at 0 an account leaves the map. */
  const waiting = new Map<string, number>();
  const countIn = ({ ownerId }: Queued) => waiting.set(ownerId, (waiting.get(ownerId) ?? 0) + 1);
  const countOut = ({ ownerId }: Queued) => {
    const n = (waiting.get(ownerId) ?? 1) - 1;
    if (n > 0) waiting.set(ownerId, n);
    else waiting.delete(ownerId);
  };
  /** Whether the account holds at least its fair share of `holdAt` (an account alone: all of it). */
  const isOverShare = (ownerId: string) => (waiting.get(ownerId) ?? 0) * waiting.size >= holdAt;
  const kept = new Fifo();
  const sheddable = new Fifo();
  /** Rows of a write the database did not take, in arrival order: they go first in the next batch. */
  let retrying: Queued[] = [];
  let seq = 0;
  const counters = { written: 0, shed: 0, failedBatches: 0, holds: 0, retries: 0 };
  /** The rows of the batch being written (stats). */
  let writing = 0;
  // Writes that failed in a row on the database (0: it takes writes), and when the next try may start.
  let failures = 0;
  let retryAt = 0;
  let hold: { promise: Promise<void>; release: () => void } | undefined;
  function releaseHold(): void {
    hold?.release();
    hold = undefined;
  }
  let flushing: Promise<void> | undefined;
  let isClosed = false;
  const buffered = () => kept.length + sheddable.length + retrying.length;
  /**
   * The rows that hold new hops: every waiting row while the database takes writes; while it does not, only the
   * ones never shed (debug and info lines make way past their bound instead).
   */
  const holdingRows = () => (failures === 0 ? buffered() : kept.length + retrying.length);

  /**
   * The next records in arrival order, taken from the front of both queues: `batchSize`, or up to twenty times
   * that when more wait. A writer that is behind then needs fewer round trips to the database's thread, each of
   * which waits for a turn of this thread's event loop, which a saturating load makes long.
   */
  function takeBatch(): Queued[] {
    // A database that has just failed gets batches of the usual size until it takes one.
    const size = failures === 0 ? Math.max(batchSize, Math.min(buffered(), batchSize * 20)) : batchSize;
    const batch = retrying;
    retrying = [];
    while (batch.length < size) {
      const a = kept.peek();
      const b = sheddable.peek();
      if (!a && !b) break;
      batch.push(!b || (a && a.seq < b.seq) ? kept.shift()! : sheddable.shift()!);
    }
    for (const item of batch) countOut(item);
    return batch;
  }

  /** One COPY a table; false when the database did not take one (its rows, and the batch's rest, wait in `retrying`). */
  async function writeBatch(batch: Queued[]): Promise<boolean> {
    const groups = new Map<EventRecord['table'], Queued[]>();
    for (const item of batch) {
      const items = groups.get(item.table);
      if (items) items.push(item);
      else groups.set(item.table, [item]);
    }
    const unwritten: Queued[] = [];
    for (const [table, items] of groups) {
      if (unwritten.length > 0) unwritten.push(...items);
      else unwritten.push(...(await writeItems(table, items)));
    }
    if (unwritten.length === 0) return true;
    retrying = unwritten.sort((a, b) => a.seq - b.seq);
    for (const item of retrying) countIn(item);
    return false;
  }

  /** One COPY; the error when the database did not take it. */
  async function copy(table: EventRecord['table'], items: Queued[]): Promise<{ err?: unknown }> {
    const { table: name, columns } = ENCODERS[table];
    try {
      if (table === 'contacts')
        await writeContactRecords(
          database.db,
          items.map((i) => JSON.parse(i.line) as ContactRecord),
          new Date(),
        );
      else if (table === 'windows')
        await writeWindowRecords(
          database.db,
          items.map((i) => JSON.parse(i.line) as WindowRecord),
        );
      else if (table === 'notices')
        await writeSessionNotices(
          database.db,
          items.map((i) => JSON.parse(i.line) as SessionNotice),
        );
      else await database.copyRows(name, columns, items.map((i) => i.line).join(''));
      counters.written += items.length;
      if (failures > 0) log.info({ attempts: failures + 1 }, 'the database takes event rows again');
      failures = 0;
      return {};
    } catch (err) {
      return { err };
    }
  }

  /** The database did not take a write: the next try waits `flushEveryMs`, doubled each time, at most 5 s. */
  function noteFailure(err: unknown, table: EventRecord['table'], rows: number): void {
    failures++;
    counters.retries++;
    const delay = Math.min(flushEveryMs * 2 ** (failures - 1), MAX_RETRY_DELAY_MS);
    retryAt = performance.now() + delay;
    // One line when an outage starts and then one a minute or so, not one a try.
    if (failures === 1 || failures % 12 === 0)
      log.warn(
        { err, table, rows, attempts: failures, retryInMs: delay },
        'the database did not take event rows; they are kept and tried again',
      );
  }

  /**
   * One COPY of a table's rows; the rows left to try again (none when written). Text was made storable when the
   * rows were encoded, so a batch refused for its data holds a row we did not foresee: its rows are then written
   * one by one, so only a row that still cannot be stored is lost (and counted), never its batch. A failure of
   * the database itself (isDataRefusal is false) keeps every row not yet written. One line is logged for a
   * batch, not one a row.
   */
  async function writeItems(table: EventRecord['table'], items: Queued[]): Promise<Queued[]> {
    const refused = await copy(table, items);
    if (!('err' in refused)) return [];
    if (!isDataRefusal(refused.err)) {
      noteFailure(refused.err, table, items.length);
      return items;
    }
    if (items.length > 1) log.warn({ err: refused.err, table, rows: items.length }, 'event batch refused; writing its rows one by one');
    let lost = 0;
    let lastErr = refused.err;
    for (const [i, item] of items.entries()) {
      const result = items.length === 1 ? refused : await copy(table, [item]);
      if (!('err' in result)) continue;
      if (!isDataRefusal(result.err)) {
        noteFailure(result.err, table, items.length - i);
        if (lost > 0) reportLost(table, lost, lastErr);
        return items.slice(i);
      }
      lost++;
      lastErr = result.err;
    }
    if (lost > 0) reportLost(table, lost, lastErr);
    return [];
  }

  function reportLost(table: EventRecord['table'], rows: number, err: unknown): void {
    counters.failedBatches += rows;
    log.error({ err, table, rows }, 'event rows could not be written');
  }

  // One statement at a time with a turn of the event loop between them: an embedded database on this thread
  // (tests) would otherwise hold every hop waiting behind a long write. A write the database did not take ends
  // the drain; the timer starts the next once its wait is over.
  async function drain(): Promise<void> {
    try {
      while (buffered() > 0 && performance.now() >= retryAt) {
        const batch = takeBatch();
        writing = batch.length;
        const isWritten = await writeBatch(batch).finally(() => {
          writing = 0;
        });
        if (hold && holdingRows() <= resumeAt) releaseHold();
        if (!isWritten) break;
        await yieldToEventLoop();
      }
    } finally {
      if (hold && holdingRows() <= resumeAt) releaseHold();
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
      const line =
        record.table === 'contacts'
          ? CONTACT_ENCODER.encode(record.row)
          : record.table === 'windows'
            ? WINDOW_ENCODER.encode(record.row)
            : record.table === 'notices'
              ? NOTICE_ENCODER.encode(record.row)
              : ENCODERS[record.table].encode(record.row);
      const item: Queued = { seq: seq++, table: record.table, line, ownerId };
      countIn(item);
      if (isSheddable(record)) {
        sheddable.push(item);
        if (sheddable.length > maxBuffered) counters.shed += sheddable.dropFront(Math.ceil(maxBuffered / 10), countOut);
      } else {
        kept.push(item);
      }
      if (!isClosed && buffered() >= flushAt && !flushing && failures === 0) void flush();
    },
    whenCaughtUp(ownerId) {
      if (holdingRows() < holdAt || isClosed) return null;
      if (holdingRows() < holdAllAt && !isOverShare(ownerId)) return null;
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
      // A database that does not take writes is tried again for a while; what still waits then is lost, and said.
      const deadline = performance.now() + closeWaitMs;
      retryAt = 0;
      await flush();
      while (buffered() > 0 && performance.now() < deadline) {
        await sleep(Math.max(0, Math.min(retryAt, deadline) - performance.now()));
        // The last try comes at the deadline even when the wait would run past it.
        retryAt = Math.min(retryAt, performance.now());
        await flush();
      }
      if (buffered() > 0) {
        const rows = buffered();
        counters.failedBatches += rows;
        log.error({ rows }, 'event rows could not be written before the process stopped');
      }
    },
    stats: () => ({ buffered: buffered(), writing, ...counters }),
  };
}
