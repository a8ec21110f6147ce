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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runLoad, type PhaseResult } from './load';
import { runPaced, type PacedResult } from './paced';
import { formatSummary, summarizeProfile, type CpuProfile } from './profile-summary';
import type { ChildCounts, ChildReady, ChildReply, ChildUsage, ParentCommand } from './servers/protocol';
import { HOPS_PER_SESSION, SHORTCODE_COUNT, shortcodeDialOf } from './shop';

/** ParentCommand minus its id, per member of the union. */
type CommandWithoutId = ParentCommand extends infer C ? (C extends ParentCommand ? Omit<C, 'id'> : never) : never;

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH_DIR, '..');

// ---- options --------------------------------------------------------------------------------------

/**
 * The four runs (provider: the same shop, sessions in memory, reached through a shared shortcode's provider URL),
 * plus three diagnostics that say where a gap comes from (never run by default).
 */
type Target = 'bare' | 'memory' | 'provider' | 'redis' | 'fastify' | 'nosink' | 'postgres';
const DEFAULT_TARGETS: Target[] = ['bare', 'memory', 'provider', 'redis'];
const ALL_TARGETS: Target[] = ['bare', 'fastify', 'memory', 'provider', 'nosink', 'postgres', 'redis'];

function parseArgs(argv: string[]) {
  const get = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const num = (name: string, fallback: number, min: number, max: number) => {
    const raw = get(name);
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return value;
  };
  const only = (get('only') ?? DEFAULT_TARGETS.join(',')).split(',').filter(Boolean) as Target[];
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
    postgresUrl: get('postgres') ?? process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
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
/** Hops through the provider URL against hops to the app's own URL, both with sessions in memory. */
const PROVIDER_GOAL_RATIO = 0.9;
/** Node flags for the server processes: the ones `npm start` runs the server with (package.json), or BENCH_NODE_FLAGS. */
const SERVER_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=32').split(' ').filter(Boolean);
const GOAL_P99_MS = 20;
/** Connection errors and non-2xx above this share of hops make the figures meaningless (timeouts do not:
 * they are the server being too slow, and they count in p99 at the timeout). */
const MAX_FAILED_SHARE = 0.001;
/** The whole run is bounded; a hung server cannot keep it going. */
const WATCHDOG_MS = 240_000;

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
    children.add(proc);
    proc.on('exit', () => children.delete(proc));
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
  profileFile?: string;
  pacedProfileFile?: string;
  problems: string[];
}

const LABELS: Record<Target, string> = {
  bare: 'bare node:http (constant)',
  fastify: 'diag: Fastify+formbody (constant)',
  memory: 'Dialflow, sessions in memory',
  provider: `Dialflow, memory, via provider URL (${SHORTCODE_COUNT} extensions)`,
  nosink: 'diag: Dialflow, memory, no event writes',
  postgres: 'diag: Dialflow, memory, PostgreSQL',
  redis: 'Dialflow, sessions in Redis',
};

const SCRIPTS: Record<Target, { script: string; env: () => Record<string, string> }> = {
  bare: { script: 'bare.ts', env: () => ({}) },
  fastify: { script: 'fastify-floor.ts', env: () => ({}) },
  memory: { script: 'dialflow.ts', env: () => ({}) },
  provider: { script: 'dialflow.ts', env: () => ({ BENCH_SHORTCODES: '1' }) },
  nosink: { script: 'dialflow.ts', env: () => ({ BENCH_ABLATE: 'sink' }) },
  postgres: { script: 'dialflow.ts', env: () => ({ BENCH_DATABASE_URL: postgresDatabase!.url }) },
  redis: { script: 'dialflow.ts', env: () => ({ BENCH_REDIS_URL: options.redisUrl }) },
};

async function measure(target: Target, profileDir: string | undefined): Promise<TargetResult> {
  const isRuntime = SCRIPTS[target].script === 'dialflow.ts';
  if (target === 'postgres') {
    try {
      postgresDatabase = await createPostgresDatabase();
    } catch (err) {
      throw new SkipTarget(`SKIPPED: ${LABELS[target]}: PostgreSQL not usable at ${options.postgresUrl}: ${(err as Error).message}`);
    }
  }
  const startedAt = performance.now();
  let child: ServerChild;
  try {
    child = await ServerChild.start(target, SCRIPTS[target].script, SCRIPTS[target].env());
  } catch (err) {
    if (target === 'postgres') await dropPostgresDatabase();
    throw err;
  }
  log(`  ${target}: ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s (${child.ready.info})`);
  try {
    const path = child.ready.path ?? (isRuntime ? `/ussd/${child.ready.appId}/live` : `/ussd/bare/live`);
    const base = {
      port: child.ready.port,
      path,
      connections: options.connections,
      expect: isRuntime ? ('runtime' as const) : ('bare' as const),
      serviceCodeOf: target === 'provider' ? shortcodeDialOf : undefined,
    };
    const runTag = `${target}${Date.now().toString(36)}`;

    const profileFile = profileDir ? join(profileDir, `${target}.cpuprofile`) : undefined;
    let usage: ChildUsage | undefined;
    const { warmup, measured: load } = await runLoad({
      ...base,
      warmupS: options.warmupS,
      durationS: options.durationS,
      tag: runTag,
      onMeasureStart: async () => {
        await child.call({ type: 'mark' });
        if (profileFile) await child.call({ type: 'profile-start', samplingIntervalUs: 200 });
      },
      onMeasureEnd: async () => {
        usage = (await child.call({ type: 'usage' })).usage!;
      },
    });
    if (!usage) throw new Error(`${target}: no usage figures from the server`);
    if (profileFile) await child.call({ type: 'profile-stop', file: profileFile }, 60_000);
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

    const pacedProfileFile = profileDir ? join(profileDir, `${target}-paced.cpuprofile`) : undefined;
    let paced: PacedResult | undefined;
    let pacedUsage: ChildUsage | undefined;
    if (options.pacedS > 0) {
      // Let the server finish what the saturating load left (buffered events) before the probe starts.
      if (isRuntime && target !== 'nosink') await child.call({ type: 'counts' }, 60_000);
      await child.call({ type: 'mark' });
      if (pacedProfileFile) await child.call({ type: 'profile-start', samplingIntervalUs: 200 });
      paced = await runPaced({ ...base, sessions: options.connections, pace: options.pace, durationS: options.pacedS, tag: `${runTag}p` });
      pacedUsage = (await child.call({ type: 'usage' })).usage!;
      if (pacedProfileFile) await child.call({ type: 'profile-stop', file: pacedProfileFile }, 60_000);
      log(`  ${target}: paced ${paced.hopsPerSecond.toFixed(0)} hops/s, p99 ${paced.p99.toFixed(2)} ms`);
      if (paced.wrongReplies > 0) problems.push(`paced: ${paced.wrongReplies} wrong replies, e.g. ${paced.wrongSamples[0]}`);
      if (paced.errors + paced.non2xx > paced.hops * MAX_FAILED_SHARE)
        problems.push(`paced: ${paced.errors} connection errors, ${paced.non2xx} non-2xx of ${paced.hops} hops`);
    }

    let counts: ChildCounts | undefined;
    if (isRuntime && target !== 'nosink') {
      counts = (await child.call({ type: 'counts' }, 60_000)).counts!;
      // Every END the load generator saw is a completed session the server must have recorded (+1: the
      // child's own self-check session). The server may have more: sessions ended after the load stopped.
      const seen = warmup.sessionsCompleted + load.sessionsCompleted + (paced?.sessionsCompleted ?? 0) + 1;
      if (counts.completedSessions < seen)
        problems.push(`session records lost: the load saw ${seen} sessions end, the database has ${counts.completedSessions}`);
    }
    return {
      target,
      label: LABELS[target],
      info: child.ready.info,
      warmup,
      load,
      paced,
      usage,
      pacedUsage,
      counts,
      profileFile,
      pacedProfileFile: paced ? pacedProfileFile : undefined,
      problems,
    };
  } finally {
    await child.stop();
    if (target === 'redis') await cleanRedis(child.ready.appId);
    if (target === 'postgres') await dropPostgresDatabase();
  }
}

class SkipTarget extends Error {}

// ---- PostgreSQL (diagnostic) -------------------------------------------------------------------------

let postgresDatabase: { name: string; url: string } | undefined;

async function createPostgresDatabase(): Promise<{ name: string; url: string }> {
  const name = `dialflow_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: options.postgresUrl, connectionTimeoutMillis: 3000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(options.postgresUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropPostgresDatabase(): Promise<void> {
  if (!postgresDatabase) return;
  const admin = new pg.Client({ connectionString: options.postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`drop database if exists ${postgresDatabase.name} with (force)`);
  } catch (err) {
    log(`  postgres: could not drop ${postgresDatabase.name}: ${(err as Error).message}`);
  } finally {
    await admin.end().catch(() => {});
    postgresDatabase = undefined;
  }
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

function throughputTable(results: TargetResult[], bare: TargetResult | undefined): string {
  return renderTable(
    ['target', 'hops/s', 'vs bare', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'timeouts', 'conn errors', 'non-2xx', 'wrong'],
    results.map((r) => [
      r.label,
      r.load.hopsPerSecond.toFixed(0),
      bare ? pct(r.load.hopsPerSecond / bare.load.hopsPerSecond) : '-',
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
      `${r.usage.openConnections}/${r.usage.acceptedConnections}`,
      r.usage.rssMb.toFixed(0),
      pct(r.load.generatorCpu),
    ]),
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
    if (target === 'redis' && !(await isRedisReachable())) {
      const line = `SKIPPED: Dialflow with Redis sessions: Redis not reachable at ${options.redisUrl}`;
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

  log('');
  log(
    `Throughput: ${options.connections} sessions, each firing its next hop as soon as a reply lands (saturating; ${options.durationS} s window after ${options.warmupS} s warm-up)`,
  );
  log(throughputTable(results, bare));
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
    if (memory.paced) {
      verdicts.push(
        `${memory.paced.p99 < GOAL_P99_MS ? 'PASS' : 'FAIL'}  p99 hop latency, sessions in memory, ${options.connections} paced sessions (${memory.paced.hopsPerSecond.toFixed(0)} hops/s): ${fmt(memory.paced.p99)} ms (goal < ${GOAL_P99_MS} ms)`,
      );
    }
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
      ['saturating load', r.profileFile],
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
