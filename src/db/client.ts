import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MIGRATIONS_LOCK_KEY, withSessionLock } from './advisory-lock';
import { partitionEventTables } from './partitions';
import { PgliteThreadClient } from './pglite-thread-client';
import * as schema from './schema';

const execFileAsync = promisify(execFile);

/**
 * The database, or a transaction on it: drizzle's PgTransaction extends PgDatabase, so a helper that takes a
 * `Db` runs inside `db.transaction(async (tx) => helper(tx))` as it is, with no cast.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the committed migrations (forward only); on PostgreSQL, then partitions the event tables (partitions.ts). */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Bulk-loads rows with `COPY table (columns) FROM ...`: `text` is the rows in PostgreSQL's COPY text format
   * (one line each, tab-separated, `\N` for null; the event sink's row encoder writes it). The event sink's
   * batches go this way: a third cheaper than an INSERT of the same rows on PGlite, and on PostgreSQL one
   * stream rather than a statement of parameters.
   */
  copyRows(table: string, columns: string[], text: string): Promise<void>;
  /**
   * Loads rows in batches, all or none: `batches` yields each batch's text (COPY's text format, as for copyRows)
   * when it is sent, so only one is built and held at a time (the media store's chunks of a file). On PostgreSQL
   * one COPY fed a batch at a time (one statement: all or none by itself); on PGlite one COPY a batch inside one
   * transaction, since PGlite takes a COPY's input whole. copyRows cannot do this inside `db.transaction`: on
   * PGlite it waits for the transaction to end (one connection; the transaction waits for it in turn, for ever),
   * and on PostgreSQL it runs on a connection of its own, outside the transaction.
   */
  copyRowsInBatches(table: string, columns: string[], batches: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Whether the database refused a statement for the data it carried: SQLSTATE class 22 (data exception: bad
 * text, a value out of range), 23 (a constraint) or 54 (a program limit: an index row too large). Such a row
 * is refused again however often it is sent. Anything else (a lost connection: 57P01 admin_shutdown, 57P02,
 * 57P03, class 08, ECONNRESET, EPIPE, ECONNREFUSED, "Connection terminated"; a read-only standby after a
 * failover, 25006; a full disk, 53100; a thread that stopped) is the database, not the row: tried again later,
 * the same rows go in.
 */
export function isDataRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code);
}

/**
 * drizzle-orm 0.45's transaction() sends BEGIN before the try/finally that gives its client back to the pool
 * (drizzle-team/drizzle-orm#6241): a BEGIN on a connection that ended while it sat idle in the pool (a restart, a
 * failover, pg_terminate_backend) kept that client checked out for good, and a few blinks left the pool empty, every
 * statement of the process waiting for a client. Here a BEGIN that fails gives its client back, with the error (the
 * pool drops it), and the release drizzle would make once fixed is then a no-op.
 */
function releaseOnFailedBegin(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const result = query(config, ...rest);
    const text = (config as { text?: unknown } | null)?.text;
    if (result instanceof Promise && typeof text === 'string' && /^begin\b/i.test(text)) {
      result.catch((err: Error) => {
        client.release(err);
        client.release = () => {};
      });
    }
    return result;
  }) as typeof client.query;
}

const copyStatement = (table: string, columns: string[], source: string) =>
  `copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from ${source}`;

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/** PGlite's shared buffers unless PGLITE_SHARED_BUFFERS_MB says otherwise (docs/operations.md, Memory). */
export const DEFAULT_PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * PGlite's start parameters: its own defaults, and the memory settings we choose (docs/operations.md, Memory).
 * PostgreSQL's default shared_buffers (128 MB) is written at start inside PGlite's wasm heap, so it is resident
 * from the first second; 16 MB holds the hot pages of a hop's writes and lookups, and the operating system's page
 * cache keeps the rest of the data folder's pages. One connection ever connects: max_connections 8 sizes the
 * lock and process tables for it rather than for 100.
 */
export function pgliteStartParams(sharedBuffersMb = DEFAULT_PGLITE_SHARED_BUFFERS_MB): string[] {
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', 'max_connections=8'];
}

async function createDataFolder(dataDir: string, startParams: string[]): Promise<void> {
  const script = fileURLToPath(new URL('./pglite-create.mjs', import.meta.url));
  await execFileAsync(process.execPath, [script, dataDir, JSON.stringify(startParams)], { timeout: 120_000 });
}

export type DatabaseOptions =
  | { url: string; poolSize?: number }
  /**
   * `dataDir` undefined keeps the database in memory; `loadDataDir` starts from a dumped copy. `thread`
   * runs PGlite on its own worker thread (the server does: its CPU work then never delays a hop), with
   * `lowPriority` below the process's priority. `sharedBuffersMb`: PGlite's shared_buffers (pgliteStartParams).
   */
  | { dataDir?: string; loadDataDir?: Blob | File; thread?: boolean; lowPriority?: boolean; sharedBuffersMb?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    // A connect that gets no answer (the server's address unreachable) fails in 10 s rather than waiting forever;
    // keep-alive finds a connection whose server vanished without closing it.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    // A lost connection (a failover, a restart, pg_terminate_backend, a network blip) must never crash the
    // process. The pool listens on idle clients only; a client checked out (a COPY, a transaction) emits 'error'
    // with no listener, so every client gets one of its own for life. The statement in flight gets the error
    // too, and its caller decides (the event sink retries); the pool drops the dead client when it comes back.
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
      releaseOnFailedBegin(client);
    });
    const db: Db = drizzlePg({ client: pool, schema });
    return {
      db,
      kind: 'postgres',
      // On one connection for its locks: the migrations, one process at a time (processes of a fleet start at once),
      // then the event tables partitioned by day (partitions.ts).
      async migrate() {
        const client = await pool.connect();
        try {
          const single = drizzlePg({ client, schema });
          await withSessionLock(single, MIGRATIONS_LOCK_KEY, () => migratePg(single, { migrationsFolder: MIGRATIONS_DIR }));
          await partitionEventTables(single);
        } finally {
          client.release();
        }
      },
      ping: async () => {
        await pool.query('select 1');
      },
      async copyRows(table, columns, text) {
        const client = await pool.connect();
        try {
          const stream = client.query(copyFrom(copyStatement(table, columns, 'stdin')));
          await new Promise<void>((resolve, reject) => {
            stream.on('finish', resolve);
            stream.on('error', reject);
            stream.end(text);
          });
          client.release();
        } catch (err) {
          // A connection that failed mid-COPY is not given back to the pool as it is.
          client.release(err as Error);
          throw err;
        }
      },
      async copyRowsInBatches(table, columns, batches) {
        const client = await pool.connect();
        try {
          await pipeline(Readable.from(batches), client.query(copyFrom(copyStatement(table, columns, 'stdin'))));
          client.release();
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
      },
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const startThread = () =>
    PgliteThreadClient.start({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      lowPriority: options.lowPriority,
      startParams: pgliteStartParams(options.sharedBuffersMb),
    });
  // Creating a data folder (initdb) grows PGlite's WebAssembly memory to about 700 MB, which the process would keep:
  // the server's thread creates a new folder in a process of its own (pglite-create.mjs, about a second, once), so a
  // first start holds what a restart holds (docs/operations.md, "Memory and start").
  const isNewFolder = !!options.dataDir && !options.loadDataDir && !existsSync(join(options.dataDir, 'PG_VERSION'));
  if (options.thread && isNewFolder) await createDataFolder(options.dataDir!, pgliteStartParams(options.sharedBuffersMb));
  // pg_trgm backs the session word search (migration 0004), as on PostgreSQL (the thread loads it too).
  const client = options.thread
    ? ((await startThread()) as unknown as PGlite)
    : new PGlite({
        dataDir: options.dataDir,
        loadDataDir: options.loadDataDir,
        extensions: { pg_trgm },
        startParams: pgliteStartParams(options.sharedBuffersMb),
      });
  await client.waitReady;
  const db: Db = drizzlePglite({ client, schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_DIR }),
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    // PGlite reads COPY's input from a blob it names /dev/blob.
    copyRows: async (table, columns, text) => {
      const statement = copyStatement(table, columns, "'/dev/blob'");
      if (client instanceof PgliteThreadClient) await client.copy(statement, text);
      else await client.query(statement, [], { blob: new Blob([text]) });
    },
    copyRowsInBatches: async (table, columns, batches) => {
      const statement = copyStatement(table, columns, "'/dev/blob'");
      if (client instanceof PgliteThreadClient) {
        const thread: PgliteThreadClient = client;
        await thread.transaction(async (tx) => {
          for (const text of batches) await tx.copy(statement, text);
        });
      } else
        await client.transaction(async (tx) => {
          for (const text of batches) await tx.query(statement, [], { blob: new Blob([text]) });
        });
    },
    close: () => client.close(),
  };
}

/** Dumps an in-memory PGlite so tests can start new databases from a migrated copy cheaply. */
export async function dumpPglite(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client: Pick<PGlite, 'dumpDataDir'> }).$client;
  return client.dumpDataDir('none');
}
