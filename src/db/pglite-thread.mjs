/**
 * The embedded database's own thread: one PGlite (Postgres compiled to WebAssembly) answering the requests
 * of `pglite-thread-client.ts` in the main thread. Plain JavaScript so the thread starts without a
 * TypeScript loader. Protocol (every request has an `id`; every reply echoes it with `result` or `error`):
 *
 *   { op: 'query', sql, params, rowMode, rawTimes, txId? }   -> { rows, fields, affectedRows }
 *   { op: 'exec', sql, txId? }                               -> results
 *   { op: 'copy', sql, text, txId? }                         -> null  (COPY ... FROM '/dev/blob', text the blob)
 *   { op: 'begin' }                                          -> { txId }  (PGlite's own transaction: other
 *                                                                queries wait for it, as in one thread)
 *   { op: 'end', txId, commit }                              -> null
 *   { op: 'dump' }                                           -> ArrayBuffer (dumpDataDir, uncompressed)
 *   { op: 'close' }                                          -> null
 *
 * workerData: { dataDir?, loadDataDir?: ArrayBuffer, lowPriority: boolean, startParams?: string[] }. With lowPriority the thread
 * runs at nice 10 (Linux: a thread id is a valid target of setpriority), so under a CPU shortage the main
 * thread answering USSD hops is served first and the event writes catch up afterwards (docs/runtime.md,
 * Events: the hop is never slowed by logging).
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** The parsers drizzle passes with every query: dates, times and numerics stay text (drizzle maps them). */
const RAW_TIMES = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, (value) => value]),
);

function lowerPriority() {
  try {
    // "/proc/thread-self" -> "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

/** Errors cross the thread boundary as plain data: message, name and Postgres's fields (code, detail...). */
function toErrorData(err) {
  const data = { message: String(err?.message ?? err), name: String(err?.name ?? 'Error') };
  for (const [key, value] of Object.entries(err ?? {})) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  }
  return data;
}

const { dataDir, loadDataDir, lowPriority, startParams } = workerData ?? {};
if (lowPriority) lowerPriority();

let pg;
try {
  pg = new PGlite({ dataDir, loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined, extensions: { pg_trgm }, startParams });
  await pg.waitReady;
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: toErrorData(err) });
  process.exit(1);
}

/** Open transactions: txId -> { tx, finish(commit), done }. */
const transactions = new Map();
let nextTxId = 1;

function target(txId) {
  if (txId === undefined) return pg;
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  return open.tx;
}

async function begin() {
  const txId = nextTxId++;
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  let started;
  const ready = new Promise((resolve) => (started = resolve));
  const done = pg.transaction(async (tx) => {
    transactions.set(txId, { tx, finish });
    started();
    const commit = await finished;
    if (!commit && !tx.closed) await tx.rollback();
  });
  // A failing BEGIN rejects `done` before the callback runs.
  await Promise.race([ready, done]);
  transactions.get(txId).done = done;
  return { txId };
}

async function end(txId, commit) {
  const open = transactions.get(txId);
  if (!open) throw new Error(`transaction ${txId} is not open`);
  open.finish(commit);
  try {
    await open.done;
  } finally {
    transactions.delete(txId);
  }
  return null;
}

async function handle(request) {
  switch (request.op) {
    case 'query': {
      const result = await target(request.txId).query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(request.rawTimes ? { parsers: RAW_TIMES } : {}),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await target(request.txId).exec(request.sql)).map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    case 'copy':
      await target(request.txId).query(request.sql, [], { blob: new Blob([request.text]) });
      return null;
    case 'begin':
      return begin();
    case 'end':
      return end(request.txId, request.commit);
    case 'dump': {
      const blob = await pg.dumpDataDir('none');
      return await blob.arrayBuffer();
    }
    case 'close':
      await pg.close();
      return null;
    default:
      throw new Error(`unknown request ${request.op}`);
  }
}

parentPort.on('message', (request) => {
  handle(request).then(
    (result) => parentPort.postMessage({ id: request.id, result }, result instanceof ArrayBuffer ? [result] : []),
    (err) => parentPort.postMessage({ id: request.id, error: toErrorData(err) }),
  );
});
