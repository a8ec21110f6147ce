/**
 * PGlite on its own thread (src/db/pglite-thread.mjs), behind the part of PGlite's interface that drizzle's
 * pglite driver uses: query, exec, transaction. The embedded database's CPU work (event batches, console
 * queries, migrations) then never runs on the thread that answers USSD hops.
 *
 * Semantics are PGlite's own: one connection, queries in arrival order, and an open transaction holds every
 * other query back until it ends (the thread runs PGlite's `transaction`).
 */
import { Worker } from 'node:worker_threads';

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** drizzle passes identity parsers for dates, times and numerics; the thread applies the same set. */
  parsers?: Record<number, unknown>;
}

export interface ThreadResult {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

interface Queryable {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult>;
  exec(sql: string): Promise<ThreadResult[]>;
}

export interface ThreadTransaction extends Queryable {
  /** `COPY ... FROM '/dev/blob'` inside the transaction (Database.copyRowsInBatches). */
  copy(sql: string, text: string): Promise<void>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface PgliteThreadOptions {
  dataDir?: string;
  loadDataDir?: Blob;
  /** Run the thread below the process's priority (nice 10): hops first when the CPU is short. */
  lowPriority?: boolean;
  /** PGlite's startParams (client.ts, pgliteStartParams). */
  startParams?: string[];
}

type ErrorData = { message: string; name: string } & Record<string, unknown>;
type Reply = { id: number; result?: unknown; error?: ErrorData };
type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

function toError(data: ErrorData): Error {
  const err = new Error(data.message);
  Object.assign(err, data);
  return err;
}

/** The database thread's young generation, in MB (both semi-spaces): a few COPY batches' worth. */
const PGLITE_THREAD_YOUNG_MB = 8;

export class PgliteThreadClient implements Queryable {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #isClosed = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.error) pending.reject(toError(reply.error));
      else pending.resolve(reply.result);
    });
    worker.on('error', (err: Error) => this.#failAll(err));
    worker.on('exit', (code) => this.#failAll(new Error(`the database thread exited (code ${code})`)));
  }

  static async start(options: PgliteThreadOptions = {}): Promise<PgliteThreadClient> {
    const loadDataDir = options.loadDataDir ? await options.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
      workerData: { dataDir: options.dataDir, loadDataDir, lowPriority: options.lowPriority ?? false, startParams: options.startParams },
      transferList: loadDataDir ? [loadDataDir] : [],
      // The thread's JavaScript is small (a query's rows, a COPY's text); without a bound its young generation would
      // grow to the process's --max-semi-space-size (64 MB under load) and stay (docs/operations.md, Memory).
      resourceLimits: { maxYoungGenerationSizeMb: PGLITE_THREAD_YOUNG_MB },
    });
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the database thread exited before it was ready (code ${code})`));
      worker.once('exit', onExit);
      worker.once('error', reject);
      worker.once('message', (message: { ready: boolean; error?: ErrorData }) => {
        worker.off('exit', onExit);
        worker.off('error', reject);
        if (message.ready) resolve();
        else reject(toError(message.error ?? { name: 'Error', message: 'the database thread failed to start' }));
      });
    });
    return new PgliteThreadClient(worker);
  }

  #failAll(err: Error): void {
    this.#isClosed = true;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }

  #call<T>(request: Record<string, unknown>): Promise<T> {
    if (this.#isClosed) return Promise.reject(new Error('the database is closed'));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, ...request });
    });
  }

  #queryable(txId?: number): Queryable {
    return {
      query: (sql, params = [], options = {}) =>
        this.#call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', rawTimes: !!options.parsers, txId }),
      exec: (sql) => this.#call({ op: 'exec', sql, txId }),
    };
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResult> {
    return this.#queryable().query(sql, params, options);
  }

  exec(sql: string): Promise<ThreadResult[]> {
    return this.#queryable().exec(sql);
  }

  /** Commits when `fn` returns, rolls back when it throws or called `rollback()`. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const { txId } = await this.#call<{ txId: number }>({ op: 'begin' });
    let closed = false;
    const inner = this.#queryable(txId);
    const guard = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: ThreadTransaction = {
      query: async (...args) => {
        guard();
        return inner.query(...args);
      },
      exec: async (sql) => {
        guard();
        return inner.exec(sql);
      },
      copy: async (sql, text) => {
        guard();
        await this.#call({ op: 'copy', sql, text, txId });
      },
      rollback: async () => {
        guard();
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      closed = true;
      await this.#call({ op: 'end', txId, commit: false });
      throw err;
    }
    const commit = !closed;
    closed = true;
    await this.#call({ op: 'end', txId, commit });
    return result;
  }

  /** `COPY ... FROM '/dev/blob'` with `text` as the blob (Database.copyRows). */
  async copy(sql: string, text: string): Promise<void> {
    await this.#call({ op: 'copy', sql, text });
  }

  /** The data directory as a tarball (tests clone databases from a migrated copy). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ op: 'dump' })]);
  }

  async close(): Promise<void> {
    if (this.#isClosed) return;
    await this.#call({ op: 'close' });
    this.#isClosed = true;
    await this.#worker.terminate();
  }
}
