/**
 * dbaccess: one query on the builder's own PostgreSQL, MySQL/MariaDB or SQL Server (DESIGN.md section 5,
 * Actions). Template expressions in the query are bind parameters, never text (net/sql-template.ts). The
 * database address follows the restapi rules (resolved, checked, then pinned, so the driver dials the address
 * that was checked); local sockets and the platform's own database are refused. A query gets 3 s and is
 * cancelled on the server when its time is up; at most 1,000 rows come back. Pools are kept per connection
 * string, at most `maxPools` of them (least recently used closed first).
 *
 * @example
 *   code: { dialect: 'postgres', dburl: 'db.example.com:5432', dbuser: 'app', dbpass: '...', dbName: 'shop',
 *           query: 'select name, balance from customers where msisdn = {{ session.mobile }}', secureConnection: true }
 *   actions.<name> = { rows: [{ name: 'Ama', balance: '20.00' }], rowCount: 1, truncated: false }
 */
import net from 'node:net';
import { LRUCache } from 'lru-cache';
import mssql from 'mssql';
import mysql from 'mysql2';
import pg from 'pg';
import type { DbaccessCode } from '../shared/app';
import type { ActionInput, ActionOutcome, ActionRunner } from './types';
import { RefusedAddressError, isRefusedAddressError, isThisHostAddress, normalizeHost, resolveGuarded, type AddressRules } from './net/address-guard';
import { DEFAULT_PORTS, type DbDialect } from './net/sql-dialect';
import { QueryTemplateError, bindQueryTemplate, type BoundQuery } from './net/sql-template';

export interface DbaccessRunnerOptions extends AddressRules {
  /** The platform's own databases (DATABASE_URL and the like): `postgres://u:p@host:port/db`, `host:port/db` or `host:port`. */
  forbiddenDatabases?: readonly string[];
  /** Pools kept open at once; the least recently used is closed past this. Default 50. */
  maxPools?: number;
  /** Connections per pool. Default 4. */
  poolSize?: number;
  /** Rows returned at most; more sets `truncated`. Default 1,000. */
  maxRows?: number;
  /** Longest a query may run, in ms; the action's deadline also applies. Default 3,000. */
  timeoutMs?: number;
  /** Verify the server certificate when secureConnection is on. Default true. */
  verifyTls?: boolean;
}

export interface DbaccessResult {
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
}

export type DbaccessRunner = ActionRunner<'dbaccess'> & { close(): Promise<void>; readonly poolCount: number };

export class DbaccessFailure extends Error {}

export interface DbTarget {
  host: string;
  port: number;
  user?: string;
  password?: string;
  database?: string;
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

function checkHost(host: string, original: string): string {
  const h = normalizeHost(host);
  if (!h) throw new RefusedAddressError('Refused: a database URL without a host (a local socket) is not allowed');
  if (h.startsWith('/') || h.includes('/') || h.includes('\\') || h.startsWith('.')) {
    throw new RefusedAddressError(`Refused: ${original} names a local socket or path, not a network address`);
  }
  if (!net.isIP(h) && !HOST_NAME.test(h)) throw new DbaccessFailure(`Database address "${original}" is not a host name or IP address`);
  return h;
}

function checkPort(port: string | number | null | undefined, dialect: DbDialect): number {
  if (port === null || port === undefined || port === '') return DEFAULT_PORTS[dialect];
  const n = Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new DbaccessFailure(`Database port ${port} is not a port number`);
  return n;
}

/**
 * Reads `host`, `host:port`, `[v6]:port` or a URL (`postgres://user:pass@host:port/db`). Refuses a socket path,
 * a URL without a host and the `host`/`socket` parameters drivers use to point at sockets.
 */
export function parseDbUrl(dburl: string, dialect: DbDialect): DbTarget {
  const value = dburl.trim();
  if (!value) throw new DbaccessFailure('Database URL is required.');
  if (value.startsWith('/') || value.startsWith('.') || value.startsWith('\\') || /^[a-z]:\\/i.test(value)) {
    throw new RefusedAddressError(`Refused: ${value} names a local socket or path, not a network address`);
  }
  if (value.includes('://')) {
    // `postgres://user@/db` is how drivers spell "the default local socket"; new URL() rejects it anyway.
    if (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*@)?([/?#]|$)/i.test(value)) {
      throw new RefusedAddressError('Refused: a database URL without a host (a local socket) is not allowed');
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new DbaccessFailure('Database URL is not a valid URL');
    }
    for (const key of url.searchParams.keys()) {
      if (['host', 'hostaddr', 'socket', 'socketpath', 'unix_socket'].includes(key.toLowerCase())) {
        throw new RefusedAddressError(`Refused: the database URL's ${key} parameter is not allowed (it can name a local socket)`);
      }
    }
    const rawHost = decodeURIComponent(url.hostname);
    const host = checkHost(rawHost, rawHost || value);
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
    if (database?.includes('/')) throw new DbaccessFailure('Database URL has a path that is not a database name');
    return {
      host,
      port: checkPort(url.port, dialect),
      user: url.username ? decodeURIComponent(url.username) : undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      database,
    };
  }
  const bracket = /^\[([^\]]+)\](?::(\d*))?$/.exec(value);
  if (bracket) return { host: checkHost(bracket[1], value), port: checkPort(bracket[2], dialect) };
  const slash = value.indexOf('/');
  const hostPort = slash === -1 ? value : value.slice(0, slash);
  const database = slash === -1 ? undefined : value.slice(slash + 1) || undefined;
  const colons = hostPort.split(':').length - 1;
  if (colons > 1) return { host: checkHost(hostPort, value), port: DEFAULT_PORTS[dialect], database };
  const [host, port] = hostPort.split(':');
  return { host: checkHost(host, value), port: checkPort(port, dialect), database };
}

interface ConnectionSettings extends DbTarget {
  dialect: DbDialect;
  secure: boolean;
  /** The checked address the driver connects to. */
  address: string;
}

/** Driver options, built apart from the drivers so they can be checked without a server. */
export function buildPgConfig(s: ConnectionSettings, o: { poolSize: number; timeoutMs: number; verifyTls: boolean }): pg.PoolConfig {
  return {
    host: s.address,
    port: s.port,
    user: s.user,
    password: s.password ?? '',
    database: s.database,
    ssl: s.secure ? { rejectUnauthorized: o.verifyTls, servername: net.isIP(s.host) ? undefined : s.host } : false,
    max: o.poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: o.timeoutMs,
    // A backstop: the server ends a statement that outlives the action even if our cancel request is lost.
    // A little later than the action's own limit, so the cancel at the deadline is what normally stops it.
    statement_timeout: o.timeoutMs + 1_000,
    lock_timeout: o.timeoutMs,
    idle_in_transaction_session_timeout: 10_000,
    application_name: 'dialflow-action',
    allowExitOnIdle: true,
  };
}

export function buildMysqlConfig(s: ConnectionSettings, o: { poolSize: number; timeoutMs: number; verifyTls: boolean }): mysql.PoolOptions {
  return {
    host: s.address,
    port: s.port,
    user: s.user,
    password: s.password,
    database: s.database,
    ssl: s.secure ? { rejectUnauthorized: o.verifyTls } : undefined,
    connectionLimit: o.poolSize,
    maxIdle: o.poolSize,
    idleTimeout: 30_000,
    queueLimit: 50,
    connectTimeout: o.timeoutMs,
    // LOAD DATA LOCAL would let a hostile server read files from our disk: the capability is not offered
    // and no stream factory exists to answer it.
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    infileStreamFactory: undefined,
    multipleStatements: false,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    enableKeepAlive: true,
  };
}

export function buildMssqlConfig(s: ConnectionSettings, o: { poolSize: number; timeoutMs: number; verifyTls: boolean }): mssql.config {
  return {
    server: s.address,
    port: s.port,
    user: s.user,
    password: s.password,
    database: s.database,
    connectionTimeout: o.timeoutMs,
    requestTimeout: o.timeoutMs,
    pool: { max: o.poolSize, min: 0, idleTimeoutMillis: 30_000 },
    options: {
      encrypt: s.secure,
      trustServerCertificate: !o.verifyTls,
      // The driver dials the checked IP; the certificate is still checked against the name the builder gave.
      serverName: net.isIP(s.host) ? undefined : s.host,
      enableArithAbort: true,
      appName: 'dialflow-action',
    },
  };
}

interface QueryOutcome {
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
}

/** A query in flight: settles with rows or an error; `cancel()` asks the server to stop it. */
interface RunningQuery {
  done: Promise<QueryOutcome>;
  cancel(): void;
}

interface PoolEntry {
  settings: ConnectionSettings;
  active: number;
  evicted: boolean;
  closed: boolean;
  start(bound: BoundQuery, maxRows: number, timeoutMs: number): Promise<RunningQuery>;
  close(): Promise<void>;
}

/** Sends PostgreSQL's CancelRequest for a backend (a separate short connection, as psql does on Ctrl-C). */
function sendPgCancel(address: string, port: number, processID: number, secretKey: number): void {
  const socket = net.connect({ host: address, port });
  socket.setTimeout(2_000, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => {
    const packet = Buffer.alloc(16);
    packet.writeInt32BE(16, 0);
    packet.writeInt32BE(80877102, 4);
    packet.writeInt32BE(processID, 8);
    packet.writeInt32BE(secretKey, 12);
    socket.end(packet);
  });
}

interface PgConnectionLike {
  close(msg: { type: string; name?: string }): void;
  sync(): void;
}

/**
 * A pg query that fetches at most `rows` rows: the portal is executed with a row limit, and when the server
 * suspends it (more rows waiting) the portal is closed instead of fetching the next page.
 */
class CappedPgQuery extends pg.Query {
  truncated = false;
  handlePortalSuspended(connection: PgConnectionLike): void {
    this.truncated = true;
    connection.close({ type: 'P', name: '' });
    connection.sync();
  }
  handleError(err: Error, connection: PgConnectionLike): void {
    // With a row limit the initial Sync is not pipelined; without one here the connection would wait forever.
    try {
      connection.sync();
    } catch {
      // the connection is gone; the pool drops it
    }
    (pg.Query.prototype as unknown as { handleError(e: Error, c: PgConnectionLike): void }).handleError.call(this, err, connection);
  }
}

function createPgEntry(settings: ConnectionSettings, opts: Required<Pick<DbaccessRunnerOptions, 'poolSize' | 'timeoutMs' | 'verifyTls'>>): PoolEntry {
  const pool = new pg.Pool(buildPgConfig(settings, opts));
  pool.on('error', () => {});
  return {
    settings,
    active: 0,
    evicted: false,
    closed: false,
    async start(bound, maxRows) {
      const client = await pool.connect();
      let released = false;
      const release = (destroy: boolean) => {
        if (released) return;
        released = true;
        client.release(destroy);
      };
      const query = new CappedPgQuery({ text: bound.text, values: bound.values, rows: maxRows + 1 } as pg.QueryConfig);
      const done = new Promise<QueryOutcome>((resolve, reject) => {
        (query as unknown as { callback: (err: Error | null, res?: pg.QueryResult) => void }).callback = (err, res) => {
          release(false);
          if (err || !res) return reject(err ?? new Error('no result'));
          const rows = (res.rows ?? []) as Record<string, unknown>[];
          const truncated = query.truncated || rows.length > maxRows;
          const kept = rows.slice(0, maxRows);
          const isRowCommand = !res.command || res.command === 'SELECT' || res.fields?.length > 0;
          resolve({ rows: kept, rowCount: isRowCommand ? kept.length : (res.rowCount ?? 0), truncated });
        };
      });
      client.query(query);
      return {
        done,
        cancel() {
          const c = client as unknown as { processID: number | null; secretKey: number | null };
          if (c.processID !== null && c.secretKey !== null) sendPgCancel(settings.address, settings.port, c.processID, c.secretKey);
          // If the cancel is lost, the statement_timeout ends it; past that, drop the connection.
          setTimeout(() => release(true), opts.timeoutMs + 2_000).unref();
        },
      };
    },
    close: () => pool.end(),
  };
}

interface MysqlCommand {
  on(event: 'result', fn: (row: unknown) => void): MysqlCommand;
  on(event: 'error', fn: (err: Error) => void): MysqlCommand;
  on(event: 'end', fn: () => void): MysqlCommand;
}

function createMysqlEntry(settings: ConnectionSettings, opts: Required<Pick<DbaccessRunnerOptions, 'poolSize' | 'timeoutMs' | 'verifyTls'>>): PoolEntry {
  const config = buildMysqlConfig(settings, opts);
  const pool = mysql.createPool(config);
  pool.on('connection', (conn) => conn.on('error', () => {}));
  const killQuery = (threadId: number) => {
    const killer = mysql.createConnection({ ...config, connectTimeout: 2_000 });
    killer.on('error', () => {});
    killer.query(`KILL QUERY ${Number(threadId)}`, () => killer.destroy());
  };
  return {
    settings,
    active: 0,
    evicted: false,
    closed: false,
    start(bound, maxRows) {
      return new Promise<RunningQuery>((resolveStart, rejectStart) => {
        pool.getConnection((err, conn) => {
          if (err) return rejectStart(err);
          let settled = false;
          let finished = false;
          const finish = (destroy: boolean) => {
            if (finished) return;
            finished = true;
            if (destroy) conn.destroy();
            else conn.release();
          };
          const rows: Record<string, unknown>[] = [];
          let affected: number | null = null;
          const done = new Promise<QueryOutcome>((resolve, reject) => {
            const cmd = (conn as unknown as { execute(o: { sql: string; values: string[] }): MysqlCommand }).execute({ sql: bound.text, values: bound.values });
            cmd.on('result', (row) => {
              if (settled) return;
              // A statement without rows reports one ResultSetHeader (a class instance); rows are plain objects.
              if (row && typeof row === 'object' && 'affectedRows' in row && Object.getPrototypeOf(row) !== Object.prototype && Object.getPrototypeOf(row) !== null) {
                affected = (row as { affectedRows: number }).affectedRows;
                return;
              }
              if (rows.length >= maxRows) {
                // More rows than we return: stop reading, drop the connection (the server stops when it cannot write).
                settled = true;
                finish(true);
                resolve({ rows, rowCount: rows.length, truncated: true });
                return;
              }
              rows.push(row as Record<string, unknown>);
            });
            cmd.on('error', (e) => {
              finish(false);
              if (settled) return;
              settled = true;
              reject(e);
            });
            cmd.on('end', () => {
              finish(false);
              if (settled) return;
              settled = true;
              resolve({ rows, rowCount: affected ?? rows.length, truncated: false });
            });
          });
          resolveStart({
            done,
            cancel() {
              killQuery(conn.threadId);
              setTimeout(() => finish(true), 2_000).unref();
            },
          });
        });
      });
    },
    close: () => new Promise<void>((resolve) => pool.end(() => resolve())),
  };
}

function createMssqlEntry(settings: ConnectionSettings, opts: Required<Pick<DbaccessRunnerOptions, 'poolSize' | 'timeoutMs' | 'verifyTls'>>): PoolEntry {
  const pool = new mssql.ConnectionPool(buildMssqlConfig(settings, opts));
  pool.on('error', () => {});
  let connecting: Promise<mssql.ConnectionPool> | null = null;
  return {
    settings,
    active: 0,
    evicted: false,
    closed: false,
    async start(bound, maxRows) {
      connecting ??= pool.connect().catch((err: unknown) => {
        connecting = null;
        throw err;
      });
      await connecting;
      const request = pool.request();
      request.stream = true;
      bound.values.forEach((value, i) => request.input(`p${i + 1}`, mssql.NVarChar(mssql.MAX), value));
      const rows: Record<string, unknown>[] = [];
      let affected = 0;
      let settled = false;
      const done = new Promise<QueryOutcome>((resolve, reject) => {
        request.on('row', (row: Record<string, unknown>) => {
          if (settled) return;
          if (rows.length >= maxRows) {
            settled = true;
            request.cancel();
            resolve({ rows, rowCount: rows.length, truncated: true });
            return;
          }
          rows.push(row);
        });
        request.on('rowsaffected', (n: number) => {
          affected += n;
        });
        request.on('error', (err: Error) => {
          if (settled) return;
          settled = true;
          reject(err);
        });
        request.on('done', () => {
          if (settled) return;
          settled = true;
          resolve({ rows, rowCount: rows.length || affected, truncated: false });
        });
      });
      void request.query(bound.text);
      return { done, cancel: () => request.cancel() };
    },
    close: () => pool.close(),
  };
}

interface ForbiddenTarget {
  host: string;
  port: number;
  database?: string;
}

function parseForbidden(entry: string): ForbiddenTarget {
  const value = entry.trim();
  if (value.includes('://')) {
    const url = new URL(value);
    return {
      host: normalizeHost(decodeURIComponent(url.hostname)) || 'localhost',
      port: url.port ? Number(url.port) : DEFAULT_PORTS.postgres,
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined,
    };
  }
  const target = parseDbUrl(value, 'postgres');
  return { host: target.host, port: target.port, database: target.database };
}

/** Loopback, unspecified and this machine's own addresses all reach the same local services. */
function addressIdentity(address: string): string {
  return isThisHostAddress(address) ? 'this-host' : normalizeHost(address);
}

async function resolveIdentities(host: string): Promise<Set<string>> {
  if (net.isIP(host)) return new Set([addressIdentity(host)]);
  try {
    const { promises: dns } = await import('node:dns');
    const addresses = await dns.lookup(host, { all: true });
    return new Set(addresses.map((a) => addressIdentity(a.address)));
  } catch {
    return new Set([`name:${host}`]);
  }
}

function remainingMs(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

export function createDbaccessRunner(options: DbaccessRunnerOptions): DbaccessRunner {
  const poolOpts = { poolSize: options.poolSize ?? 4, timeoutMs: options.timeoutMs ?? 3_000, verifyTls: options.verifyTls ?? true };
  const maxRows = options.maxRows ?? 1_000;
  const rules: AddressRules = { allowPrivate: options.allowPrivate, allowHosts: options.allowHosts };
  const forbidden = (options.forbiddenDatabases ?? []).filter((s) => s.trim()).map(parseForbidden);

  const closeEntry = (entry: PoolEntry) => {
    if (entry.closed) return;
    entry.closed = true;
    void entry.close().catch(() => {});
  };
  const pools = new LRUCache<string, PoolEntry>({
    max: options.maxPools ?? 50,
    dispose: (entry) => {
      entry.evicted = true;
      if (entry.active === 0) closeEntry(entry);
    },
  });

  async function assertNotOwnDatabase(dialect: DbDialect, target: DbTarget, addresses: string[]): Promise<void> {
    if (!forbidden.length) return;
    const identities = new Set(addresses.map(addressIdentity));
    const database = target.database ?? (dialect === 'postgres' ? target.user : undefined);
    for (const entry of forbidden) {
      if (entry.port !== target.port) continue;
      const theirs = await resolveIdentities(entry.host);
      if (![...theirs].some((id) => identities.has(id))) continue;
      // Only PostgreSQL keeps databases apart within a server; MySQL and SQL Server can name other databases in a query.
      if (dialect === 'postgres' && entry.database && database && entry.database !== database) continue;
      throw new RefusedAddressError(`Refused: ${target.host}:${target.port} is the platform's own database`);
    }
  }

  async function getEntry(dialect: DbDialect, code: DbaccessCode): Promise<PoolEntry> {
    const parsed = parseDbUrl(code.dburl, dialect);
    const target: DbTarget = {
      host: parsed.host,
      port: parsed.port,
      user: code.dbuser || parsed.user,
      password: code.dbpass || parsed.password,
      database: code.dbName || parsed.database,
    };
    const key = JSON.stringify([dialect, target.host, target.port, target.user ?? '', target.password ?? '', target.database ?? '', code.secureConnection]);
    const existing = pools.get(key);
    if (existing && !existing.evicted) return existing;
    const addresses = await resolveGuarded(target.host, target.port, rules);
    await assertNotOwnDatabase(dialect, target, addresses.map((a) => a.address));
    const settings: ConnectionSettings = { ...target, dialect, secure: code.secureConnection, address: addresses[0].address };
    const entry = dialect === 'postgres' ? createPgEntry(settings, poolOpts) : dialect === 'mysql' ? createMysqlEntry(settings, poolOpts) : createMssqlEntry(settings, poolOpts);
    const raced = pools.get(key);
    if (raced && !raced.evicted) {
      closeEntry(entry);
      return raced;
    }
    pools.set(key, entry);
    return entry;
  }

  async function run(input: ActionInput<'dbaccess'>): Promise<ActionOutcome> {
    const code = input.action.code;
    const dialect = code.dialect;
    const started = Date.now();
    const deadline = Math.min(input.deadline, started + poolOpts.timeoutMs);
    const budget = Math.max(0, deadline - started);
    let where = 'the database';
    let entry: PoolEntry | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      if (!code.query.trim()) throw new DbaccessFailure('Query is required.');
      let bound: BoundQuery;
      try {
        bound = bindQueryTemplate(code.query, dialect, (source) => input.renderTemplate(source));
      } catch (err) {
        if (err instanceof QueryTemplateError) throw new DbaccessFailure(err.message);
        throw new DbaccessFailure(`Query template failed: ${(err as Error).message}`);
      }
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remainingMs(deadline));
      });
      const gotEntry = getEntry(dialect, code);
      const first = await Promise.race([gotEntry, timeout]);
      if (first === 'timeout') {
        gotEntry.catch(() => {});
        throw new TimeoutFailure();
      }
      entry = first;
      where = `${entry.settings.host}:${entry.settings.port}`;
      entry.active++;
      const starting = entry.start(bound, maxRows, remainingMs(deadline));
      const running = await Promise.race([starting, timeout]);
      if (running === 'timeout') {
        // Still waiting for a connection: when one comes, stop what it runs at once.
        starting.then((r) => {
          r.cancel();
          r.done.catch(() => {});
        }, () => {});
        throw new TimeoutFailure();
      }
      const outcome = await Promise.race([running.done, timeout]);
      if (outcome === 'timeout') {
        running.cancel();
        running.done.catch(() => {});
        throw new TimeoutFailure();
      }
      const result: DbaccessResult = { rows: outcome.rows, rowCount: outcome.rowCount, truncated: outcome.truncated };
      const logs = [{ level: 'debug' as const, message: `Query on ${where} returned ${outcome.rows.length} rows${outcome.truncated ? ` (cut at ${maxRows})` : ''} in ${Date.now() - started} ms` }];
      return { ok: true, result, logs };
    } catch (err) {
      if (err instanceof TimeoutFailure || isServerTimeout(err)) return { ok: false, timedOut: true, error: `Query on ${where} timed out after ${budget} ms` };
      if (isRefusedAddressError(err)) return { ok: false, error: (err as Error).message };
      if (err instanceof DbaccessFailure) return { ok: false, error: err.message };
      return { ok: false, error: `Query on ${where} failed: ${describeDbError(err)}` };
    } finally {
      clearTimeout(timer);
      if (entry) {
        entry.active--;
        if (entry.evicted && entry.active === 0) closeEntry(entry);
      }
    }
  }

  return {
    run,
    get poolCount() {
      return pools.size;
    },
    async close() {
      const entries = [...pools.values()];
      await Promise.all(
        entries.map(async (e) => {
          if (e.closed) return;
          e.closed = true;
          await e.close().catch(() => {});
        }),
      );
      pools.clear();
    },
  };
}

class TimeoutFailure extends Error {}

/** The server's own timeout ended the statement (postgres query_canceled, MariaDB/MySQL statement time limits). */
function isServerTimeout(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === '57014' || code === 'ER_STATEMENT_TIMEOUT' || code === 'ER_QUERY_TIMEOUT' || code === 'ETIMEOUT';
}

function describeDbError(err: unknown): string {
  const e = err as { message?: string; code?: string; errors?: { message?: string }[] };
  const message = e.message || e.errors?.map((x) => x.message).join('; ') || String(err);
  return e.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}
