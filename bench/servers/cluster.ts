/**
 * Scale-out (`--only=scaleout`): Node's cluster module as the primary, forking BENCH_WORKERS (2) processes of
 * the server as `npm start` runs it (the bundle; the sources with `--source`), that all listen on PORT. The primary accepts each connection and
 * hands it to a worker in turn (round-robin, Node's default on Linux); with keep-alive gateways that is once per
 * connection, never per hop. Workers start one after another, so the first migrates and seeds an empty database
 * before the next one looks at it. The harness gets the workers' pids over IPC (CPU per hop is the sum of every
 * process's), and SIGTERM is passed to each worker, which drains its event buffer as a lone server does.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';

const count = Number(process.env.BENCH_WORKERS ?? '2');
// Workers run the server file the harness names (BENCH_SERVER_SCRIPT: the bundle npm start runs, or the sources) with
// the primary's node flags, less tsx's loader for the bundle.
const script = process.env.BENCH_SERVER_SCRIPT ?? fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));
const execArgv = script.endsWith('.ts') ? process.execArgv : withoutTsx(process.execArgv);
cluster.setupPrimary({ exec: script, execArgv });

function withoutTsx(args: string[]): string[] {
  return args.filter((arg, i) => !(arg === 'tsx' && args[i - 1] === '--import') && !(arg === '--import' && args[i + 1] === 'tsx'));
}

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
