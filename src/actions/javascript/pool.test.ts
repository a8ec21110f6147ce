import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsJob, JsOutcome } from './limits';
import { createJavascriptPool, type JavascriptPool } from './pool';

const session = {
  sessionId: 's-1',
  mobile: '233241234567',
  network: 'MTN',
  serviceCode: '*123#',
  inputs: { amount: '20', menu: '2', menuLabel: 'Data' },
  vars: { tier: 'gold' },
};
const scope = { session, input: '2', actions: { getBalance: { status: 200, ok: true, body: { balance: 50 } } } };

let pool: JavascriptPool;
/** Starting four QuickJS workers takes a few seconds of CPU on a loaded 2-core machine. */
const WORKERS_START_TIMEOUT_MS = 30_000;

beforeAll(async () => {
  pool = createJavascriptPool({ size: 2, spares: 0 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
});

function run(code: string, job: Partial<JsJob> = {}, on: JavascriptPool = pool): Promise<JsOutcome> {
  return on.run({ code, scope, ...job });
}

function errorOf(outcome: JsOutcome): string {
  expect(outcome.ok).toBe(false);
  return outcome.ok ? '' : outcome.error;
}

describe('javascript pool: results', () => {
  it('returns the value and the log lines', async () => {
    const outcome = await run('log.info("hello", { a: 1 }); log.debug("d"); log.error("e"); console.log("c", 2); return 40 + 2');
    expect(outcome).toMatchObject({
      ok: true,
      result: 42,
      logs: [
        { level: 'info', message: 'hello {"a":1}' },
        { level: 'debug', message: 'd' },
        { level: 'error', message: 'e' },
        { level: 'debug', message: 'c 2' },
      ],
    });
  });

  it('sees session, input and actions as plain data', async () => {
    const outcome = await run(
      'return [session.mobile, session.inputs.amount, session.inputs.menuLabel, session.vars.tier, input, actions.getBalance.body.balance]',
    );
    expect(outcome).toMatchObject({ ok: true, result: ['233241234567', '20', 'Data', 'gold', '2', 50] });
  });

  it('hands steering objects back intact', async () => {
    expect(await run('return { goto: "balance", vars: { a: 1, b: [1, "x"] } }')).toMatchObject({
      ok: true,
      result: { goto: 'balance', vars: { a: 1, b: [1, 'x'] } },
    });
    expect(await run('return { end: "Bye" }')).toMatchObject({ ok: true, result: { end: 'Bye' } });
  });

  it('awaits promises, and copies only JSON out', async () => {
    expect(await run('const v = await Promise.resolve(5); return v * 2')).toMatchObject({ ok: true, result: 10 });
    expect(await run('log.info("nothing returned")')).toMatchObject({ ok: true, result: null });
    expect(await run('return { f() {}, n: undefined, d: new Date(0) }')).toMatchObject({
      ok: true,
      result: { d: '1970-01-01T00:00:00.000Z' },
    });
    expect(await run('return () => 1')).toMatchObject({ ok: true, result: null });
    expect(errorOf(await run('const o = {}; o.self = o; return o'))).toMatch(/not JSON: TypeError: circular reference/);
    expect(errorOf(await run('return await new Promise(() => {})'))).toBe('Script awaited something that never settles');
    expect(errorOf(await run('let o = 1; for (let i = 0; i < 100; i++) o = [o]; return o'))).toBe(
      'The returned value is nested deeper than 64 levels',
    );
  });

  it('reports a syntax error with its line', async () => {
    expect(errorOf(await run('const a = 1;\n\nlet x = ;'))).toMatch(/^SyntaxError: .+ \(line 3\)$/);
  });

  it('reports a runtime error with its line, and thrown non-errors as text', async () => {
    expect(errorOf(await run('const a = null;\nreturn a.b;'))).toBe("TypeError: cannot read property 'b' of null (line 2)");
    expect(errorOf(await run('throw "nope"'))).toBe('nope');
    expect(errorOf(await run('throw { code: 7 }'))).toBe('{"code":7}');
    expect(errorOf(await run('await null;\nthrow new RangeError("late")'))).toBe('RangeError: late (line 2)');
  });

  it('refuses code over 100,000 characters without running it', async () => {
    const outcome = await run(`return 1; //${'x'.repeat(100_000)}`);
    expect(errorOf(outcome)).toBe('Script is longer than 100000 characters');
    expect(await run(`return 1; //${'x'.repeat(99_000)}`)).toMatchObject({ ok: true, result: 1 });
  });

  it('leaves nothing of one run for the next', async () => {
    await run('globalThis.leak = "secret"; Object.prototype.polluted = 1; Array.prototype.push = null; log = null');
    for (let i = 0; i < 4; i++) {
      expect(await run('const a = []; a.push(1); return [typeof leak, typeof ({}).polluted, a.length]')).toMatchObject({
        ok: true,
        result: ['undefined', 'undefined', 1],
      });
    }
  });
});

describe('javascript pool: nothing of the host is reachable', () => {
  it('has no process, require, module loader, timers or network', async () => {
    const outcome = await run(`
      const g = Function('return this')();
      const viaCtor = this.constructor.constructor('return typeof process')();
      const viaLog = log.info.constructor('return typeof process')();
      let imported;
      try { await import('fs'); imported = 'loaded'; } catch (e) { imported = String(e); }
      return {
        kinds: [typeof process, typeof globalThis.process, typeof require, typeof module, typeof setTimeout,
          typeof setInterval, typeof fetch, typeof XMLHttpRequest, typeof WebAssembly, typeof g.process, typeof Buffer],
        viaCtor, viaLog, imported,
        logIsSandboxed: log.info.constructor === Function,
        globals: Object.getOwnPropertyNames(g),
      };`);
    expect(outcome.ok).toBe(true);
    const result = (
      outcome as {
        result: { kinds: string[]; viaCtor: string; viaLog: string; imported: string; logIsSandboxed: boolean; globals: string[] };
      }
    ).result;
    expect(result.kinds.every((kind) => kind === 'undefined')).toBe(true);
    expect(result.viaCtor).toBe('undefined');
    expect(result.viaLog).toBe('undefined');
    expect(result.logIsSandboxed).toBe(true);
    expect(result.imported).toMatch(/could not load module 'fs'/);
    for (const name of ['process', 'require', 'setTimeout', 'fetch', 'queueMicrotask', 'hostLog', 'Deno', 'Bun', 'global']) {
      expect(result.globals).not.toContain(name);
    }
  });

  it('finds no process by calling the Function constructor outright', async () => {
    expect(errorOf(await run(`return this.constructor.constructor('return process')()`))).toMatch(
      /ReferenceError: 'process' is not defined/,
    );
    expect(errorOf(await run(`return Function('return require("fs")')()`))).toMatch(/ReferenceError: 'require' is not defined/);
  });
});

describe('javascript pool: hostile scripts', () => {
  it('stops an endless loop at 250 ms of CPU, even one that catches', async () => {
    const { killed } = pool.stats();
    expect(errorOf(await run('while (true) {}'))).toBe('Script used more than 250 ms of CPU');
    expect(errorOf(await run('for (;;) { try { for (;;) {} } catch (e) {} finally { continue; } }'))).toBe(
      'Script used more than 250 ms of CPU',
    );
    // The sandbox stopped both itself: no worker was terminated, and they go on answering.
    expect(pool.stats().killed).toBe(killed);
    expect(await run('return 1')).toMatchObject({ ok: true, result: 1 });
  });

  it(
    'keeps the other worker answering while one loops',
    async () => {
      // A CPU limit far past the test's end: the loop holds its worker until the pool closes.
      const own = createJavascriptPool({ size: 2, spares: 0, limits: { cpuMs: 60_000, wallMs: 120_000 } });
      try {
        await own.ready();
        let hasLoopEnded = false;
        const looping = run('while (true) {}', {}, own).finally(() => {
          hasLoopEnded = true;
        });
        for (let i = 0; i < 10; i++) {
          expect(await run('return session.mobile', {}, own)).toMatchObject({ ok: true, result: '233241234567' });
          expect(own.stats()).toMatchObject({ busy: 1, queued: 0 });
        }
        expect(hasLoopEnded).toBe(false);
        await own.close();
        expect(errorOf(await looping)).toBe('The javascript pool is closed');
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  // The memory and output limits alone: on a loaded machine a bomb's page faults and GC can spend the default
  // 250 ms of CPU before the heap fills, which would answer with the CPU message instead (tested above).
  let roomy: JavascriptPool;
  beforeAll(async () => {
    roomy = createJavascriptPool({ size: 2, spares: 0, limits: { cpuMs: 10_000, wallMs: 20_000 } });
    await roomy.ready();
  }, WORKERS_START_TIMEOUT_MS);
  afterAll(async () => {
    await roomy.close();
  });

  it('ends an allocation bomb with out of memory, and the worker serves the next job', async () => {
    // QuickJS's `new Array(1e6)` is cheap, so this one may meet the CPU limit before the heap limit.
    const literal = await run('let a = []; while (true) a.push(new Array(1e6))');
    expect(errorOf(literal)).toMatch(/Script ran out of memory \(limit 32 MB\)|Script used more than 250 ms of CPU/);
    // Typed arrays and big strings slip past QuickJS's own malloc limit; the capped wasm memory stops them.
    for (const bomb of [
      'let a = []; while (true) a.push(new Uint8Array(1 << 20))',
      'let a = []; while (true) a.push("x".repeat(1 << 20) + a.length)',
    ]) {
      const outcome = await run(bomb, {}, roomy);
      expect(errorOf(outcome)).toMatch(/^Script ran out of memory \(limit 32 MB\)/);
    }
    // Both workers have been through a bomb by now (round robin is not guaranteed, so run a few).
    for (let i = 0; i < 4; i++)
      expect(await run('return new Array(1e5).fill(1).length', {}, roomy)).toMatchObject({ ok: true, result: 100_000 });
  });

  it('ends deep recursion with a stack error', async () => {
    const outcome = await run('function f(n) { return f(n + 1) + 1; }\nreturn f(0);');
    expect(errorOf(outcome)).toMatch(/^Script overflowed its stack \(limit 512 KB\): too deep a recursion\? \(line 1\)$/);
    expect(await run('function f(n) { return n === 0 ? 0 : f(n - 1) + 1; } return f(500)')).toMatchObject({ ok: true, result: 500 });
  });

  it('truncates a 10 MB log flood to 64 KB', async () => {
    for (const flood of [
      'for (let i = 0; i < 100000; i++) log.info("x".repeat(100)); return "done"',
      'log.info("y".repeat(10 * 1024 * 1024)); return "done"',
    ]) {
      const outcome = await run(flood, {}, roomy);
      expect(outcome).toMatchObject({ ok: true, result: 'done' });
      const bytes = outcome.logs.reduce((sum, line) => sum + Buffer.byteLength(line.message), 0);
      expect(bytes).toBeLessThanOrEqual(64 * 1024 + 200);
      expect(outcome.logs.at(-1)).toEqual({ level: 'error', message: 'Log output truncated: logs and result may use 64 KB in all' });
    }
  });

  it('gives the result first call on the 64 KB of output', async () => {
    const outcome = await run('log.info("z".repeat(20000)); return "r".repeat(60000)');
    expect(outcome.ok).toBe(true);
    expect((outcome as { result: string }).result).toHaveLength(60_000);
    expect(outcome.logs[0].message.length).toBeLessThan(64 * 1024 - 60_000);
    expect(outcome.logs.at(-1)?.level).toBe('error');
    expect(errorOf(await run('return "r".repeat(70000)'))).toBe('The returned value is larger than 64 KB');
  });

  it('answers 50 queued jobs on 2 workers', async () => {
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => run(`return input * 2`, { scope: { ...scope, input: i } })));
    expect(outcomes.map((o) => (o.ok ? o.result : o.error))).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
  });
});

describe('javascript pool: tenants', () => {
  it(
    "starts another tenant's jobs at once while one tenant floods the pool",
    async () => {
      const own = createJavascriptPool({ size: 2, spares: 0 });
      try {
        await own.ready();
        // A deadline far past the test's end: A's jobs are still waiting however slow the machine is.
        const deadline = Date.now() + 60_000;
        const flood = Array.from({ length: 32 }, () => run('for (;;) {}', { tenant: 'a', deadline }, own));
        // A tenant alone holds at most size - 1 workers; the rest of its jobs wait.
        expect(own.stats()).toMatchObject({ busy: 1, queued: 31, tenants: 1 });
        for (let i = 0; i < 10; i++) {
          const { queued } = own.stats();
          const job = run('return input * 2', { tenant: 'b', scope: { ...scope, input: i } }, own);
          // B's job went to the free worker when it was sent: it never joined the queue behind A's jobs.
          expect(own.stats()).toMatchObject({ busy: 2, queued, tenants: 2 });
          expect(queued).toBeGreaterThan(0);
          expect(await job).toMatchObject({ ok: true, result: i * 2 });
        }
        await own.close();
        for (const outcome of await Promise.all(flood)) {
          expect(errorOf(outcome)).toMatch(/^(Script used more than 250 ms of CPU|The javascript pool is closed)$/);
        }
        expect(own.stats()).toMatchObject({ busy: 0, queued: 0, tenants: 0 });
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it(
    'lets one tenant hold at most half the workers, and keeps the last idle one for a tenant holding none',
    async () => {
      const own = createJavascriptPool({ size: 4, spares: 0 });
      try {
        await own.ready();
        const deadline = Date.now() + 1000;
        const floods = ['a', 'a', 'a', 'a', 'c', 'c', 'c', 'c'].map((tenant) => run('for (;;) {}', { tenant, deadline }, own));
        // A: two of four (half); C: one, as the fourth is the last idle one.
        expect(own.stats()).toMatchObject({ busy: 3, queued: 5, tenants: 2 });
        const job = run('return "b"', { tenant: 'b' }, own);
        expect(own.stats()).toMatchObject({ busy: 4, queued: 5, tenants: 3 });
        expect(await job).toMatchObject({ ok: true, result: 'b' });
        await Promise.all(floods);
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it(
    'keeps half the workers for paying tenants however many unpaid accounts flood the pool together',
    async () => {
      const own = createJavascriptPool({ size: 4, spares: 0 });
      try {
        await own.ready();
        // A deadline far past the test's end: the floods are still waiting however slow the machine is.
        const deadline = Date.now() + 60_000;
        const floods = ['u1', 'u2', 'u3', 'u4'].flatMap((tenant) =>
          Array.from({ length: 3 }, () => run('for (;;) {}', { tenant, group: 'unpaid', deadline }, own)),
        );
        // The unpaid group holds half the pool (two of four), each of its accounts a quarter (one); per
        // account alone, four accounts would hold all four workers.
        expect(own.stats()).toMatchObject({ busy: 2, queued: 10, tenants: 4 });
        // Paying tenants' jobs start at once, each on a worker the group may not take.
        const paid = run('return "p"', { tenant: 'p', deadline }, own);
        expect(own.stats()).toMatchObject({ busy: 3, queued: 10, tenants: 5 });
        const other = run('return "q"', { tenant: 'q', deadline }, own);
        expect(own.stats()).toMatchObject({ busy: 4, queued: 10, tenants: 6 });
        expect(await paid).toMatchObject({ ok: true, result: 'p' });
        expect(await other).toMatchObject({ ok: true, result: 'q' });
        // Freed workers go to paying tenants' next jobs, never to a third unpaid one.
        expect(own.stats()).toMatchObject({ busy: 2, queued: 10 });
        await own.close();
        await Promise.all(floods);
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it(
    "refuses a tenant's job at once when it already has the most jobs waiting, and serves the others",
    async () => {
      const own = createJavascriptPool({ size: 2, spares: 0, maxQueuedPerTenant: 4 });
      try {
        await own.ready();
        const deadline = Date.now() + 1000;
        const flood = Array.from({ length: 5 }, () => run('for (;;) {}', { tenant: 'a', deadline }, own));
        const refused = await run('return 1', { tenant: 'a' }, own);
        expect(refused).toMatchObject({
          ok: false,
          error: 'Too many scripts of this account are waiting for a worker (4); try again shortly',
          logs: [],
        });
        expect(own.stats()).toMatchObject({ busy: 1, queued: 4, refused: 1 });
        expect(await run('return 2', { tenant: 'b' }, own)).toMatchObject({ ok: true, result: 2 });
        await Promise.all(flood);
        expect(await run('return 3', { tenant: 'a' }, own)).toMatchObject({ ok: true, result: 3 });
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );
});

describe('javascript pool: watchdog and queue', () => {
  it('kills a worker stuck in native code at its CPU limit, and a spare takes its place at once', async () => {
    const own = createJavascriptPool({ size: 1, spares: 1 });
    try {
      await own.ready();
      // Array.from over a million slots is one long native call; QuickJS never reaches an interrupt check.
      const stuck = await run('for (let i = 0; i < 1000; i++) Array.from({ length: 1e6 });', {}, own);
      expect(errorOf(stuck)).toBe('Script used more than 250 ms of CPU');
      // Killed by the CPU watchdog (the wall one answers "Script timed out"), and at that instant the spare is
      // the active worker while a new spare starts: without it no worker would be ready.
      expect(own.stats()).toMatchObject({ killed: 1, ready: 1, spares: 0 });
      expect(await run('return "still here"', {}, own)).toMatchObject({ ok: true, result: 'still here' });
    } finally {
      await own.close();
    }
  });

  it('answers "Script timed out" at the wall deadline when the worker does not, and keeps answering', async () => {
    // A CPU grace larger than the wall deadline leaves the wall watchdog to act.
    const own = createJavascriptPool({ size: 1, spares: 0, graceMs: 50, cpuGraceMs: 60_000 });
    try {
      await own.ready();
      const stuck = await run('for (let i = 0; i < 1000; i++) Array.from({ length: 1e6 });', { deadline: Date.now() + 300 }, own);
      expect(stuck).toMatchObject({ ok: false, error: 'Script timed out', timedOut: true });
      // A job sent while the replacement starts waits for it.
      expect(await run('return 7', {}, own)).toMatchObject({ ok: true, result: 7 });
      expect(own.stats()).toMatchObject({ size: 1, ready: 1, killed: 1, crashed: 0 });
    } finally {
      await own.close();
    }
  });

  it('fails a queued job whose deadline passes without running it', async () => {
    const own = createJavascriptPool({ size: 1, spares: 0 });
    try {
      await own.ready();
      const looping = run('while (true) {}', {}, own);
      const queued = await run('log.info("ran"); return 1', { deadline: Date.now() + 100 }, own);
      // Never ran (no "ran" line).
      expect(queued).toMatchObject({ ok: false, error: 'Script timed out waiting for a free worker', timedOut: true, logs: [] });
      expect(errorOf(await looping)).toBe('Script used more than 250 ms of CPU');
      expect(await run('return 2', { deadline: Date.now() - 1 }, own)).toMatchObject({ ok: false, timedOut: true });
    } finally {
      await own.close();
    }
  });

  it('answers every job once closed', async () => {
    const own = createJavascriptPool({ size: 1, spares: 0 });
    const pending = run('return 1', {}, own);
    await own.close();
    expect(errorOf(await pending)).toBe('The javascript pool is closed');
    expect(errorOf(await run('return 1', {}, own))).toBe('The javascript pool is closed');
  });
});

/** Polls the pool's figures until `isDone` holds (workers start and stop on their own time); the figures then. */
async function waitForStats(on: JavascriptPool, isDone: (stats: ReturnType<JavascriptPool['stats']>) => boolean) {
  const deadline = Date.now() + WORKERS_START_TIMEOUT_MS;
  while (!isDone(on.stats()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  return on.stats();
}

describe('javascript pool: workers start when needed and stop when idle', () => {
  it(
    'starts no worker before the first job, then one for it with its spare',
    async () => {
      const own = createJavascriptPool({ size: 2, spares: 1 });
      try {
        expect(own.stats()).toMatchObject({ ready: 0, spares: 0, busy: 0 });
        expect(await run('return session.mobile', {}, own)).toMatchObject({ ok: true, result: '233241234567' });
        // One job needed one worker: the second of `size` starts only when two jobs want one at once.
        expect(await waitForStats(own, (s) => s.spares === 1)).toMatchObject({ ready: 1, spares: 1 });
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it(
    'stops workers idle for idleMs, the spare with the last, and the next job starts one again with the same limits',
    async () => {
      const own = createJavascriptPool({ size: 2, spares: 1, idleMs: 200 });
      try {
        await own.ready();
        expect(own.stats()).toMatchObject({ ready: 2, spares: 1, stopped: 0 });
        expect(await waitForStats(own, (s) => s.ready === 0 && s.spares === 0)).toMatchObject({ ready: 0, spares: 0, stopped: 3 });
        // After the shrink: the sandbox is the same (no host objects, the CPU limit, a crash-free answer after it).
        expect(await run('return typeof process + typeof require', {}, own)).toMatchObject({ ok: true, result: 'undefinedundefined' });
        expect(errorOf(await run('while (true) {}', {}, own))).toBe('Script used more than 250 ms of CPU');
        expect(await run('return 3', {}, own)).toMatchObject({ ok: true, result: 3 });
        expect(own.stats()).toMatchObject({ crashed: 0 });
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it(
    'after a shrink, still kills a worker stuck past its CPU limit and answers the next job',
    async () => {
      const own = createJavascriptPool({ size: 1, spares: 1, idleMs: 200 });
      try {
        expect(await run('return 1', {}, own)).toMatchObject({ ok: true, result: 1 });
        await waitForStats(own, (s) => s.stopped >= 1 && s.ready === 0 && s.spares === 0);
        const stuck = await run('for (let i = 0; i < 1000; i++) Array.from({ length: 1e6 });', {}, own);
        expect(errorOf(stuck)).toBe('Script used more than 250 ms of CPU');
        expect(own.stats()).toMatchObject({ killed: 1 });
        expect(await run('return "still here"', {}, own)).toMatchObject({ ok: true, result: 'still here' });
      } finally {
        await own.close();
      }
    },
    WORKERS_START_TIMEOUT_MS,
  );

  it('keeps idle workers for the pool life with idleMs 0', async () => {
    const own = createJavascriptPool({ size: 1, spares: 0, idleMs: 0 });
    try {
      await own.ready();
      await new Promise((r) => setTimeout(r, 300));
      expect(own.stats()).toMatchObject({ ready: 1, stopped: 0 });
    } finally {
      await own.close();
    }
  });
});
