/**
 * The dbaccess driver for PostgreSQL (pg). A query fetches at most one row past the cap, and one that outlives
 * its time is cancelled on the server with a CancelRequest, as psql does on Ctrl-C.
 */
import net from 'node:net';
import pg from 'pg';
import type { ConnectionSettings, DbDriver, DbPool, PoolOptions, QueryOutcome } from './shared';

/** Driver options, built apart from the drivers so they can be checked without a server. */
export function buildPgConfig(s: ConnectionSettings, o: PoolOptions): pg.PoolConfig {
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

function openPgPool(settings: ConnectionSettings, opts: PoolOptions): DbPool {
  const pool = new pg.Pool(buildPgConfig(settings, opts));
  // A builder's server that ends a connection (a restart, pg_terminate_backend, on purpose) must never crash the
  // process: the pool listens on idle clients only, so every client gets a listener of its own for life.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return {
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
          // Only a statement's own error (severity ERROR) leaves the session usable; a FATAL (the server ended
          // it) or a socket error must not hand the dead connection to the next query.
          release(!!err && (err as { severity?: string }).severity !== 'ERROR');
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

export const postgresDriver: DbDriver = {
  openPool: openPgPool,
  // 57014 query_canceled: the statement_timeout backstop ended it.
  isServerTimeout: (err) => (err as { code?: unknown }).code === '57014',
};
