// Over 400 lines: the pool's fairness, queue and watchdogs share one worker table; split, each would reach into it.
/**
 * The javascript pool: QuickJS in worker threads, one job per worker at a time, a queue per tenant in front,
 * and watchdogs per running job.
 *
 * Tenants (JsJob.tenant: the account that owns the app) share the workers fairly, so one account flooding
 * the pool slows only itself:
 * - A tenant holds at most half the workers (rounded up): one account's scripts can keep at most half the
 *   cores busy, whatever else the server (hops, the database thread) and the other tenants need.
 * - A tenant that already holds a worker never takes the last idle one: it stays free for a tenant that
 *   holds none, whose job then starts at once instead of waiting for a running script to end (up to the
 *   250 ms CPU limit, where a typical hop's script takes a millisecond or two). With 4 or more workers this
 *   holds even while two tenants flood the pool together (2 + 1 held, 1 idle).
 * - When a worker frees up, the waiting tenant holding the fewest workers goes first, ties to whoever has
 *   waited longest for a turn; each tenant's own jobs run in the order they came.
 * - A tenant may have at most `maxQueuedPerTenant` jobs waiting; past that a job is refused at once with
 *   an error that says so, rather than queueing into its deadline.
 * - Tenants may also share a group (JsJob.group): the server puts every unpaid account's scripts in one.
 *   A group's jobs together hold at most half the workers (rounded up), and each of its tenants at most a
 *   quarter (rounded up). Accounts are free, so per-tenant fairness alone gives an attacker with many
 *   accounts many shares; the group cap leaves the other half to paying tenants however many free accounts
 *   flood the pool.
 * When every worker is held, a tenant holding none is still first in line for the next one that frees up.
 *
 * The sandbox stops a script itself at its CPU or wall limit; the watchdogs are for what it cannot stop
 * (long native calls inside QuickJS that never reach its interrupt check): once the worker thread has used
 * the CPU limit plus a grace (read from /proc on Linux), or the wall deadline plus a grace has passed, the
 * worker is terminated, the job answered, and a replacement started. A stuck tenant costs one worker for a
 * moment, never the whole pool.
 *
 * Workers start when jobs need them, not with the pool: a job that finds no idle worker starts one (up to `size`,
 * with the spares beside the first), and a worker idle for `idleMs` is stopped, the spares with the last active
 * one, so a server whose tenants run no scripts holds no QuickJS heap (docs/operations.md, Memory). The rules
 * above count started idle workers only, as they did when every worker started with the pool. `ready()` starts
 * them all at once (tests, a warm-up).
 *
 * Workers start from worker-entry.mjs, which registers tsx inside the thread and imports worker.ts, so the
 * same code runs under `tsx` (the server) and under vitest, with no build step.
 *
 * @example
 *   const pool = createJavascriptPool({ size: 2 });
 *   await pool.run({ code: 'return { goto: "balance" }', scope: { session, input: '1', actions: {} } });
 *   // { ok: true, result: { goto: 'balance' }, logs: [] }
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { toErrorMessage } from '../../shared/errors';
import { DEFAULT_JS_LIMITS, type JsJob, type JsLimits, type JsOutcome, type RunMessage, type WorkerMessage } from './limits';
import { readThreadCpuMs } from './thread-cpu';

export interface JavascriptPoolOptions {
  /** Worker threads; default the CPU count, at least 2 and at most 8. */
  size?: number;
  /**
   * Started workers kept idle to take a lost worker's place at once: starting one takes 200-600 ms, during
   * which the pool would otherwise be a worker short. Default 1.
   */
  spares?: number;
  limits?: Partial<JsLimits>;
  /** How long past a run's wall deadline the watchdog waits before it terminates the worker. */
  graceMs?: number;
  /**
   * CPU time past the CPU limit after which the watchdog terminates a worker that has not stopped itself
   * (Linux only; elsewhere the wall deadline is the backstop).
   */
  cpuGraceMs?: number;
  /** Jobs one tenant may have waiting for a worker; more are refused at once. Default 64. */
  maxQueuedPerTenant?: number;
  /**
   * A worker idle this long is stopped (the spares with the last active one); the next job starts one again
   * (200-600 ms). 0 keeps started workers for the pool's life. Default 60 s.
   */
  idleMs?: number;
}

export interface JavascriptPoolStats {
  size: number;
  /** Active workers that have started. */
  ready: number;
  /** Started spares. */
  spares: number;
  busy: number;
  queued: number;
  /** Tenants with a job running or waiting. */
  tenants: number;
  /** Jobs refused since the pool started because their tenant already had `maxQueuedPerTenant` waiting. */
  refused: number;
  /** Workers terminated by the watchdog since the pool started. */
  killed: number;
  /** Workers that exited on their own (a crash) since the pool started. */
  crashed: number;
  /** Workers stopped after `idleMs` without a job since the pool started. */
  stopped: number;
}

export interface JavascriptPool {
  readonly limits: Readonly<JsLimits>;
  /** Never rejects: every failure is an outcome with `ok: false`. */
  run(job: JsJob): Promise<JsOutcome>;
  /** Starts every worker (`size` and the spares) and resolves once each has loaded QuickJS; jobs may be sent before. */
  ready(): Promise<void>;
  stats(): JavascriptPoolStats;
  /** Fails queued and running jobs and terminates the workers. */
  close(): Promise<void>;
}

interface PendingJob {
  id: number;
  tenant: Tenant;
  group: Group | undefined;
  code: string;
  scopeJson: string;
  deadline: number;
  resolve(outcome: JsOutcome): void;
  queueTimer?: NodeJS.Timeout;
}

interface Tenant {
  /** undefined for a job sent without a tenant: it is a tenant of its own, never looked up. */
  key: string | undefined;
  /** Waiting jobs, oldest first. */
  queue: PendingJob[];
  /** Workers running this tenant's jobs now. */
  running: number;
}

/** Tenants whose jobs are held to a share of the pool together (JsJob.group). */
interface Group {
  key: string;
  /** Workers running this group's jobs now. */
  running: number;
}

interface Slot {
  worker: Worker;
  /** Spares get no jobs until promoted. */
  role: 'active' | 'spare';
  state: 'starting' | 'idle' | 'busy' | 'gone';
  job: PendingJob | null;
  watchdog: NodeJS.Timeout | null;
  cpuWatchdog: NodeJS.Timeout | null;
  /** /proc/self/task/<tid> of the worker thread, when the OS lets us read its CPU time. */
  taskDir: string | null;
  /** performance.now() when it last became idle (the idle reaper stops it `idleMs` later). */
  idleSince: number;
}

const WORKER_URL = new URL('./worker-entry.mjs', import.meta.url);
const MAX_DEFAULT_SIZE = 8;
const MAX_START_FAILURES = 3;
const DEFAULT_MAX_QUEUED_PER_TENANT = 64;
const DEFAULT_IDLE_MS = 60_000;

export function createJavascriptPool(options: JavascriptPoolOptions = {}): JavascriptPool {
  const limits: JsLimits = { ...DEFAULT_JS_LIMITS, ...options.limits };
  const size = Math.max(1, options.size ?? Math.min(MAX_DEFAULT_SIZE, Math.max(2, availableParallelism())));
  const spares = Math.max(0, options.spares ?? 1);
  const graceMs = options.graceMs ?? 250;
  const cpuGraceMs = options.cpuGraceMs ?? 250;
  const maxQueuedPerTenant = Math.max(1, options.maxQueuedPerTenant ?? DEFAULT_MAX_QUEUED_PER_TENANT);
  const idleMs = Math.max(0, options.idleMs ?? DEFAULT_IDLE_MS);
  const maxWorkersPerTenant = Math.ceil(size / 2);
  const maxWorkersPerGroup = Math.ceil(size / 2);
  const maxWorkersPerGroupTenant = Math.ceil(size / 4);
  /** Idle workers only a tenant holding none may take (see the doc comment). */
  const reservedWorkers = size > 1 ? 1 : 0;
  const slots = new Set<Slot>();
  /** Tenants with a job running or waiting, by key. */
  const tenants = new Map<string, Tenant>();
  /** Groups by key, kept for the pool's life: a handful of keys (the server names one). */
  const groups = new Map<string, Group>();

  function getGroup(key: string | undefined): Group | undefined {
    if (key === undefined) return undefined;
    let group = groups.get(key);
    if (!group) {
      group = { key, running: 0 };
      groups.set(key, group);
    }
    return group;
  }
  /** Tenants with jobs waiting, in the order of their turns (round robin among equals). */
  const waiting: Tenant[] = [];
  let queued = 0;
  let nextId = 1;
  let isClosed = false;
  let killed = 0;
  let crashed = 0;
  let refused = 0;
  let startFailures = 0;
  let lastStartError = '';
  let readyWaiters: Array<() => void> = [];
  let respawnTimer: NodeJS.Timeout | null = null;
  let reaper: NodeJS.Timeout | null = null;
  let stopped = 0;

  function settle(job: PendingJob, outcome: JsOutcome): void {
    if (job.queueTimer) clearTimeout(job.queueTimer);
    job.resolve(outcome);
  }

  function getTenant(key: string | undefined): Tenant {
    if (key === undefined) return { key, queue: [], running: 0 };
    let tenant = tenants.get(key);
    if (!tenant) {
      tenant = { key, queue: [], running: 0 };
      tenants.set(key, tenant);
    }
    return tenant;
  }

  function forgetIfIdle(tenant: Tenant): void {
    if (tenant.running === 0 && tenant.queue.length === 0 && tenant.key !== undefined) tenants.delete(tenant.key);
  }

  function enqueue(job: PendingJob): void {
    if (job.tenant.queue.length === 0) waiting.push(job.tenant);
    job.tenant.queue.push(job);
    queued += 1;
  }

  /** Takes a waiting job out of its tenant's queue (its deadline passed); false if it had left it already. */
  function unqueue(job: PendingJob): boolean {
    const queue = job.tenant.queue;
    const index = queue.indexOf(job);
    if (index === -1) return false;
    queue.splice(index, 1);
    queued -= 1;
    if (queue.length === 0) waiting.splice(waiting.indexOf(job.tenant), 1);
    forgetIfIdle(job.tenant);
    return true;
  }

  /** The slot's job has been answered or lost: its tenant holds one worker fewer. */
  function releaseJob(slot: Slot): PendingJob | null {
    const job = slot.job;
    slot.job = null;
    if (job) {
      job.tenant.running -= 1;
      forgetIfIdle(job.tenant);
      if (job.group) job.group.running -= 1;
    }
    return job;
  }

  function spawn(role: Slot['role']): void {
    if (isClosed) return;
    const worker = new Worker(WORKER_URL, {
      workerData: { limits },
      // QuickJS keeps its heap in wasm memory, outside these; they bound the thread's own JavaScript. The
      // larger native stack keeps QuickJS's 512 KiB stack check ahead of V8's own overflow of the thread.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 8 },
    });
    const slot: Slot = { worker, role, state: 'starting', job: null, watchdog: null, cpuWatchdog: null, taskDir: null, idleSince: 0 };
    slots.add(slot);
    worker.unref();
    worker.on('message', (message: WorkerMessage) => onMessage(slot, message));
    worker.on('error', (err: unknown) => {
      const message = toErrorMessage(err);
      if (slot.state === 'starting') lastStartError = message;
      onGone(slot, `Script worker failed: ${message}`);
    });
    worker.on('exit', (code) => onGone(slot, `Script worker exited (code ${code})`));
  }

  function onMessage(slot: Slot, message: WorkerMessage): void {
    if (slot.state === 'gone') return;
    if (message.type === 'ready') {
      startFailures = 0;
      lastStartError = '';
      slot.state = 'idle';
      slot.idleSince = performance.now();
      watchIdle();
      slot.taskDir = message.tid && readThreadCpuMs(`/proc/self/task/${message.tid}`) !== null ? `/proc/self/task/${message.tid}` : null;
      if (isAllReady()) {
        for (const wake of readyWaiters) wake();
        readyWaiters = [];
      }
      dispatch();
      return;
    }
    if (message.type === 'done' && slot.job?.id === message.id) {
      const job = releaseJob(slot)!;
      clearWatchdogs(slot);
      slot.state = 'idle';
      slot.idleSince = performance.now();
      slot.worker.unref();
      settle(job, message.outcome);
      dispatch();
    }
  }

  /** The worker is gone (crashed, exited, or killed by us): answer its job, replace it. */
  function onGone(slot: Slot, reason: string, isKill = false): void {
    if (slot.state === 'gone') return;
    const wasStarting = slot.state === 'starting';
    slot.state = 'gone';
    slots.delete(slot);
    clearWatchdogs(slot);
    const job = releaseJob(slot);
    if (job) settle(job, { ok: false, error: reason, logs: [] });
    void slot.worker.terminate();
    if (isClosed) return;
    if (!wasStarting) {
      if (!isKill) crashed += 1;
      const spare = slot.role === 'active' ? [...slots].find((s) => s.role === 'spare') : undefined;
      if (spare) {
        spare.role = 'active';
        dispatch();
      }
      spawn(spare ? 'spare' : slot.role);
      return;
    }
    // A worker that cannot even start (a missing package, a broken install) would fail forever: after a few
    // tries, fail what waits with the reason instead of letting it run into its deadline, and retry slowly.
    startFailures += 1;
    if (startFailures >= MAX_START_FAILURES && readyCount() === 0) {
      failQueued(`The javascript sandbox is unavailable: ${lastStartError || reason}`);
    }
    if (startFailures < MAX_START_FAILURES) {
      spawn(slot.role);
    } else if (!respawnTimer) {
      const delay = Math.min(30_000, 1000 * 2 ** (startFailures - MAX_START_FAILURES));
      respawnTimer = setTimeout(() => {
        respawnTimer = null;
        // One worker at least: run() refuses while none has started, so without this try nothing would start one.
        grow(Math.max(1, demand()));
      }, delay);
      respawnTimer.unref();
    }
  }

  function clearWatchdogs(slot: Slot): void {
    if (slot.watchdog) clearTimeout(slot.watchdog);
    if (slot.cpuWatchdog) clearTimeout(slot.cpuWatchdog);
    slot.watchdog = null;
    slot.cpuWatchdog = null;
  }

  /** Terminates a worker that holds a job past a limit; the job is answered with `outcome`. */
  function kill(slot: Slot, job: PendingJob, outcome: JsOutcome): void {
    if (slot.job !== job) return;
    killed += 1;
    releaseJob(slot);
    settle(job, outcome);
    onGone(slot, outcome.ok ? '' : outcome.error, true);
  }

  /**
   * QuickJS checks for interrupts every so many bytecode operations, so a script that spends its time in
   * long native calls (`for (;;) Array.from({ length: 1e6 })`) can run far past its CPU limit without being
   * asked to stop. Watching the worker thread's CPU time from here catches it at the limit plus a grace.
   */
  function watchCpu(slot: Slot, job: PendingJob): void {
    const taskDir = slot.taskDir;
    const cpuAtStart = taskDir ? readThreadCpuMs(taskDir) : null;
    if (!taskDir || cpuAtStart === null) return;
    const check = (): void => {
      if (slot.job !== job) return;
      const used = (readThreadCpuMs(taskDir) ?? cpuAtStart) - cpuAtStart;
      if (used >= limits.cpuMs + cpuGraceMs) {
        kill(slot, job, { ok: false, error: `Script used more than ${limits.cpuMs} ms of CPU`, logs: [] });
        return;
      }
      slot.cpuWatchdog = setTimeout(check, Math.max(20, limits.cpuMs + cpuGraceMs - used));
    };
    slot.cpuWatchdog = setTimeout(check, limits.cpuMs + cpuGraceMs);
  }

  function countRole(role: Slot['role']): number {
    let n = 0;
    for (const slot of slots) if (slot.role === role) n += 1;
    return n;
  }

  /** Active workers the jobs now need: the busy ones and one for each waiting job, at most `size`. */
  function demand(): number {
    let busy = 0;
    for (const slot of slots) if (slot.role === 'active' && slot.state === 'busy') busy += 1;
    return Math.min(size, busy + queued);
  }

  /** Starts active workers up to `wanted` (at most `size`), and the spares once any active worker runs. */
  function grow(wanted: number): void {
    if (isClosed) return;
    for (let active = countRole('active'); active < Math.min(size, wanted); active += 1) spawn('active');
    if (countRole('active') > 0) for (let spare = countRole('spare'); spare < spares; spare += 1) spawn('spare');
  }

  /** A worker stopped on purpose (idle): gone without being counted as a crash or replaced. */
  function retire(slot: Slot): void {
    slot.state = 'gone';
    slots.delete(slot);
    stopped += 1;
    void slot.worker.terminate();
  }

  /** Checks now and then, while any worker is started, for workers idle `idleMs` (see the doc comment). */
  function watchIdle(): void {
    if (idleMs === 0 || reaper || isClosed) return;
    reaper = setInterval(reapIdle, Math.max(50, Math.min(10_000, idleMs / 2)));
    reaper.unref();
  }

  function reapIdle(): void {
    // A waiting job may be kept off an idle worker by the rules (the reserved one): it is not idle for want of work.
    if (queued > 0) return;
    const now = performance.now();
    for (const slot of [...slots]) {
      if (slot.role === 'active' && slot.state === 'idle' && now - slot.idleSince >= idleMs) retire(slot);
    }
    if (countRole('active') === 0) for (const slot of [...slots]) if (slot.state !== 'busy') retire(slot);
    if (slots.size === 0 && reaper) {
      clearInterval(reaper);
      reaper = null;
    }
  }

  function isAllReady(): boolean {
    let started = 0;
    for (const slot of slots) if (slot.state !== 'starting') started += 1;
    return started === size + spares && slots.size === size + spares;
  }

  function readyCount(): number {
    let n = 0;
    for (const slot of slots) if (slot.role === 'active' && (slot.state === 'idle' || slot.state === 'busy')) n += 1;
    return n;
  }

  function dispatch(): void {
    if (queued === 0) return;
    let idle = 0;
    for (const slot of slots) if (slot.state === 'idle' && slot.role === 'active') idle += 1;
    for (const slot of slots) {
      if (slot.state !== 'idle' || slot.role !== 'active') continue;
      const job = takeNextJob(idle);
      if (!job) return;
      start(slot, job);
      idle -= 1;
    }
  }

  /** The next job to start on one of `idle` idle workers, by the rules in the doc comment; undefined when none may. */
  function takeNextJob(idle: number): PendingJob | undefined {
    for (;;) {
      let chosen = -1;
      for (let i = 0; i < waiting.length; i += 1) {
        const tenant = waiting[i]!;
        if (tenant.running >= maxWorkersPerTenant || (tenant.running > 0 && idle <= reservedWorkers)) continue;
        const group = tenant.queue[0]!.group;
        if (group && (group.running >= maxWorkersPerGroup || tenant.running >= maxWorkersPerGroupTenant)) continue;
        if (chosen === -1 || tenant.running < waiting[chosen]!.running) chosen = i;
      }
      if (chosen === -1) return undefined;
      const tenant = waiting[chosen]!;
      const job = tenant.queue.shift()!;
      queued -= 1;
      // Its turn is taken: to the back of the line, or out of it.
      waiting.splice(chosen, 1);
      if (tenant.queue.length > 0) waiting.push(tenant);
      if (job.deadline - Date.now() > 0) return job;
      forgetIfIdle(tenant);
      settle(job, timedOutWaiting());
    }
  }

  function failQueued(error: string): void {
    for (const tenant of waiting.splice(0)) {
      for (const job of tenant.queue.splice(0)) settle(job, { ok: false, error, logs: [] });
      forgetIfIdle(tenant);
    }
    queued = 0;
  }

  function start(slot: Slot, job: PendingJob): void {
    if (job.queueTimer) clearTimeout(job.queueTimer);
    job.queueTimer = undefined;
    // The wall limit counts from the start of the run; time spent queued counts only against the job's deadline.
    const deadline = Math.min(job.deadline, Date.now() + limits.wallMs);
    slot.state = 'busy';
    slot.job = job;
    job.tenant.running += 1;
    if (job.group) job.group.running += 1;
    slot.worker.ref();
    slot.watchdog = setTimeout(
      () => kill(slot, job, { ok: false, error: 'Script timed out', timedOut: true, logs: [] }),
      deadline - Date.now() + graceMs,
    );
    watchCpu(slot, job);
    const message: RunMessage = { type: 'run', id: job.id, code: job.code, scopeJson: job.scopeJson, limits, deadline };
    slot.worker.postMessage(message);
  }

  function run(job: JsJob): Promise<JsOutcome> {
    if (isClosed) return Promise.resolve({ ok: false, error: 'The javascript pool is closed', logs: [] });
    if (typeof job.code !== 'string') return Promise.resolve({ ok: false, error: 'Script code must be a string', logs: [] });
    if (job.code.length > limits.codeChars) {
      return Promise.resolve({ ok: false, error: `Script is longer than ${limits.codeChars} characters`, logs: [] });
    }
    let scopeJson: string;
    try {
      scopeJson = JSON.stringify({ session: job.scope.session ?? null, input: job.scope.input ?? null, actions: job.scope.actions ?? {} });
    } catch (err) {
      return Promise.resolve({ ok: false, error: `The script input is not JSON: ${toErrorMessage(err)}`, logs: [] });
    }
    const deadline = job.deadline ?? Date.now() + limits.wallMs;
    if (deadline <= Date.now()) return Promise.resolve(timedOutWaiting());
    if (startFailures >= MAX_START_FAILURES && readyCount() === 0) {
      return Promise.resolve({ ok: false, error: `The javascript sandbox is unavailable: ${lastStartError}`, logs: [] });
    }
    const tenant = getTenant(job.tenant);
    if (tenant.queue.length >= maxQueuedPerTenant) {
      refused += 1;
      return Promise.resolve({
        ok: false,
        error: `Too many scripts of this account are waiting for a worker (${maxQueuedPerTenant}); try again shortly`,
        logs: [],
      });
    }
    return new Promise<JsOutcome>((resolve) => {
      const pending: PendingJob = { id: nextId++, tenant, group: getGroup(job.group), code: job.code, scopeJson, deadline, resolve };
      enqueue(pending);
      dispatch();
      if (tenant.queue.includes(pending)) {
        if (startFailures < MAX_START_FAILURES) grow(demand());
        // Waits for a worker no longer than its deadline. Idle workers are unref'd, so this timer is also
        // what keeps a process alive while a job waits for a worker that is still starting.
        pending.queueTimer = setTimeout(() => {
          if (unqueue(pending)) settle(pending, timedOutWaiting());
        }, deadline - Date.now());
      }
    });
  }

  function ready(): Promise<void> {
    if (startFailures < MAX_START_FAILURES) grow(size);
    if (isAllReady() || isClosed) return Promise.resolve();
    return new Promise((resolve) => readyWaiters.push(resolve));
  }

  async function close(): Promise<void> {
    if (isClosed) return;
    isClosed = true;
    if (respawnTimer) clearTimeout(respawnTimer);
    if (reaper) clearInterval(reaper);
    failQueued('The javascript pool is closed');
    const exits: Promise<number>[] = [];
    for (const slot of [...slots]) {
      clearWatchdogs(slot);
      const job = releaseJob(slot);
      if (job) settle(job, { ok: false, error: 'The javascript pool is closed', logs: [] });
      slot.state = 'gone';
      exits.push(slot.worker.terminate());
    }
    slots.clear();
    for (const wake of readyWaiters) wake();
    readyWaiters = [];
    await Promise.allSettled(exits);
  }

  function stats(): JavascriptPoolStats {
    let busy = 0;
    for (const slot of slots) if (slot.state === 'busy') busy += 1;
    let readySpares = 0;
    for (const slot of slots) if (slot.role === 'spare' && slot.state === 'idle') readySpares += 1;
    return { size, ready: readyCount(), spares: readySpares, busy, queued, tenants: tenants.size, refused, killed, crashed, stopped };
  }

  return { limits, run, ready, stats, close };
}

function timedOutWaiting(): JsOutcome {
  return { ok: false, error: 'Script timed out waiting for a free worker', timedOut: true, logs: [] };
}
