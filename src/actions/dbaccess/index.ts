/**
 * dbaccess: one query on the builder's own PostgreSQL, MySQL/MariaDB or SQL Server. Template expressions in
 * the query are bind parameters, never text (net/sql-template.ts). The database address follows the restapi
 * rules (resolved, checked, then pinned, so the driver dials the address that was checked; a SQL Server
 * redirect is checked the same way); local sockets are refused, and so is the server that holds the
 * platform's own database, whatever the database name (`platformServices`, compared by resolved address and
 * port: another database on that server reaches ours through dblink or the server's own trust rules). A query
 * gets 3 s and is cancelled on the server when its time is up; at most 1,000 rows come back. Pools are kept
 * per connection string, at most `maxPools` of them (least recently used closed first).
 *
 * @example
 *   code: { dialect: 'postgres', dburl: 'db.example.com:5432', dbuser: 'app', dbpass: '...', dbName: 'shop',
 *           query: 'select name, balance from customers where msisdn = {{ session.mobile }}', secureConnection: true }
 *   actions.<name> = { rows: [{ name: 'Ama', balance: '20.00' }], rowCount: 1, truncated: false }
 */
import { LRUCache } from 'lru-cache';
import type { ActionInput, ActionOutcome, ActionRunner } from '../../shared/actions/runner';
import type { DbaccessCode } from '../../shared/app';
import { toErrorMessage } from '../../shared/errors';
import { findRefusedAddressError, resolveGuarded, type AddressRules } from '../net/address-guard';
import type { DbDialect } from '../net/sql-dialect';
import { QueryTemplateError, bindQueryTemplate, type BoundQuery } from '../net/sql-template';
import { mssqlDriver } from './mssql';
import { mysqlDriver } from './mysql';
import { postgresDriver } from './postgres';
import { DbaccessFailure, parseDbUrl, type ConnectionSettings, type DbDriver, type DbPool, type DbTarget } from './shared';

export { buildMssqlConfig, createMssqlConnector } from './mssql';
export { buildMysqlConfig } from './mysql';
export { buildPgConfig } from './postgres';
export { DbaccessFailure, parseDbUrl, type DbTarget } from './shared';

/** One driver per dialect: a new dialect breaks the build until it has one. */
const DRIVERS = { postgres: postgresDriver, mysql: mysqlDriver, mssql: mssqlDriver } satisfies Record<DbDialect, DbDriver>;

export interface DbaccessRunnerOptions extends AddressRules {
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

/** A driver's pool as the runner keeps it: closed once evicted from the cache and no query uses it. */
interface PoolEntry {
  settings: ConnectionSettings;
  pool: DbPool;
  active: number;
  evicted: boolean;
  closed: boolean;
}

function remainingMs(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

export function createDbaccessRunner(options: DbaccessRunnerOptions): DbaccessRunner {
  const poolOpts = { poolSize: options.poolSize ?? 4, timeoutMs: options.timeoutMs ?? 3_000, verifyTls: options.verifyTls ?? true };
  const maxRows = options.maxRows ?? 1_000;
  const rules: AddressRules = {
    allowPrivate: options.allowPrivate,
    allowHosts: options.allowHosts,
    platformServices: options.platformServices,
  };

  const closeEntry = (entry: PoolEntry) => {
    if (entry.closed) return;
    entry.closed = true;
    void entry.pool.close().catch(() => {});
  };
  const pools = new LRUCache<string, PoolEntry>({
    max: options.maxPools ?? 50,
    dispose: (entry) => {
      entry.evicted = true;
      if (entry.active === 0) closeEntry(entry);
    },
  });

  async function getEntry(dialect: DbDialect, code: DbaccessCode): Promise<PoolEntry> {
    const parsed = parseDbUrl(code.dburl, dialect);
    const target: DbTarget = {
      host: parsed.host,
      port: parsed.port,
      user: code.dbuser || parsed.user,
      password: code.dbpass || parsed.password,
      database: code.dbName || parsed.database,
    };
    const key = JSON.stringify([
      dialect,
      target.host,
      target.port,
      target.user ?? '',
      target.password ?? '',
      target.database ?? '',
      code.secureConnection,
    ]);
    const existing = pools.get(key);
    if (existing && !existing.evicted) return existing;
    const addresses = await resolveGuarded(target.host, target.port, rules);
    const settings: ConnectionSettings = { ...target, dialect, secure: code.secureConnection, address: addresses[0].address };
    const entry: PoolEntry = {
      settings,
      pool: DRIVERS[dialect].openPool(settings, poolOpts, rules),
      active: 0,
      evicted: false,
      closed: false,
    };
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
        throw new DbaccessFailure(`Query template failed: ${toErrorMessage(err)}`);
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
      const starting = entry.pool.start(bound, maxRows);
      const running = await Promise.race([starting, timeout]);
      if (running === 'timeout') {
        // Still waiting for a connection: when one comes, stop what it runs at once.
        starting.then(
          (r) => {
            r.cancel();
            r.done.catch(() => {});
          },
          () => {},
        );
        throw new TimeoutFailure();
      }
      const outcome = await Promise.race([running.done, timeout]);
      if (outcome === 'timeout') {
        running.cancel();
        running.done.catch(() => {});
        throw new TimeoutFailure();
      }
      const result: DbaccessResult = { rows: outcome.rows, rowCount: outcome.rowCount, truncated: outcome.truncated };
      const logs = [
        {
          level: 'debug' as const,
          message: `Query on ${where} returned ${outcome.rows.length} rows${outcome.truncated ? ` (cut at ${maxRows})` : ''} in ${Date.now() - started} ms`,
        },
      ];
      return { ok: true, result, logs };
    } catch (err) {
      if (err instanceof TimeoutFailure || DRIVERS[dialect].isServerTimeout(err))
        return { ok: false, timedOut: true, error: `Query on ${where} timed out after ${budget} ms` };
      const refusal = findRefusedAddressError(err);
      if (refusal) return { ok: false, error: refusal.message };
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
          await e.pool.close().catch(() => {});
        }),
      );
      pools.clear();
    },
  };
}

class TimeoutFailure extends Error {}

function describeDbError(err: unknown): string {
  const e = err as { message?: string; code?: string; errors?: { message?: string }[] };
  const message = e.message || e.errors?.map((x) => x.message).join('; ') || String(err);
  return e.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}
