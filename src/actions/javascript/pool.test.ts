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

beforeAll(async () => {
  pool = createJavascriptPool({ size: 2, spares: 0 });
  await pool.ready();
});

afterAll(async () => {
  await pool.close();
});

async function run(code: string, job: Partial<JsJob> = {}, on: JavascriptPool = pool): Promise<JsOutcome & { ms: number }> {
  const started = performance.now();
  const outcome = await on.run({ code, scope, ...job });
  return { ...outcome, ms: performance.now() - started };
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
    const outcome = await run('return [session.mobile, session.inputs.amount, session.inputs.menuLabel, session.vars.tier, input, actions.getBalance.body.balance]');
    expect(outcome).toMatchObject({ ok: true, result: ['233241234567', '20', 'Data', 'gold', '2', 50] });
  });

  it('hands steering objects back intact', async () => {
    expect(await run('return { goto: "balance", vars: { a: 1, b: [1, "x"] } }')).toMatchObject({ ok: true, result: { goto: 'balance', vars: { a: 1, b: [1, 'x'] } } });
    expect(await run('return { end: "Bye" }')).toMatchObject({ ok: true, result: { end: 'Bye' } });
  });

  it('awaits promises, and copies only JSON out', async () => {
    expect(await run('const v = await Promise.resolve(5); return v * 2')).toMatchObject({ ok: true, result: 10 });
    expect(await run('log.info("nothing returned")')).toMatchObject({ ok: true, result: null });
    expect(await run('return { f() {}, n: undefined, d: new Date(0) }')).toMatchObject({ ok: true, result: { d: '1970-01-01T00:00:00.000Z' } });
    expect(await run('return () => 1')).toMatchObject({ ok: true, result: null });
    expect(errorOf(await run('const o = {}; o.self = o; return o'))).toMatch(/not JSON: TypeError: circular reference/);
    expect(errorOf(await run('return await new Promise(() => {})'))).toBe('Script awaited something that never settles');
    expect(errorOf(await run('let o = 1; for (let i = 0; i < 100; i++) o = [o]; return o'))).toBe('The returned value is nested deeper than 64 levels');
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
      expect(await run('const a = []; a.push(1); return [typeof leak, typeof ({}).polluted, a.length]')).toMatchObject({ ok: true, result: ['undefined', 'undefined', 1] });
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
    const result = (outcome as { result: { kinds: string[]; viaCtor: string; viaLog: string; imported: string; logIsSandboxed: boolean; globals: string[] } }).result;
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
    expect(errorOf(await run(`return this.constructor.constructor('return process')()`))).toMatch(/ReferenceError: 'process' is not defined/);
    expect(errorOf(await run(`return Function('return require("fs")')()`))).toMatch(/ReferenceError: 'require' is not defined/);
  });
});

describe('javascript pool: hostile scripts', () => {
  it('stops an endless loop at 250 ms of CPU, even one that catches', async () => {
    const outcome = await run('while (true) {}');
    expect(errorOf(outcome)).toBe('Script used more than 250 ms of CPU');
    expect(outcome.ms).toBeGreaterThan(240);
    expect(outcome.ms).toBeLessThan(1500);
    expect(errorOf(await run('for (;;) { try { for (;;) {} } catch (e) {} finally { continue; } }'))).toBe('Script used more than 250 ms of CPU');
  });

  it('keeps the other worker answering while one loops', async () => {
    await pool.ready();
    await run('return 1');
    const looping = run('while (true) {}');
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) latencies.push((await run('return session.mobile')).ms);
    expect((await looping).ok).toBe(false);
    latencies.sort((a, b) => a - b);
    // Typically 1-3 ms each; generous bounds for a loaded 2-core machine.
    expect(latencies[4]).toBeLessThan(50);
    expect(latencies[9]).toBeLessThan(200);
  });

  it('ends an allocation bomb with out of memory, and the worker serves the next job', async () => {
    // QuickJS's `new Array(1e6)` is cheap, so this one may meet the CPU limit before the heap limit.
    const literal = await run('let a = []; while (true) a.push(new Array(1e6))');
    expect(errorOf(literal)).toMatch(/Script ran out of memory \(limit 32 MB\)|Script used more than 250 ms of CPU/);
    expect(literal.ms).toBeLessThan(1500);
    // Typed arrays and big strings slip past QuickJS's own malloc limit; the capped wasm memory stops them.
    for (const bomb of ['let a = []; while (true) a.push(new Uint8Array(1 << 20))', 'let a = []; while (true) a.push("x".repeat(1 << 20) + a.length)']) {
      const outcome = await run(bomb);
      expect(errorOf(outcome)).toMatch(/^Script ran out of memory \(limit 32 MB\)/);
      expect(outcome.ms).toBeLessThan(1500);
    }
    // Both workers have been through a bomb by now (round robin is not guaranteed, so run a few).
    for (let i = 0; i < 4; i++) expect(await run('return new Array(1e5).fill(1).length')).toMatchObject({ ok: true, result: 100_000 });
  });

  it('ends deep recursion with a stack error', async () => {
    const outcome = await run('function f(n) { return f(n + 1) + 1; }\nreturn f(0);');
    expect(errorOf(outcome)).toMatch(/^Script overflowed its stack \(limit 512 KB\): too deep a recursion\? \(line 1\)$/);
    expect(outcome.ms).toBeLessThan(1500);
    expect(await run('function f(n) { return n === 0 ? 0 : f(n - 1) + 1; } return f(500)')).toMatchObject({ ok: true, result: 500 });
  });

  it('truncates a 10 MB log flood to 64 KB', async () => {
    for (const flood of ['for (let i = 0; i < 100000; i++) log.info("x".repeat(100)); return "done"', 'log.info("y".repeat(10 * 1024 * 1024)); return "done"']) {
      const outcome = await run(flood);
      expect(outcome).toMatchObject({ ok: true, result: 'done' });
      const bytes = outcome.logs.reduce((sum, line) => sum + Buffer.byteLength(line.message), 0);
      expect(bytes).toBeLessThanOrEqual(64 * 1024 + 200);
      expect(outcome.logs.at(-1)).toEqual({ level: 'error', message: 'Log output truncated: logs and result may use 64 KB in all' });
      expect(outcome.ms).toBeLessThan(1500);
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

describe('javascript pool: watchdog and queue', () => {
  it('kills a worker stuck in native code at its CPU limit, and a spare takes its place at once', async () => {
    const own = createJavascriptPool({ size: 1, spares: 1 });
    try {
      await own.ready();
      // Array.from over a million slots is one long native call; QuickJS never reaches an interrupt check.
      const stuck = await run('for (let i = 0; i < 1000; i++) Array.from({ length: 1e6 });', {}, own);
      expect(errorOf(stuck)).toBe('Script used more than 250 ms of CPU');
      expect(stuck.ms).toBeLessThan(2000);
      expect(own.stats()).toMatchObject({ killed: 1, ready: 1 });
      const next = await run('return "still here"', {}, own);
      expect(next).toMatchObject({ ok: true, result: 'still here' });
      expect(next.ms).toBeLessThan(500);
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
      expect(stuck.ms).toBeGreaterThan(300);
      expect(stuck.ms).toBeLessThan(1500);
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
      expect(queued).toMatchObject({ ok: false, error: 'Script timed out waiting for a free worker', timedOut: true, logs: [] });
      expect(queued.ms).toBeLessThan(250);
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
