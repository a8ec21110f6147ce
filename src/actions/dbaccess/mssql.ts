/**
 * The dbaccess driver for SQL Server (mssql over tedious). Its sockets are opened by our connector, so a
 * routing answer (Azure SQL's redirect) is checked like the first address.
 */
import net from 'node:net';
import type mssql from 'mssql';
import { resolveGuarded, type AddressRules } from '../net/address-guard';
import type { ConnectionSettings, DbDriver, DbPool, PoolOptions, QueryOutcome } from './shared';

/** tedious's connector hook: it is called as `(target, dnsLookup, signal)` (the typings list no arguments). */
type MssqlConnector = (target: { host: string; port: number }, lookup: unknown, signal?: AbortSignal) => Promise<net.Socket>;

/**
 * How tedious opens its sockets: the first one to the checked address, and any other a routing answer names
 * (Azure SQL's redirect: a server can send the driver to another host and port after login) only after the
 * same checks, so a builder's server cannot redirect us to a private address or the platform's database.
 */
export function createMssqlConnector(s: Pick<ConnectionSettings, 'address' | 'port'>, rules: AddressRules): MssqlConnector {
  return async (target, _lookup, signal) => {
    const isChecked = target.host === s.address && target.port === s.port;
    const address = isChecked ? s.address : (await resolveGuarded(target.host, target.port, rules))[0].address;
    return new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ host: address, port: target.port });
      const onAbort = () => {
        socket.destroy();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('error', (err) => {
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      });
      socket.once('connect', () => {
        signal?.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        resolve(socket);
      });
    });
  };
}

export function buildMssqlConfig(s: ConnectionSettings, o: PoolOptions, rules: AddressRules = { allowPrivate: false }): mssql.config {
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
      connector: createMssqlConnector(s, rules) as unknown as () => Promise<net.Socket>,
    },
  };
}

/**
 * The driver (mssql and tedious, some 25 MB of a process's memory) is loaded by the first SQL Server action, not
 * with the server (docs/operations.md, Memory).
 */
let driver: Promise<typeof mssql> | undefined;
const loadMssql = () => (driver ??= import('mssql').then((module) => module.default));

function openMssqlPool(settings: ConnectionSettings, opts: PoolOptions, rules: AddressRules): DbPool {
  const config = buildMssqlConfig(settings, opts, rules);
  let opened: Promise<mssql.ConnectionPool> | null = null;
  let connecting: Promise<mssql.ConnectionPool> | null = null;
  const open = () =>
    (opened ??= loadMssql().then((module) => {
      const pool = new module.ConnectionPool(config);
      pool.on('error', () => {});
      return pool;
    }));
  return {
    async start(bound, maxRows) {
      const mssql = await loadMssql();
      const pool = await open();
      connecting ??= pool.connect().catch((err: unknown) => {
        connecting = null;
        throw err;
      });
      await connecting;
      const request = pool.request();
      request.stream = true;
      for (const [i, value] of bound.values.entries()) request.input(`p${i + 1}`, mssql.NVarChar(mssql.MAX), value);
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
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}

export const mssqlDriver: DbDriver = {
  openPool: openMssqlPool,
  // tedious's requestTimeout ended the request.
  isServerTimeout: (err) => (err as { code?: unknown }).code === 'ETIMEOUT',
};
