/**
 * App imports against another tenant's hops (issue 26, finding 3).
 *
 *   npx tsx bench/import-stall.ts                                   # this tree's code (~35 s)
 *   npx tsx bench/import-stall.ts --root=/path/to/other/checkout    # another checkout's code (the "before")
 *   npx tsx bench/import-stall.ts --phase=10 --inflight=4 --menus=2000 --subscribers=20
 *
 * The whole server in a child process (buildApp from `--root`'s src, PGlite on its own thread, billing on as
 * `npm start` runs it, logging off), this process being the clients. Tenant B is the bench shop (bench/shop.ts,
 * seeded by `--root`'s bench/seed-shop.ts), driven on its test URL by paced sessions (bench/paced.ts:
 * `subscribers` sessions, 5 hops a second each; the test URL so the plan's live-session allowance does not end
 * the run). The attacker is one free (TRIAL) account registered over HTTP that keeps `inflight` imports of a
 * `menus`-menu export file (tests/support/large-app-export.ts, about 280 bytes a menu) in flight for the phase.
 * Phases: quiet (B alone), import, then flood: the control, the same file sent as often without a token (refused
 * before its body is read), so what the imports cost beyond a flood of bytes shows. Each reports B's hop p50/p99/max, wrong replies and timeouts, and how the
 * attacker's imports were answered. Bounded: three phases of `phase` seconds, a 10 s timeout a request.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLargeAppExport } from '../tests/support/large-app-export';
import { createBenchClient } from './client';
import { runPaced } from './paced';
import type { ChildReady } from './servers/protocol';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as Array<[string, string]>);
const ROOT = resolve(args.root ?? join(BENCH_DIR, '..'));
const PHASE_S = Number(args.phase ?? 10);
const INFLIGHT = Number(args.inflight ?? 4);
const MENUS = Number(args.menus ?? 2000);
const SUBSCRIBERS = Number(args.subscribers ?? 20);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : '-').padStart(9);

/** The child: `--root`'s server, as npm start builds it (billing on), with the bench shop seeded and deployed. */
async function serve(): Promise<void> {
  const from = (path: string) => import(pathToFileURL(join(ROOT, path)).href);
  const { buildApp } = await from('src/server/app.ts');
  const { createConfig } = await from('src/server/config.ts');
  const { openDatabase } = await from('src/db/client.ts');
  const { seedShop } = await from('bench/seed-shop.ts');
  const { reportReady } = await from('bench/servers/child.ts');
  const database = await openDatabase({ thread: true, lowPriority: true });
  await database.migrate();
  const app = await buildApp(createConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', SEED_DEMO: false }), { database, logger: false });
  await app.ready();
  const { appId, deployMessage } = await seedShop(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  reportReady({
    port: typeof address === 'object' && address ? address.port : 0,
    appId,
    info: `Dialflow from ${ROOT} (${deployMessage}), PGlite on its thread, billing on, logger off`,
  });
}

async function startServer(): Promise<ChildReady & { stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', `--root=${ROOT}`], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const ready = await new Promise<ChildReady>((resolvePromise, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited (${code})`)));
    child.on('message', (message: ChildReady | { type: 'failed'; error: string }) => {
      if (message.type === 'ready') resolvePromise(message);
      else if (message.type === 'failed') reject(new Error(message.error));
    });
  });
  return { ...ready, stop: () => child.kill('SIGKILL') };
}

/** `INFLIGHT` imports of the file in flight until stopped; counts the answers by status and message. */
function startImports(client: ReturnType<typeof createBenchClient>, token: string | undefined, body: string) {
  const answers: Record<string, number> = {};
  let isRunning = true;
  const loops = Array.from({ length: INFLIGHT }, async () => {
    while (isRunning) {
      const reply = await client.send('POST', '/api/importApp', body, 'application/json', { auth: token, timeoutMs: 10_000 });
      let message = reply.body;
      try {
        message = (JSON.parse(reply.body) as { message: string }).message;
      } catch {
        // Not the envelope (a timeout): counted as it came.
      }
      const key = `${reply.status} ${message}`.slice(0, 90);
      answers[key] = (answers[key] ?? 0) + 1;
    }
  });
  return {
    async stop() {
      isRunning = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

async function main(): Promise<void> {
  console.log(`import-stall: load average ${load()} (the machine may be shared: compare the phases of one run)`);
  const server = await startServer();
  console.log(`   server: ${server.info}`);
  const client = createBenchClient(server.port, INFLIGHT + 4);
  const token = await client.registerAccount('importer');
  const file = createLargeAppExport(MENUS);
  const body = JSON.stringify({ document: file, shortCode: '*920*89#' });
  console.log(`   attacker: a TRIAL account, ${INFLIGHT} imports in flight of a ${MENUS}-menu file (${Math.round(body.length / 1024)} KB)`);
  const path = `/ussd/${server.appId}/test`;
  const paced = (tag: string, durationS: number) =>
    runPaced({ port: server.port, path, sessions: SUBSCRIBERS, pace: 5, durationS, expect: 'runtime', tag, timeoutS: 10 });
  await paced('warm', 2);
  const quiet = await paced('quiet', PHASE_S);
  const imports = startImports(client, token, body);
  await sleep(500);
  const attacked = await paced('import', PHASE_S);
  const answers = await imports.stop();
  // The control: the same bytes in flight without a token, refused by the guard before the body is read. What
  // the import phase costs B beyond this is the imports' own work, not the flood of bytes.
  const flood = startImports(client, undefined, body);
  await sleep(500);
  const flooded = await paced('flood', PHASE_S);
  const floodAnswers = await flood.stop();
  server.stop();

  console.log(
    `\n${'phase'.padEnd(8)} ${'B hops'.padStart(7)} ${'B p50'.padStart(9)} ${'B p99'.padStart(9)} ${'B max'.padStart(9)} ${'wrong'.padStart(6)} ${'timeouts'.padStart(8)} (ms)`,
  );
  for (const [name, b] of [
    ['quiet', quiet],
    ['import', attacked],
    ['flood', flooded],
  ] as const)
    console.log(
      `${name.padEnd(8)} ${String(b.hops).padStart(7)} ${ms(b.p50)} ${ms(b.p99)} ${ms(b.max)} ${String(b.wrongReplies).padStart(6)} ${String(b.timeouts).padStart(8)}`,
    );
  console.log(
    `   the imports were answered: ${
      Object.entries(answers)
        .map(([answer, n]) => `${n} x ${JSON.stringify(answer)}`)
        .join(', ') || 'never'
    }`,
  );
  console.log(
    `   the control's requests (no token) were answered: ${Object.entries(floodAnswers)
      .map(([answer, n]) => `${n} x ${JSON.stringify(answer)}`)
      .join(', ')}`,
  );
  console.log(`   load average after: ${load()}`);
}

// The child is the one started with an IPC channel; a `--serve` typed by hand does nothing.
if ('serve' in args) {
  if (!process.send) throw new Error('--serve is for the child this script starts');
  serve().catch(async (err) => {
    const { reportFailed } = await import(pathToFileURL(join(ROOT, 'bench/servers/child.ts')).href);
    reportFailed(err);
  });
} else {
  await main();
  process.exit(0);
}
