/**
 * What the dbaccess drivers share: the database address as the builder wrote it, read and checked before any
 * driver sees it (a host name or IP address, never a local socket or path), the settings a pool is opened
 * with (the address checked by the address guard, which the driver dials: pinned), and the interface every
 * driver implements.
 */
import net from 'node:net';
import { RefusedAddressError, normalizeHost, type AddressRules } from '../net/address-guard';
import { DEFAULT_PORTS, type DbDialect } from '../net/sql-dialect';
import type { BoundQuery } from '../net/sql-template';

/** A failure with a message fit for the builder's logs as it is (no "failed:" prefix is added). */
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

export interface ConnectionSettings extends DbTarget {
  dialect: DbDialect;
  secure: boolean;
  /** The checked address the driver connects to. */
  address: string;
}

export interface PoolOptions {
  /** Connections per pool. */
  poolSize: number;
  /** Longest a connect or a query may take, in ms. */
  timeoutMs: number;
  /** Verify the server certificate when the connection is secure. */
  verifyTls: boolean;
}

export interface QueryOutcome {
  rows: Record<string, unknown>[];
  rowCount: number;
  truncated: boolean;
}

/** A query in flight: settles with rows or an error; `cancel()` asks the server to stop it. */
export interface RunningQuery {
  done: Promise<QueryOutcome>;
  cancel(): void;
}

/** One driver's pool for one connection string. */
export interface DbPool {
  /** Starts a query once a connection is free; at most `maxRows` rows are kept, more sets `truncated`. */
  start(bound: BoundQuery, maxRows: number): Promise<RunningQuery>;
  close(): Promise<void>;
}

/** What each dialect's driver provides: the runner needs nothing else of it. */
export interface DbDriver {
  /** A pool to the checked address; `rules` check any other address the server sends the driver to. */
  openPool(settings: ConnectionSettings, options: PoolOptions, rules: AddressRules): DbPool;
  /** True when the server's own time limit ended the statement (reported as a timeout, like ours). */
  isServerTimeout(err: unknown): boolean;
}
