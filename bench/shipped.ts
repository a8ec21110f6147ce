/**
 * The server as it ships: started as `npm start` starts it (`node --max-semi-space-size=32 dist/server/main.mjs`, the
 * bundle scripts/build-server-if-needed.mjs builds; the web build step skipped: WEB_DIST is an empty folder, unless `console` asks
 * for the built console), default settings
 * but for the ones a target names (DATABASE_URL, REDIS_URL, MODE), a fresh temporary DATA_DIR, HOST=127.0.0.1
 * (a bench never listens beyond loopback), the log to a file as a service manager would keep it (stdout is not a
 * terminal, so LOG_FORMAT auto writes JSON lines at LOG_LEVEL info). No IPC, no hooks in the process: the
 * harness reads its CPU from /proc/<pid>/stat, its event buffer from /api/health, and what it persisted from
 * its database once it has stopped (SIGTERM drains the buffer).
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { actionResults, appLogs, sessionInputs, sessionRecords } from '../src/db/schema';
import { configSchema } from '../src/server/config';
import { DEMO_USER } from '../src/server/seed';
import type { ChildUsage } from './servers/protocol';
import { seedShopOverHttp } from './seed-shop';
import { atForm, expectedReply } from './shop';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

export interface ShippedOptions {
  /** Settings a target adds to the defaults: DATABASE_URL, REDIS_URL, MODE. */
  env: Record<string, string>;
  /** More than 1: servers/cluster.ts forks that many server processes behind one port. */
  workers?: number;
  /** The shop is built and deployed through the API when absent (the console must be served: MODE all). */
  appId?: string;
  nodeFlags: string[];
  /**
   * The console as `npm start` serves it: WEB_DIST keeps its default (the production build in dist/web, which the
   * caller builds first), and no shop is seeded or checked (the caller builds what it measures).
   */
  console?: boolean;
  /** Another checkout of the project to run (its server, its dist/web): an earlier commit to compare with. */
  root?: string;
  /**
   * Diagnostic: the sources under tsx, as the tests and `npm run dev` run them, instead of the bundle `npm start`
   * builds and runs (dist/server/main.mjs). A checkout from before the bundle runs its sources either way.
   */
  source?: boolean;
  /** A data folder to start on (copied first): a restart on an existing installation rather than a first start. */
  dataFrom?: string;
}

/**
 * The server file to run: the bundle `npm start` runs (built first when a source is newer, as npm start does), or the
 * sources under tsx (`source`, or a checkout from before the bundle).
 */
export function serverScript(root: string, source: boolean): string {
  const build = join(root, 'scripts', 'build-server-if-needed.mjs');
  if (source || !existsSync(build)) return join(root, 'src', 'server', 'main.ts');
  execSync('node scripts/build-server-if-needed.mjs', { cwd: root, stdio: 'inherit' });
  return join(root, 'dist', 'server', 'main.mjs');
}

/** The event buffer as /api/health reports it (src/server/features/runtime/event-sink.ts). */
export interface EventStats {
  buffered: number;
  written: number;
  shed: number;
  failedBatches: number;
  /** Times new hops were held until the writer caught up. */
  holds: number;
  /** Writes tried again after the database failed them (a lost connection). */
  retries?: number;
}

/** What the server left in its database, counted after it stopped. */
export interface PersistedCounts {
  completedSessions: number;
  sessionRows: number;
  logRows: number;
  inputRows: number;
  actionRows: number;
  /** pg_stat_database over the server's life (seeding included): statements committed and rows inserted. */
  statements?: number;
  insertedRows?: number;
}

/** The settings of src/server/config.ts: every one is taken out of the harness's environment, so defaults apply. */
const CONFIG_KEYS = Object.keys(configSchema.shape);

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** User + system CPU of a process, all its threads (PGlite's, libuv's), in ms. */
function readCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5); the slice starts at field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** VmRSS and VmHWM (the peak since the process started) of a process, in MB. */
export function readMemoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const readRssMb = (pid: number) => readMemoryMb(pid).rss;

/** A process and its descendants (tsx's esbuild service, say), from /proc/<pid>/task/<tid>/children. */
function readProcessTree(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (listed) children.push(...listed.split(' ').map(Number));
    }
  } catch {
    return [];
  }
  return [pid, ...children.flatMap(readProcessTree)];
}

/** VmRSS summed over a process and its descendants, in MB: every thread and worker of each (they share one RSS). */
export function readTreeRssMb(pid: number): number {
  return readProcessTree(pid).reduce((sum, each) => {
    try {
      return sum + readRssMb(each);
    } catch {
      return sum; // exited meanwhile
    }
  }, 0);
}

/**
 * An earlier commit's tree in a temporary folder (`git archive`), with this checkout's node_modules; `buildConsole`
 * builds its console as `npm start` would (vite, production).
 */
export function prepareCheckout(ref: string, { buildConsole }: { buildConsole: boolean }): { dir: string; commit: string } {
  const commit = execSync(`git rev-parse --verify ${JSON.stringify(`${ref}^{commit}`)}`, { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'dialflow-before-'));
  execSync(`git archive --format=tar ${commit} | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT, shell: '/bin/bash' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (buildConsole) {
    console.log(`Building the console of ${commit.slice(0, 10)} in ${dir}...`);
    execSync('npx vite build --logLevel error', { cwd: dir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  return { dir, commit };
}

/** Signs in as the seeded demo account: the headers its calls carry. */
export async function signInAsDemo(baseUrl: string): Promise<{ authorization: string }> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
  });
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ShippedServer {
  appId = '';
  deployMessage = '';
  pids: number[] = [];
  /** From the spawn to the first 200 of /api/health (polled every 20 ms). */
  healthyAfterMs = 0;
  private markCpuMs = 0;
  private markAt = 0;
  private exited: Promise<void>;

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly logFile: string,
    readonly proc: ChildProcess,
  ) {
    this.exited = new Promise((r) => proc.once('exit', () => r()));
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(options: ShippedOptions, track: (proc: ChildProcess) => void): Promise<ShippedServer> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'dialflow-shipped-'));
    if (!options.console) mkdirSync(join(dir, 'web'));
    if (options.dataFrom) cpSync(options.dataFrom, join(dir, 'data'), { recursive: true });
    const env: Record<string, string | undefined> = { ...process.env };
    for (const key of CONFIG_KEYS) delete env[key];
    Object.assign(
      env,
      { DATA_DIR: join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1' },
      options.console ? {} : { WEB_DIST: join(dir, 'web') },
      options.env,
    );
    const workers = options.workers ?? 1;
    if (workers > 1) env.BENCH_WORKERS = String(workers);
    const root = options.root ?? ROOT;
    const main = serverScript(root, options.source ?? false);
    env.BENCH_SERVER_SCRIPT = main;
    const args =
      workers > 1
        ? [...options.nodeFlags, '--import', 'tsx', join(root, 'bench', 'servers', 'cluster.ts')]
        : [...options.nodeFlags, ...(main.endsWith('.ts') ? ['--import', 'tsx'] : []), main];
    const logFile = join(dir, 'server.log');
    const log = openSync(logFile, 'a');
    const proc = spawn(process.execPath, args, {
      cwd: root,
      env,
      stdio: ['ignore', log, log, ...(workers > 1 ? (['ipc'] as const) : [])],
    });
    closeSync(log);
    track(proc);
    const server = new ShippedServer(port, dir, logFile, proc);
    try {
      const workerPids =
        workers > 1
          ? new Promise<number[]>((r) => proc.once('message', (m: { type: string; pids: number[] }) => r(m.pids)))
          : Promise.resolve([]);
      await server.waitHealthy(120_000);
      server.pids = [proc.pid!, ...(await workerPids)];
      if (options.console) return server;
      if (options.appId) {
        server.appId = options.appId;
        server.deployMessage = 'deployed earlier';
      } else {
        const seeded = await seedShopOverHttp(server.baseUrl, DEMO_USER);
        server.appId = seeded.appId;
        server.deployMessage = seeded.deployMessage;
      }
      await server.selfCheck();
      return server;
    } catch (err) {
      proc.kill('SIGKILL');
      const tail = server.logTail();
      server.remove();
      throw new Error(`${(err as Error).message}\n--- server log (last 2 KB) ---\n${tail}`);
    }
  }

  logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-2048);
    } catch {
      return '(no log)';
    }
  }

  logBytes(): number {
    return statSync(this.logFile).size;
  }

  private async waitHealthy(timeoutMs: number): Promise<void> {
    const startedAt = performance.now();
    const deadline = startedAt + timeoutMs;
    while (performance.now() < deadline) {
      if (this.proc.exitCode !== null || this.proc.signalCode !== null)
        throw new Error(`the server exited (${this.proc.exitCode ?? this.proc.signalCode})`);
      try {
        const res = await fetch(`${this.baseUrl}/api/health`);
        if (res.status === 200) {
          this.healthyAfterMs = performance.now() - startedAt;
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(20);
    }
    throw new Error(`the server did not answer /api/health within ${timeoutMs / 1000} s`);
  }

  /** One session over HTTP before any load: a wrong screen here means the figures would be meaningless. */
  private async selfCheck(): Promise<void> {
    for (let step = 0; step < 3; step++) {
      const res = await fetch(`${this.baseUrl}/ussd/${this.appId}/live`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: atForm('bench-selfcheck', step, 7),
      });
      const body = await res.text();
      const want = expectedReply(step, 7);
      if (body !== want)
        throw new Error(`self-check hop ${step + 1}: expected ${JSON.stringify(want)}, got ${res.status} ${JSON.stringify(body)}`);
    }
  }

  cpuMs(): number {
    let total = 0;
    for (const pid of this.pids) total += readCpuMs(pid);
    return total;
  }

  mark(): void {
    this.markCpuMs = this.cpuMs();
    this.markAt = performance.now();
  }

  /** CPU since mark() from /proc; what only an in-process probe knows (ELU, loop delay, GC) is NaN. */
  usage(): ChildUsage {
    return {
      cpuUserMs: this.cpuMs() - this.markCpuMs,
      cpuSystemMs: 0,
      wallMs: performance.now() - this.markAt,
      elu: Number.NaN,
      loopDelayP99Ms: Number.NaN,
      loopDelayMaxMs: Number.NaN,
      gcTotalMs: Number.NaN,
      gcMaxMs: Number.NaN,
      rssMb: this.pids.reduce((sum, pid) => sum + readRssMb(pid), 0),
      openConnections: Number.NaN,
      acceptedConnections: Number.NaN,
    };
  }

  async eventStats(): Promise<EventStats | undefined> {
    const res = await fetch(`${this.baseUrl}/api/health`);
    const body = (await res.json()) as { data?: { events?: EventStats } };
    return body.data?.events;
  }

  /** Waits until the event buffer is empty (asked a few times in a row: with a cluster each asks one worker). */
  async settle(timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    let emptyInARow = 0;
    while (performance.now() < deadline && emptyInARow < this.pids.length * 2) {
      const stats = await this.eventStats();
      emptyInARow = stats && stats.buffered === 0 ? emptyInARow + 1 : 0;
      if (emptyInARow === 0) await sleep(100);
    }
  }

  /** SIGTERM, as a service manager stops it; resolves with how long it took to exit (its drain). */
  async stop(timeoutMs = 30_000): Promise<number> {
    const started = performance.now();
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return 0;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    return performance.now() - started;
  }

  /** The temporary folder (database, log) goes once the figures are read. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Counts the app's records in a stopped server's database, opened with the project's openDatabase: its PGlite
 * folder under DATA_DIR, or PostgreSQL. `databaseName` asks pg_stat_database for statements and inserted rows.
 */
export async function countPersisted(
  source: { dataDir: string } | { url: string; databaseName: string },
  appId: string,
): Promise<PersistedCounts> {
  const database = await openDatabase('url' in source ? { url: source.url, poolSize: 1 } : { dataDir: join(source.dataDir, 'pglite') });
  try {
    const db = database.db;
    const [completed] = await db
      .select({ n: count() })
      .from(sessionRecords)
      .where(and(eq(sessionRecords.appId, appId), eq(sessionRecords.status, 'completed')));
    const [sessions] = await db.select({ n: count() }).from(sessionRecords).where(eq(sessionRecords.appId, appId));
    const [logs] = await db.select({ n: count() }).from(appLogs).where(eq(appLogs.appId, appId));
    const [inputs] = await db.select({ n: count() }).from(sessionInputs).where(eq(sessionInputs.appId, appId));
    const [actions] = await db.select({ n: count() }).from(actionResults).where(eq(actionResults.appId, appId));
    const counts: PersistedCounts = {
      completedSessions: completed!.n,
      sessionRows: sessions!.n,
      logRows: logs!.n,
      inputRows: inputs!.n,
      actionRows: actions!.n,
    };
    if ('databaseName' in source) {
      const result = await db.execute(
        sql`select xact_commit::int as statements, tup_inserted::int as inserted from pg_stat_database where datname = ${source.databaseName}`,
      );
      const row = (result as { rows: unknown[] }).rows[0] as { statements: number; inserted: number } | undefined;
      counts.statements = row?.statements;
      counts.insertedRows = row?.inserted;
    }
    return counts;
  } finally {
    await database.close();
  }
}
