/**
 * `npm run bench`: the runtime's throughput and latency beside a bare node:http server, against the
 * quality bar in bench/README.md.
 *
 * Each server runs in its own child process, so the load generator (autocannon, in this process) never
 * shares an event loop with the server it measures. In turn: the bare server, Dialflow with sessions in
 * memory, Dialflow with sessions in memory reached through a shared shortcode's provider URL (1,000 purchased
 * extensions), Dialflow with sessions in Redis (skipped with a line when Redis does not answer). Each gets the
 * same load: N concurrent USSD sessions (start -> choose -> amount), a warm-up, then a measured window.
 *
 *   npm run bench                      # the full run (~90 s)
 *   npm run bench -- --profile         # also CPU-profile every server (measured window, paced probe)
 *   npm run bench -- --only=bare,memory --duration=5 --connections=200 --json=/tmp/bench.json
 *
 * Exit code: 0 when the figures are sound, whether or not the goals are met (it is a report); 1 when
 * they are not (a wrong screen, errors, a server that failed to start, session records lost).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { runLoad, type PhaseResult } from './load';
import { runPaced, type PacedResult } from './paced';
import { formatSummary, summarizeProfile, type CpuProfile } from './profile-summary';
import type { ChildCounts, ChildReady, ChildReply, ChildUsage, ParentCommand } from './servers/protocol';
import { countPersisted, ShippedServer, type EventStats, type PersistedCounts } from './shipped';
import { createScratchDatabase, DEFAULT_POSTGRES_URL, type ScratchDatabase } from './scratch-database';
import { HOPS_PER_SESSION, SHORTCODE_COUNT, shortcodeDialOf } from './shop';

/** ParentCommand minus its id, per member of the union. */
type CommandWithoutId = ParentCommand extends infer C ? (C extends ParentCommand ? Omit<C, 'id'> : never) : never;

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');

// ---- options --------------------------------------------------------------------------------------

/**
 * The default runs: the bare server, the peer (ussd-builder on express), the server as `npm start` runs it
 * (shipped: file PGlite under DATA_DIR, default log) and with PostgreSQL + Redis (pgredis), the in-process child
 * (memory: in-memory PGlite, logger off), through the provider URL, and with Redis sessions. Then three
 * diagnostics that say where a gap comes from, and the scale-out pair (`--only=scaleout`: one runtime process
 * against two behind one port, on PostgreSQL + Redis); none of these run by default.
 */
type Target =
  | 'bare'
  | 'peer'
  | 'shipped'
  | 'pgredis'
  | 'memory'
  | 'provider'
  | 'redis'
  | 'fastify'
  | 'nosink'
  | 'postgres'
  | 'filedb'
  | 'logged'
  | 'nobilling'
  | 'sources'
  | 'pgnobilling'
  | 'runtime1'
  | 'runtime2';
const DEFAULT_TARGETS: Target[] = ['bare', 'peer', 'shipped', 'pgredis', 'memory', 'provider', 'redis'];
const ALL_TARGETS: Target[] = [
  ...DEFAULT_TARGETS,
  'fastify',
  'nosink',
  'postgres',
  'filedb',
  'logged',
  'nobilling',
  'sources',
  'pgnobilling',
  'runtime1',
  'runtime2',
];
const SCALE_OUT_TARGETS: Target[] = ['runtime1', 'runtime2'];
/** The targets that run the server itself as npm start does (shipped.ts), not a bench child. */
const SHIPPED_TARGETS: Target[] = ['shipped', 'nobilling', 'sources', 'pgredis', 'pgnobilling', 'runtime1', 'runtime2'];

function parseArgs(argv: string[]) {
  const get = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const num = (name: string, fallback: number, min: number, max: number) => {
    const raw = get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return value;
  };
  const only = (get('only') ?? DEFAULT_TARGETS.join(','))
    .split(',')
    .filter(Boolean)
    .flatMap((t) => (t === 'scaleout' ? SCALE_OUT_TARGETS : [t])) as Target[];
  for (const t of only) if (!ALL_TARGETS.includes(t)) throw new Error(`--only: unknown target ${t} (${ALL_TARGETS.join(', ')})`);
  return {
    durationS: num('duration', 10, 1, 60),
    warmupS: num('warmup', 2, 0, 30),
    connections: num('connections', 500, 1, 2000),
    pacedS: num('paced', 5, 0, 60),
    pace: num('pace', 1, 0.01, 100),
    only,
    profile: argv.includes('--profile'),
    json: get('json'),
    redisUrl: get('redis') ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    postgresUrl: get('postgres') ?? process.env.BENCH_POSTGRES_URL ?? DEFAULT_POSTGRES_URL,
  };
}

function readOptions() {
  try {
    return parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    process.exit(2);
  }
}
const options = readOptions();
const GOAL_RATIO = 0.5;
/**
 * The footprint goals (issue 36), as ratios measured in one run: shipped's hops a second against bare's, its CPU a
 * hop at most half the peer's, pgredis's hops a second against bare's; and the rows a hop leaves on the shop.
 */
const SHIPPED_GOAL_RATIO = 0.4;
const SHIPPED_PEER_CPU_GOAL = 0.5;
const PGREDIS_GOAL_RATIO = 0.3;
const GOAL_ROWS_PER_HOP = 1.5;
/** Paced p99 under this in every configuration. */
const GOAL_PACED_P99_MS = 10;
/** Hops through the provider URL against hops to the app's own URL, both with sessions in memory. */
const PROVIDER_GOAL_RATIO = 0.9;
/** Node flags for the server processes: the ones `npm start` runs the server with (package.json), or BENCH_NODE_FLAGS. */
const SERVER_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=32').split(' ').filter(Boolean);
const GOAL_P99_MS = 20;
/** Connection errors and non-2xx above this share of hops make the figures meaningless (timeouts do not:
 * they are the server being too slow, and they count in p99 at the timeout). */
const MAX_FAILED_SHARE = 0.001;
/** The whole run is bounded (a minute of start-up and shutdown allowed per target); a hung server cannot keep it going. */
const WATCHDOG_MS = (60 + options.only.length * (options.warmupS + options.durationS + options.pacedS + 60)) * 1000;

// ---- server children --------------------------------------------------------------------------------

class ServerChild {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Extract<ChildReply, { ok: true }>) => void; reject: (e: Error) => void }>();
  ready!: ChildReady;

  private constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {}

  static start(name: string, script: string, env: Record<string, string>): Promise<ServerChild> {
    const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', join(BENCH_DIR, 'servers', script)], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
    });
    trackChild(proc);
    const child = new ServerChild(name, proc);
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: server did not start within 60 s`)), 60_000);
      proc.on('exit', (code, signal) => {
        clearTimeout(timer);
        const error = new Error(`${name}: server exited (${signal ?? code})`);
        reject(error);
        for (const p of child.pending.values()) p.reject(error);
      });
      proc.on('message', (message: ChildReady | { type: 'failed'; error: string } | ChildReply) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          child.ready = message;
          resolvePromise(child);
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`${name}: server failed to start:\n${message.error}`));
        } else if (message.type === 'reply') {
          const waiting = child.pending.get(message.id);
          child.pending.delete(message.id);
          if (!waiting) return;
          if (message.ok) waiting.resolve(message);
          else waiting.reject(new Error(`${name}: ${message.error}`));
        }
      });
    });
  }

  call(command: CommandWithoutId, timeoutMs = 30_000): Promise<Extract<ChildReply, { ok: true }>> {
    const id = this.nextId++;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.name}: no answer to ${command.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolvePromise(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.proc.send({ ...command, id } as ParentCommand);
    });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.proc.once('exit', () => r()));
    try {
      await this.call({ type: 'stop' }, 15_000);
    } catch {
      this.proc.kill('SIGKILL');
    }
    await exited;
  }
}

const children = new Set<ChildProcess>();
function trackChild(proc: ChildProcess): void {
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
}
function killChildren(): void {
  for (const proc of children) proc.kill('SIGKILL');
}
process.on('exit', killChildren);
process.on('SIGINT', () => {
  killChildren();
  process.exit(130);
});
const watchdog = setTimeout(() => {
  console.error(`\nbench: still running after ${WATCHDOG_MS / 1000} s; stopping.`);
  killChildren();
  process.exit(2);
}, WATCHDOG_MS);
watchdog.unref();

// ---- one target -------------------------------------------------------------------------------------

/** What the shipped targets add: the database's writes, the event buffer, Redis commands and the log. */
interface Persistence {
  /** Hops the server answered in all (warm-up, window, paced probe, the self-check). */
  hopsServed: number;
  /** END replies the load saw (+1 self-check per server start); for the scale-out pair, both runs so far. */
  endsSeen: number;
  /** /api/health's event stats at the end of the saturating window and just before the stop. */
  eventsAfterLoad?: EventStats;
  eventsAtStop?: EventStats;
  counts: PersistedCounts;
  /** From SIGTERM to exit: the drain of the event buffer. */
  stopMs: number;
  logBytes: number;
}

interface TargetResult {
  target: Target;
  label: string;
  info: string;
  warmup: PhaseResult;
  load: PhaseResult;
  paced?: PacedResult;
  usage: ChildUsage;
  pacedUsage?: ChildUsage;
  counts?: ChildCounts;
  persistence?: Persistence;
  /** Redis commands a hop in the saturating window (INFO commandstats deltas, the machine's background subtracted). */
  redis?: { perHop: number; top: string; backgroundPerSecond: number };
  profileFile?: string;
  pacedProfileFile?: string;
  problems: string[];
}

const LABELS: Record<Target, string> = {
  bare: 'bare node:http (constant)',
  peer: 'peer: ussd-builder on express',
  shipped: 'shipped: npm start, file PGlite',
  pgredis: 'shipped: PostgreSQL + Redis',
  fastify: 'diag: Fastify+formbody (constant)',
  memory: 'Dialflow, sessions in memory',
  provider: `Dialflow, memory, via provider URL (${SHORTCODE_COUNT} extensions)`,
  nosink: 'diag: Dialflow, memory, no event writes',
  postgres: 'diag: Dialflow, memory, PostgreSQL',
  filedb: 'diag: Dialflow, memory, file PGlite',
  logged: 'diag: Dialflow, memory, log at info to a file',
  nobilling: 'diag: shipped with BILLING=off',
  sources: 'diag: shipped from the sources under tsx',
  pgnobilling: 'diag: PostgreSQL + Redis, BILLING=off',
  redis: 'Dialflow, sessions in Redis',
  runtime1: 'scale-out: 1 runtime process, PG + Redis',
  runtime2: 'scale-out: 2 runtime processes (cluster)',
};

const SCRIPTS: Partial<Record<Target, { script: string; env: () => Record<string, string> }>> = {
  bare: { script: 'bare.ts', env: () => ({}) },
  peer: { script: 'peer.ts', env: () => ({}) },
  fastify: { script: 'fastify-floor.ts', env: () => ({}) },
  memory: { script: 'dialflow.ts', env: () => ({}) },
  provider: { script: 'dialflow.ts', env: () => ({ BENCH_SHORTCODES: '1' }) },
  nosink: { script: 'dialflow.ts', env: () => ({ BENCH_ABLATE: 'sink' }) },
  postgres: { script: 'dialflow.ts', env: () => ({ BENCH_DATABASE_URL: postgresDatabase!.url }) },
  redis: { script: 'dialflow.ts', env: () => ({ BENCH_REDIS_URL: options.redisUrl }) },
  filedb: { script: 'dialflow.ts', env: () => ({ BENCH_PGLITE_DIR: join(diagnosticDir(), 'pglite') }) },
  logged: { script: 'dialflow.ts', env: () => ({ BENCH_LOG_FILE: join(diagnosticDir(), 'server.log') }) },
};

/** A temporary folder for the diagnostics' files, removed when the run ends. */
let diagnosticFolder: string | undefined;
function diagnosticDir(): string {
  diagnosticFolder ??= mkdtempSync(join(tmpdir(), 'dialflow-bench-diag-'));
  return diagnosticFolder;
}
process.on('exit', () => diagnosticFolder && rmSync(diagnosticFolder, { recursive: true, force: true }));

const usesRedis = (target: Target) =>
  target === 'redis' || target === 'pgredis' || target === 'pgnobilling' || target === 'runtime1' || target === 'runtime2';

/** The same surface for a bench child (IPC) and for the shipped server (/proc and HTTP). */
interface ServerUnderTest {
  port: number;
  path: string;
  appId: string;
  info: string;
  /** Runs the shop (its screens are checked), rather than answering a constant. */
  servesShop: boolean;
  mark(): Promise<void>;
  usage(): Promise<ChildUsage>;
  profileStart?(): Promise<void>;
  profileStop?(file: string): Promise<void>;
  /** Lets the server write what a load left buffered, before the next phase. */
  settle(): Promise<void>;
  /** What the in-process runtime child wrote (its database is in memory, so counted before it stops). */
  counts?(): Promise<ChildCounts>;
  stop(): Promise<void>;
}

function childUnderTest(target: Target, child: ServerChild): ServerUnderTest {
  const isRuntime = SCRIPTS[target]!.script === 'dialflow.ts';
  return {
    port: child.ready.port,
    path: child.ready.path ?? (isRuntime ? `/ussd/${child.ready.appId}/live` : `/ussd/${target}/live`),
    appId: child.ready.appId,
    info: child.ready.info,
    servesShop: isRuntime || target === 'peer',
    mark: async () => void (await child.call({ type: 'mark' })),
    usage: async () => (await child.call({ type: 'usage' })).usage!,
    profileStart: async () => void (await child.call({ type: 'profile-start', samplingIntervalUs: 200 })),
    profileStop: async (file) => void (await child.call({ type: 'profile-stop', file }, 60_000)),
    settle: async () => {
      if (isRuntime && target !== 'nosink') await child.call({ type: 'counts' }, 60_000);
    },
    counts: isRuntime && target !== 'nosink' ? async () => (await child.call({ type: 'counts' }, 60_000)).counts! : undefined,
    stop: () => child.stop(),
  };
}

function shippedUnderTest(target: Target, server: ShippedServer, workers: number): ServerUnderTest {
  const database = SHIPPED_DATABASE[target];
  return {
    port: server.port,
    path: `/ussd/${server.appId}/live`,
    appId: server.appId,
    info:
      `${target === 'sources' ? 'src/server/main.ts under tsx' : 'dist/server/main.mjs as npm start runs it'} (${workers > 1 ? `${workers} processes behind one port, Node's cluster module; ` : ''}${server.deployMessage}), ` +
      `${database === 'pglite' ? 'file PGlite under a temporary DATA_DIR' : 'PostgreSQL + Redis'}, default settings` +
      `${Object.entries(SHIPPED_ENV[target]!())
        .filter(([key]) => key === 'MODE' || key === 'BILLING')
        .map(([key, value]) => `, ${key}=${value}`)
        .join('')}, HOST=127.0.0.1, log (JSON, info) to ${server.logFile}`,
    servesShop: true,
    mark: async () => server.mark(),
    usage: async () => server.usage(),
    settle: () => server.settle(),
    stop: async () => void (await server.stop()),
  };
}

/** Settings each shipped target adds to the defaults (everything else as `npm start` has it). */
const SHIPPED_ENV: Record<string, () => Record<string, string>> = {
  shipped: () => ({}),
  nobilling: () => ({ BILLING: 'off' }),
  sources: () => ({}),
  pgnobilling: () => ({ DATABASE_URL: postgresDatabase!.url, REDIS_URL: options.redisUrl, BILLING: 'off' }),
  pgredis: () => ({ DATABASE_URL: postgresDatabase!.url, REDIS_URL: options.redisUrl }),
  runtime1: () => ({ DATABASE_URL: scaleOut!.database.url, REDIS_URL: options.redisUrl, MODE: 'runtime' }),
  runtime2: () => ({ DATABASE_URL: scaleOut!.database.url, REDIS_URL: options.redisUrl, MODE: 'runtime' }),
};
const SHIPPED_DATABASE: Record<string, 'pglite' | 'postgres'> = {
  shipped: 'pglite',
  nobilling: 'pglite',
  sources: 'pglite',
  pgredis: 'postgres',
  pgnobilling: 'postgres',
  runtime1: 'postgres',
  runtime2: 'postgres',
};

/**
 * The scale-out pair shares one PostgreSQL database: a console process (MODE all) builds and deploys the shop in
 * it once, then each runtime target starts on it. Records are counted once both have run.
 */
let scaleOut: { database: ScratchDatabase; appId: string; endsSeen: number; hopsServed: number } | undefined;

async function prepareScaleOut(): Promise<void> {
  if (scaleOut) return;
  const database = await createPostgresDatabase();
  try {
    scaleOut = { database, appId: '', endsSeen: 0, hopsServed: 0 };
    const console_ = await ShippedServer.start(
      { env: { DATABASE_URL: database.url, REDIS_URL: options.redisUrl }, nodeFlags: SERVER_NODE_FLAGS },
      trackChild,
    );
    scaleOut.appId = console_.appId;
    scaleOut.endsSeen = 1; // its self-check
    scaleOut.hopsServed = 3;
    await console_.stop();
    console_.remove();
  } catch (err) {
    await dropDatabase(database);
    scaleOut = undefined;
    throw err;
  }
}

async function measure(target: Target, profileDir: string | undefined): Promise<TargetResult> {
  const isShipped = SHIPPED_TARGETS.includes(target);
  if (target === 'postgres' || target === 'pgredis' || target === 'pgnobilling') {
    try {
      postgresDatabase = await createPostgresDatabase();
    } catch (err) {
      throw new SkipTarget(`SKIPPED: ${LABELS[target]}: PostgreSQL not usable at ${options.postgresUrl}: ${(err as Error).message}`);
    }
  }
  if (target === 'runtime1' || target === 'runtime2') {
    try {
      await prepareScaleOut();
    } catch (err) {
      throw new SkipTarget(`SKIPPED: ${LABELS[target]}: ${(err as Error).message}`);
    }
  }
  const dropOwnDatabase = async () => {
    if (postgresDatabase) await dropDatabase(postgresDatabase);
    postgresDatabase = undefined;
  };
  const startedAt = performance.now();
  const workers = target === 'runtime2' ? 2 : 1;
  let server: ServerUnderTest;
  let shipped: ShippedServer | undefined;
  try {
    if (isShipped) {
      const nodeFlags = [...SERVER_NODE_FLAGS];
      // --profile: the whole life of the process (start-up and seeding included) is profiled, written at exit.
      if (profileDir && workers === 1) nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${join(profileDir, target)}`);
      shipped = await ShippedServer.start(
        {
          env: SHIPPED_ENV[target]!(),
          workers,
          appId: target.startsWith('runtime') ? scaleOut!.appId : undefined,
          nodeFlags,
          source: target === 'sources',
        },
        trackChild,
      );
      server = shippedUnderTest(target, shipped, workers);
    } else {
      server = childUnderTest(target, await ServerChild.start(target, SCRIPTS[target]!.script, SCRIPTS[target]!.env()));
    }
  } catch (err) {
    await dropOwnDatabase();
    throw err;
  }
  log(`  ${target}: ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (${server.info})`);
  let stopped = false;
  try {
    const base = {
      port: server.port,
      path: server.path,
      connections: options.connections,
      expect: server.servesShop ? ('runtime' as const) : ('bare' as const),
      serviceCodeOf: target === 'provider' ? shortcodeDialOf : undefined,
    };
    const runTag = `${target}${Date.now().toString(36)}`;
    const redisCounter = usesRedis(target) ? await RedisCommandCounter.start() : undefined;

    const profileFile = profileDir && server.profileStart ? join(profileDir, `${target}.cpuprofile`) : undefined;
    let usage: ChildUsage | undefined;
    let eventsAfterLoad: EventStats | undefined;
    const { warmup, measured: load } = await runLoad({
      ...base,
      warmupS: options.warmupS,
      durationS: options.durationS,
      tag: runTag,
      onMeasureStart: async () => {
        await server.mark();
        redisCounter?.mark();
        if (profileFile) await server.profileStart!();
      },
      onMeasureEnd: async () => {
        usage = await server.usage();
        await redisCounter?.end();
        if (shipped) eventsAfterLoad = await shipped.eventStats();
      },
    });
    if (!usage) throw new Error(`${target}: no usage figures from the server`);
    if (profileFile) await server.profileStop!(profileFile);
    log(
      `  ${target}: warm-up ${warmup.hopsPerSecond.toFixed(0)} hops/s, measured ${load.hopsPerSecond.toFixed(0)} hops/s, p99 ${load.p99.toFixed(2)} ms`,
    );

    const problems: string[] = [];
    for (const [phase, r] of [
      ['warm-up', warmup],
      ['measured', load],
    ] as const) {
      if (r.wrongReplies > 0) problems.push(`${phase}: ${r.wrongReplies} wrong replies, e.g. ${r.wrongSamples[0]}`);
      const failed = r.errors + r.non2xx;
      if (failed > r.hops * MAX_FAILED_SHARE)
        problems.push(`${phase}: ${r.errors} connection errors, ${r.non2xx} non-2xx of ${r.hops} hops`);
    }
    if (load.hops === 0) problems.push('no hop completed');

    const pacedProfileFile = profileDir && server.profileStart ? join(profileDir, `${target}-paced.cpuprofile`) : undefined;
    let paced: PacedResult | undefined;
    let pacedUsage: ChildUsage | undefined;
    if (options.pacedS > 0) {
      // Let the server finish what the saturating load left (buffered events) before the probe starts.
      await server.settle();
      await server.mark();
      if (pacedProfileFile) await server.profileStart!();
      paced = await runPaced({ ...base, sessions: options.connections, pace: options.pace, durationS: options.pacedS, tag: `${runTag}p` });
      pacedUsage = await server.usage();
      if (pacedProfileFile) await server.profileStop!(pacedProfileFile);
      log(`  ${target}: paced ${paced.hopsPerSecond.toFixed(0)} hops/s, p99 ${paced.p99.toFixed(2)} ms`);
      if (paced.wrongReplies > 0) problems.push(`paced: ${paced.wrongReplies} wrong replies, e.g. ${paced.wrongSamples[0]}`);
      if (paced.errors + paced.non2xx > paced.hops * MAX_FAILED_SHARE)
        problems.push(`paced: ${paced.errors} connection errors, ${paced.non2xx} non-2xx of ${paced.hops} hops`);
    }
    // Every END the load generator saw is a completed session the server must have recorded (+1: the server's own
    // self-check session). The server may have more: sessions ended after the load stopped.
    const endsSeen = warmup.sessionsCompleted + load.sessionsCompleted + (paced?.sessionsCompleted ?? 0) + 1;
    const hopsServed = warmup.hops + load.hops + (paced?.hops ?? 0) + HOPS_PER_SESSION;

    let counts: ChildCounts | undefined;
    let persistence: Persistence | undefined;
    let shippedProfileFile: string | undefined;
    if (shipped) {
      const eventsAtStop = await shipped.eventStats();
      const logBytes = shipped.logBytes();
      const stopMs = await shipped.stop();
      stopped = true;
      if (shipped.proc.exitCode !== 0)
        problems.push(`the server exited with ${shipped.proc.exitCode ?? shipped.proc.signalCode} on SIGTERM`);
      let persisted: PersistedCounts;
      let seen = endsSeen;
      let served = hopsServed;
      if (SHIPPED_DATABASE[target] === 'pglite') {
        persisted = await countPersisted({ dataDir: shipped.dataDir }, shipped.appId);
      } else if (target === 'pgredis' || target === 'pgnobilling') {
        persisted = await countPersisted({ url: postgresDatabase!.url, databaseName: postgresDatabase!.name }, shipped.appId);
      } else {
        // The scale-out pair writes into one database: counted together, so far.
        scaleOut!.endsSeen += endsSeen;
        scaleOut!.hopsServed += hopsServed;
        seen = scaleOut!.endsSeen;
        served = scaleOut!.hopsServed;
        persisted = await countPersisted({ url: scaleOut!.database.url, databaseName: scaleOut!.database.name }, shipped.appId);
      }
      if (persisted.completedSessions < seen)
        problems.push(`session records lost: the load saw ${seen} sessions end, the database has ${persisted.completedSessions}`);
      const shed = eventsAtStop?.shed ?? 0;
      if (eventsAtStop && eventsAtStop.failedBatches > 0) problems.push(`the event sink failed ${eventsAtStop.failedBatches} batches`);
      counts = {
        completedSessions: persisted.completedSessions,
        logRows: persisted.logRows,
        inputRows: persisted.inputRows,
        flushMs: stopMs,
      };
      persistence = {
        hopsServed: served,
        endsSeen: seen,
        eventsAfterLoad,
        eventsAtStop,
        counts: persisted,
        stopMs,
        logBytes,
      };
      log(
        `  ${target}: stopped in ${stopMs.toFixed(0)} ms; ${persisted.completedSessions} completed session records for ${seen} ENDs seen; ${shed} log lines shed`,
      );
      shipped.remove();
      // --profile: the process wrote its whole life's profile (--cpu-prof) on exit.
      const wholeLife = profileDir ? join(profileDir, target) : undefined;
      if (wholeLife && existsSync(wholeLife)) {
        const file = readdirSync(wholeLife).find((f) => f.endsWith('.cpuprofile'));
        if (file) shippedProfileFile = join(wholeLife, file);
      }
    } else if (server.counts) {
      counts = await server.counts();
      if (counts.completedSessions < endsSeen)
        problems.push(`session records lost: the load saw ${endsSeen} sessions end, the database has ${counts.completedSessions}`);
    }
    return {
      target,
      label: LABELS[target],
      info: server.info,
      warmup,
      load,
      paced,
      usage,
      pacedUsage,
      counts,
      persistence,
      redis: redisCounter?.result(load.hops),
      profileFile: profileFile ?? shippedProfileFile,
      pacedProfileFile: paced ? pacedProfileFile : undefined,
      problems,
    };
  } finally {
    if (!stopped) await server.stop();
    if (target === 'redis' || usesRedis(target)) await cleanRedis(server.appId);
    await dropOwnDatabase();
  }
}

class SkipTarget extends Error {}

// ---- PostgreSQL -------------------------------------------------------------------------

let postgresDatabase: ScratchDatabase | undefined;

const createPostgresDatabase = () => createScratchDatabase(options.postgresUrl, 'run');

async function dropDatabase(database: ScratchDatabase): Promise<void> {
  await database.drop().catch((err: Error) => log(`  postgres: could not drop ${database.name}: ${err.message}`));
}

// ---- Redis ------------------------------------------------------------------------------------------

function connectRedis(): Redis {
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  return redis;
}

async function isRedisReachable(): Promise<boolean> {
  const redis = connectRedis();
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Redis commands the server sent while the saturating window ran: INFO commandstats before and after it. The
 * machine's Redis is shared, so the rate of commands over the second before the load (the server idle) is taken as
 * the background and subtracted.
 */
class RedisCommandCounter {
  private atMark = new Map<string, number>();
  private atEnd = new Map<string, number>();
  private markedAt = 0;
  private seconds = 0;

  private constructor(
    private readonly redis: Redis,
    private readonly backgroundPerSecond: number,
  ) {}

  static async start(): Promise<RedisCommandCounter | undefined> {
    const redis = connectRedis();
    try {
      await redis.connect();
      const before = await readCommandStats(redis);
      await new Promise((r) => setTimeout(r, 1000));
      const after = await readCommandStats(redis);
      return new RedisCommandCounter(redis, sumCalls(after) - sumCalls(before));
    } catch {
      redis.disconnect();
      return undefined;
    }
  }

  mark(): void {
    this.markedAt = performance.now();
    void readCommandStats(this.redis).then((stats) => {
      this.atMark = stats;
    });
  }

  async end(): Promise<void> {
    this.seconds = (performance.now() - this.markedAt) / 1000;
    this.atEnd = await readCommandStats(this.redis);
    this.redis.disconnect();
  }

  result(hops: number): { perHop: number; top: string; backgroundPerSecond: number } {
    const delta = [...this.atEnd].map(([name, calls]) => [name, calls - (this.atMark.get(name) ?? 0)] as const).filter(([, n]) => n > 0);
    const total = delta.reduce((sum, [, n]) => sum + n, 0) - this.backgroundPerSecond * this.seconds;
    const top = delta
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([name, n]) => `${name} ${(n / Math.max(1, hops)).toFixed(2)}`)
      .join(', ');
    return { perHop: Math.max(0, total) / Math.max(1, hops), top, backgroundPerSecond: this.backgroundPerSecond };
  }
}

/** Calls per command from INFO commandstats (the harness's own INFO left out). */
async function readCommandStats(redis: Redis): Promise<Map<string, number>> {
  const text = await redis.info('commandstats');
  const stats = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (match[1] !== 'info') stats.set(match[1]!, Number(match[2]));
  return stats;
}

const sumCalls = (stats: Map<string, number>) => [...stats.values()].reduce((a, b) => a + b, 0);

/** Removes what the bench left in Redis (sessions cut off when the load stopped), and only that. */
async function cleanRedis(appId: string): Promise<void> {
  if (!appId) return;
  const redis = connectRedis();
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `df:session:${appId}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.del(`df:active:${appId}`);
    cursor = '0';
    do {
      const [next, flat] = await redis.zscan('df:expiry', cursor, 'MATCH', `${appId}:*`, 'COUNT', 1000);
      cursor = next;
      const members = flat.filter((_, i) => i % 2 === 0);
      if (members.length) await redis.zrem('df:expiry', ...members);
    } while (cursor !== '0');
  } catch (err) {
    log(`  redis: could not clean up the bench's keys: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

// ---- report -----------------------------------------------------------------------------------------

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '-');

/** Server CPU time per completed hop, in µs: less sensitive than hops/s to other processes on the machine. */
const cpuPerHop = (r: TargetResult) => ((r.usage.cpuUserMs + r.usage.cpuSystemMs) * 1000) / Math.max(1, r.load.hops);

function machineLine(when: string): string {
  const [one] = loadavg();
  const cores = availableParallelism();
  const busy =
    one! > cores * 0.75 ? ' (busy: other processes compete for the CPU, so the figures are noisy; run again on a quiet machine)' : '';
  return `machine ${when}: ${cores} cores, load average ${one!.toFixed(1)}${busy}`;
}

function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function throughputTable(results: TargetResult[], bare: TargetResult | undefined, peer: TargetResult | undefined): string {
  return renderTable(
    ['target', 'hops/s', 'vs bare', 'vs peer', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'timeouts', 'conn errors', 'non-2xx', 'wrong'],
    results.map((r) => [
      r.label,
      r.load.hopsPerSecond.toFixed(0),
      bare ? pct(r.load.hopsPerSecond / bare.load.hopsPerSecond) : '-',
      peer ? `${fmt(r.load.hopsPerSecond / peer.load.hopsPerSecond)}x` : '-',
      fmt(r.load.p50),
      fmt(r.load.p90),
      fmt(r.load.p99),
      fmt(r.load.max, 1),
      String(r.load.timeouts),
      String(r.load.errors),
      String(r.load.non2xx),
      String(r.load.wrongReplies + r.warmup.wrongReplies),
    ]),
  );
}

function serverTable(results: TargetResult[]): string {
  return renderTable(
    [
      'target',
      'CPU µs/hop',
      'server CPU',
      'server ELU',
      'loop delay p99/max ms',
      'GC total/max ms',
      'conns open/accepted',
      'server RSS MB',
      'loadgen CPU',
    ],
    results.map((r) => [
      r.label,
      cpuPerHop(r).toFixed(0),
      pct((r.usage.cpuUserMs + r.usage.cpuSystemMs) / r.usage.wallMs),
      fmt(r.usage.elu),
      `${fmt(r.usage.loopDelayP99Ms, 0)}/${fmt(r.usage.loopDelayMaxMs, 0)}`,
      `${fmt(r.usage.gcTotalMs, 0)}/${fmt(r.usage.gcMaxMs, 0)}`,
      `${fmt(r.usage.openConnections, 0)}/${fmt(r.usage.acceptedConnections, 0)}`,
      r.usage.rssMb.toFixed(0),
      pct(r.load.generatorCpu),
    ]),
  );
}

/** The shipped targets' database writes, event buffer, Redis commands and log, per hop the server answered. */
function persistenceTable(results: TargetResult[]): string {
  return renderTable(
    [
      'target',
      'rows/hop',
      'statements/hop',
      'rows inserted/hop',
      'sink written',
      'shed',
      'holds',
      'buffered after load',
      'session records / ENDs seen',
      'SIGTERM to exit ms',
      'log bytes/hop',
      'Redis cmds/hop',
    ],
    results.flatMap((r) => {
      const p = r.persistence;
      if (!p) return r.redis ? [[r.label, '-', '-', '-', '-', '-', '-', '-', '-', '-', '-', fmt(r.redis.perHop)]] : [];
      const c = p.counts;
      const rows = c.sessionRows + c.logRows + c.inputRows + c.actionRows;
      const perHop = (n: number | undefined) => (n === undefined ? '-' : fmt(n / p.hopsServed));
      return [
        [
          r.label,
          perHop(rows),
          perHop(c.statements),
          perHop(c.insertedRows),
          String(p.eventsAtStop?.written ?? '-'),
          String(p.eventsAtStop?.shed ?? '-'),
          String(p.eventsAtStop?.holds ?? '-'),
          String(p.eventsAfterLoad?.buffered ?? '-'),
          `${c.completedSessions} / ${p.endsSeen}`,
          p.stopMs.toFixed(0),
          fmt(p.logBytes / p.hopsServed, 1),
          r.redis ? fmt(r.redis.perHop) : '-',
        ],
      ];
    }),
  );
}

function pacedTable(results: TargetResult[]): string {
  return renderTable(
    [
      'target',
      'hops/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'max ms',
      'timeouts',
      'conn errors',
      'non-2xx',
      'wrong',
      'server CPU',
      'loop delay p99/max ms',
      'GC total/max ms',
    ],
    results.flatMap((r) => {
      const p = r.paced;
      const u = r.pacedUsage;
      if (!p || !u) return [];
      return [
        [
          r.label,
          p.hopsPerSecond.toFixed(0),
          fmt(p.p50),
          fmt(p.p90),
          fmt(p.p99),
          fmt(p.max, 1),
          String(p.timeouts),
          String(p.errors),
          String(p.non2xx),
          String(p.wrongReplies),
          pct((u.cpuUserMs + u.cpuSystemMs) / u.wallMs),
          `${fmt(u.loopDelayP99Ms, 0)}/${fmt(u.loopDelayMaxMs, 0)}`,
          `${fmt(u.gcTotalMs, 0)}/${fmt(u.gcMaxMs, 0)}`,
        ],
      ];
    }),
  );
}

// ---- main -------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  const profileDir = options.profile ? join(tmpdir(), `dialflow-bench-${Date.now()}`) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  log(
    `Dialflow bench: ${options.connections} concurrent sessions of ${HOPS_PER_SESSION} hops (start -> choose -> amount, Africa's Talking),` +
      ` ${options.warmupS} s warm-up + ${options.durationS} s measured per target, loopback 127.0.0.1, autocannon in the parent, each server in its own child process.`,
  );
  log(machineLine('before the run'));
  if (options.profile)
    log(
      `Profiling every server over the measured window and the paced probe (figures are slowed by the profiler; compare them with care). Profiles: ${profileDir}`,
    );

  const results: TargetResult[] = [];
  const skipped: string[] = [];
  let fatal: string | undefined;
  for (const target of options.only) {
    if (usesRedis(target) && !(await isRedisReachable())) {
      const line = `SKIPPED: ${LABELS[target]}: Redis not reachable at ${options.redisUrl}`;
      skipped.push(line);
      log(`  ${line}`);
      continue;
    }
    try {
      results.push(await measure(target, profileDir));
    } catch (err) {
      if (err instanceof SkipTarget) {
        skipped.push(err.message);
        log(`  ${err.message}`);
        continue;
      }
      fatal = `${target}: ${(err as Error).message}`;
      log(`  ${fatal}`);
      break;
    }
  }

  const bare = results.find((r) => r.target === 'bare');
  const memory = results.find((r) => r.target === 'memory');
  const provider = results.find((r) => r.target === 'provider');
  const redis = results.find((r) => r.target === 'redis');
  const peer = results.find((r) => r.target === 'peer');
  const shipped = results.find((r) => r.target === 'shipped');
  const pgredis = results.find((r) => r.target === 'pgredis');
  const runtime1 = results.find((r) => r.target === 'runtime1');
  const runtime2 = results.find((r) => r.target === 'runtime2');
  if (scaleOut) {
    await dropDatabase(scaleOut.database);
  }

  log('');
  log(
    `Throughput: ${options.connections} sessions, each firing its next hop as soon as a reply lands (saturating; ${options.durationS} s window after ${options.warmupS} s warm-up)`,
  );
  log(throughputTable(results, bare, peer));
  for (const line of skipped) log(line);
  log('hops/s: hops answered per second in the window (3 hops make a session); latency as the load generator saw it, a timeout');
  log('counted as 10 s; wrong: replies that were not the expected screen (warm-up included).');
  log('');
  log('Server during that window');
  log(serverTable(results));
  log('CPU µs/hop: server CPU time per hop (less sensitive to a busy machine than hops/s); server CPU: share of one core (GC and');
  log('libuv threads can take it past 100%); ELU: event loop utilisation of the server main thread (1 = saturated); loop delay:');
  log("how late the server's timers fired, i.e. how long its event loop went without turning; conns: connections the server held");
  log(`open at the end of the window / accepted since it started (the load opens ${options.connections}; a connection that times out is`);
  log('replaced by a new one); loadgen CPU: autocannon (this process).');
  if (results.some((r) => r.paced)) {
    log('');
    log(
      `Latency: ${options.connections} sessions with think time (mean ${fmt(1 / options.pace, 1)} s between a reply and the next hop), ${options.pacedS} s`,
    );
    log(pacedTable(results));
  }
  log('');
  for (const r of results) {
    const unchecked = r.load.uncheckedAfterTimeout + r.warmup.uncheckedAfterTimeout;
    if (unchecked)
      log(`${r.label}: ${unchecked} ${unchecked === 1 ? 'reply' : 'replies'} not checked (later hops of sessions broken by a timeout).`);
    if (r.usage.openConnections < options.connections) {
      log(
        `${r.label}: only ${r.usage.openConnections} of the load's ${options.connections} connections were open at the end of the window: the server` +
          ' did not accept the others in time (its event loop turned too slowly), so fewer sessions were really in service and they timed out.',
      );
    }
    if (r.counts) {
      log(
        `${r.label}: the event sink wrote ${r.counts.completedSessions} session records, ${r.counts.logRows} log rows, ${r.counts.inputRows} input rows` +
          ` (final flush ${r.counts.flushMs.toFixed(0)} ms); server RSS ${r.usage.rssMb.toFixed(0)} MB.`,
      );
    }
  }

  if (results.some((r) => r.persistence || r.redis)) {
    log('');
    log('Persistence and shared services (per hop the server answered in all phases; the saturating window for Redis)');
    log(persistenceTable(results));
    log('rows/hop: event rows the app left in the database (session records, log lines, inputs, action results) per hop; statements and');
    log(
      "rows inserted: pg_stat_database over the server's life (reads included, seeding too); sink written/shed: /api/health's event stats",
    );
    log('just before SIGTERM (shed: debug/info log lines dropped, only while the database refuses writes; session records, inputs and');
    log('errors are never shed; holds: times new hops waited for a writer that fell 20,000 rows behind);');
    log('session records / ENDs seen: completed session records counted in the database after the stop, against the END replies the');
    log("load saw (+1 self-check per server start); log bytes/hop: the server's stdout+stderr file (JSON lines at info).");
    for (const r of results)
      if (r.redis) log(`${r.label}: Redis commands a hop: ${r.redis.top} (background ${r.redis.backgroundPerSecond}/s subtracted)`);
  }
  log('');
  const verdicts: string[] = [];
  if (memory && bare) {
    const ratio = memory.load.hopsPerSecond / bare.load.hopsPerSecond;
    verdicts.push(
      `${ratio >= GOAL_RATIO ? 'PASS' : 'FAIL'}  throughput, sessions in memory: ${pct(ratio)} of the bare server (goal >= ${pct(GOAL_RATIO)})`,
    );
    verdicts.push(
      `info  CPU per hop, sessions in memory: ${cpuPerHop(memory).toFixed(0)} µs vs ${cpuPerHop(bare).toFixed(0)} µs bare = ${pct(cpuPerHop(bare) / cpuPerHop(memory))} of bare's efficiency (the same comparison, less sensitive to a busy machine)`,
    );
  } else {
    verdicts.push('n/a   throughput goal: needs both the bare and the in-memory run');
  }
  if (memory) {
    const bareNote = bare ? `; the bare server's own: ${fmt(bare.load.p99)} ms` : '';
    verdicts.push(
      `${memory.load.p99 < GOAL_P99_MS ? 'PASS' : 'FAIL'}  p99 hop latency, sessions in memory, saturating load: ${fmt(memory.load.p99)} ms (goal < ${GOAL_P99_MS} ms${bareNote})`,
    );
  }
  if (shipped && bare) {
    const ratio = shipped.load.hopsPerSecond / bare.load.hopsPerSecond;
    verdicts.push(
      `${ratio >= SHIPPED_GOAL_RATIO ? 'PASS' : 'FAIL'}  shipped (npm start) vs bare: ${shipped.load.hopsPerSecond.toFixed(0)} / ${bare.load.hopsPerSecond.toFixed(0)} hops/s = ${fmt(ratio)} (goal >= ${SHIPPED_GOAL_RATIO}); CPU per hop ${cpuPerHop(shipped).toFixed(0)} µs vs ${cpuPerHop(bare).toFixed(0)} µs = ${fmt(cpuPerHop(bare) / cpuPerHop(shipped))}`,
    );
  }
  if (shipped && peer) {
    const cpu = cpuPerHop(shipped) / cpuPerHop(peer);
    verdicts.push(
      `${cpu <= SHIPPED_PEER_CPU_GOAL ? 'PASS' : 'FAIL'}  shipped (npm start) vs peer (ussd-builder), CPU per hop: ${cpuPerHop(shipped).toFixed(0)} µs vs ${cpuPerHop(peer).toFixed(0)} µs = ${fmt(cpu)}x (goal <= ${SHIPPED_PEER_CPU_GOAL}x); hops/s ${shipped.load.hopsPerSecond.toFixed(0)} / ${peer.load.hopsPerSecond.toFixed(0)} = ${fmt(shipped.load.hopsPerSecond / peer.load.hopsPerSecond)}x`,
    );
  }
  for (const r of [shipped, pgredis]) {
    const p = r?.persistence;
    if (!r || !p) continue;
    const c = p.counts;
    const rows = (c.sessionRows + c.logRows + c.inputRows + c.actionRows) / p.hopsServed;
    verdicts.push(
      `${rows <= GOAL_ROWS_PER_HOP ? 'PASS' : 'FAIL'}  rows a hop on the shop, ${r.label}: ${fmt(rows)} (goal <= ${GOAL_ROWS_PER_HOP})`,
    );
  }
  if (pgredis && bare) {
    const ratio = pgredis.load.hopsPerSecond / bare.load.hopsPerSecond;
    verdicts.push(
      `${ratio >= PGREDIS_GOAL_RATIO ? 'PASS' : 'FAIL'}  shipped on PostgreSQL + Redis vs bare: ${pgredis.load.hopsPerSecond.toFixed(0)} / ${bare.load.hopsPerSecond.toFixed(0)} hops/s = ${fmt(ratio)} (goal >= ${PGREDIS_GOAL_RATIO}); CPU per hop ${cpuPerHop(pgredis).toFixed(0)} µs (server process only: PostgreSQL's and Redis's own CPU is not in it)`,
    );
  }
  for (const r of results) {
    if (!r.paced || r.target === 'bare' || r.target === 'fastify') continue;
    verdicts.push(
      `${r.paced.p99 < GOAL_PACED_P99_MS ? 'PASS' : 'FAIL'}  paced p99, ${r.label}: ${fmt(r.paced.p99)} ms at ${r.paced.hopsPerSecond.toFixed(0)} hops/s from ${options.connections} sessions (goal < ${GOAL_PACED_P99_MS} ms)`,
    );
  }
  if (runtime1 && runtime2) {
    verdicts.push(
      `info  scale-out on PostgreSQL + Redis: 2 runtime processes ${runtime2.load.hopsPerSecond.toFixed(0)} hops/s vs 1 process ${runtime1.load.hopsPerSecond.toFixed(0)} = ${fmt(runtime2.load.hopsPerSecond / runtime1.load.hopsPerSecond)}x; CPU per hop ${cpuPerHop(runtime2).toFixed(0)} µs (all processes) vs ${cpuPerHop(runtime1).toFixed(0)} µs; on ${availableParallelism()} cores the load generator takes ${pct(runtime2.load.generatorCpu)} of one`,
    );
  }
  if (provider && memory) {
    const ratio = provider.load.hopsPerSecond / memory.load.hopsPerSecond;
    verdicts.push(
      `${ratio >= PROVIDER_GOAL_RATIO ? 'PASS' : 'FAIL'}  throughput through the provider URL (${SHORTCODE_COUNT} purchased extensions): ${provider.load.hopsPerSecond.toFixed(0)} hops/s = ${pct(ratio)} of the app's own URL's ${memory.load.hopsPerSecond.toFixed(0)} (goal >= ${pct(PROVIDER_GOAL_RATIO)}); CPU per hop ${cpuPerHop(provider).toFixed(0)} µs vs ${cpuPerHop(memory).toFixed(0)} µs`,
    );
  } else if (provider) {
    verdicts.push('n/a   provider URL goal: needs the in-memory run too');
  }
  if (redis) {
    const ratio = bare ? ` = ${pct(redis.load.hopsPerSecond / bare.load.hopsPerSecond)} of bare` : '';
    const paced = redis.paced ? `; paced p99 ${fmt(redis.paced.p99)} ms` : '';
    verdicts.push(
      `info  sessions in Redis (reported, no bar): ${redis.load.hopsPerSecond.toFixed(0)} hops/s${ratio}, saturating p99 ${fmt(redis.load.p99)} ms${paced}`,
    );
  }
  for (const v of verdicts) log(v);
  if (bare && bare.usage.elu < 0.9 && bare.load.generatorCpu > 0.85) {
    log(
      `note  the bare server's event loop was only ${fmt(bare.usage.elu)} busy while the load generator used ${pct(bare.load.generatorCpu)} of a core:` +
        ' the generator, not the bare server, set that pace, so the bare figure is a lower bound and the ratio flatters the runtime.',
    );
  }
  log(machineLine('after the run'));
  if (options.profile) log('note  profiled run: the profiler slows the servers; take throughput goals from a run without --profile.');

  const problems = results.flatMap((r) => r.problems.map((p) => `${r.label}: ${p}`));
  if (fatal) problems.push(fatal);
  if (problems.length) {
    log('');
    log('INVALID: these make the figures meaningless:');
    for (const p of problems) log(`  - ${p}`);
  }

  for (const r of results) {
    for (const [window, file] of [
      [
        SHIPPED_TARGETS.includes(r.target) ? 'whole life: start-up, seeding, saturating load, paced probe' : 'saturating load',
        r.profileFile,
      ],
      ['paced sessions', r.pacedProfileFile],
    ] as const) {
      if (!file) continue;
      log('');
      log(formatSummary(`${r.label}, ${window} (${file})`, summarizeProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, 15)));
    }
  }

  if (options.json) {
    writeFileSync(options.json, JSON.stringify({ options, results, skipped, verdicts, problems }, null, 2));
    log(`\nJSON written to ${options.json}`);
  }
  log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return problems.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
