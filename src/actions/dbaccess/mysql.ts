/**
 * The dbaccess driver for MySQL and MariaDB (mysql2). Rows are streamed and the connection dropped past the
 * cap; a query that outlives its time is stopped with KILL QUERY from a second connection.
 */
import mysql from 'mysql2';
import type { ConnectionSettings, DbDriver, DbPool, PoolOptions, QueryOutcome, RunningQuery } from './shared';

export function buildMysqlConfig(s: ConnectionSettings, o: PoolOptions): mysql.PoolOptions {
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

interface MysqlCommand {
  on(event: 'result', fn: (row: unknown) => void): MysqlCommand;
  on(event: 'error', fn: (err: Error) => void): MysqlCommand;
  on(event: 'end', fn: () => void): MysqlCommand;
}

function openMysqlPool(settings: ConnectionSettings, opts: PoolOptions): DbPool {
  const config = buildMysqlConfig(settings, opts);
  const pool = mysql.createPool(config);
  pool.on('connection', (conn) => conn.on('error', () => {}));
  const killQuery = (threadId: number) => {
    const killer = mysql.createConnection({ ...config, connectTimeout: 2_000 });
    killer.on('error', () => {});
    killer.query(`KILL QUERY ${Number(threadId)}`, () => killer.destroy());
  };
  return {
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
            const cmd = (conn as unknown as { execute(o: { sql: string; values: string[] }): MysqlCommand }).execute({
              sql: bound.text,
              values: bound.values,
            });
            cmd.on('result', (row) => {
              if (settled) return;
              // A statement without rows reports one ResultSetHeader (a class instance); rows are plain objects.
              if (
                row &&
                typeof row === 'object' &&
                'affectedRows' in row &&
                Object.getPrototypeOf(row) !== Object.prototype &&
                Object.getPrototypeOf(row) !== null
              ) {
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

export const mysqlDriver: DbDriver = {
  openPool: openMysqlPool,
  // MariaDB's max_statement_time and MySQL's max_execution_time.
  isServerTimeout: (err) => {
    const code = (err as { code?: unknown }).code;
    return code === 'ER_STATEMENT_TIMEOUT' || code === 'ER_QUERY_TIMEOUT';
  },
};
