/**
 * Scale-out (`--only=scaleout`): Node's cluster module as the primary, forking BENCH_WORKERS (2) processes of
 * src/server/main.ts, as `npm start` runs it, that all listen on PORT. The primary accepts each connection and
 * hands it to a worker in turn (round-robin, Node's default on Linux); with keep-alive gateways that is once per
 * connection, never per hop. Workers start one after another, so the first migrates and seeds an empty database
 * before the next one looks at it. The harness gets the workers' pids over IPC (CPU per hop is the sum of every
 * process's), and SIGTERM is passed to each worker, which drains its event buffer as a lone server does.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';

const count = Number(process.env.BENCH_WORKERS ?? '2');
// Workers run main.ts with the primary's node flags (--max-semi-space-size=32 --import tsx).
cluster.setupPrimary({ exec: fileURLToPath(new URL('../../src/server/main.ts', import.meta.url)) });

let isStopping = false;
const workers: Worker[] = [];
cluster.on('exit', (worker, code, signal) => {
  if (!isStopping) {
    console.error(`cluster: worker ${worker.process.pid} exited (${signal ?? code}); stopping`);
    stopAll(1);
  } else if (workers.every((w) => w.isDead())) {
    process.exit(0);
  }
});

function stopAll(exitCode: number): void {
  isStopping = true;
  for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGTERM');
  if (exitCode !== 0 || workers.every((w) => w.isDead())) setTimeout(() => process.exit(exitCode), 100);
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => !isStopping && stopAll(0));
process.on('disconnect', () => !isStopping && stopAll(0));

for (let i = 0; i < count; i++) {
  const worker = cluster.fork();
  workers.push(worker);
  await new Promise<void>((resolve) => worker.once('listening', () => resolve()));
}
process.send?.({ type: 'workers', pids: workers.map((w) => w.process.pid) });
