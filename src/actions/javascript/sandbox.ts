// Over 400 lines: every limit of one QuickJS run (heap, stack, CPU, wall, output) sits beside the run it bounds.
/**
 * One script run in QuickJS: a fresh runtime and context per job (nothing of one tenant's run is left for
 * the next), the heap, stack, CPU, wall and output limits, `log`/`console`, and the result copied out as
 * JSON. Runs inside a pool worker (worker.ts); it never sees the network, timers, modules or host objects
 * because QuickJS has none and we give it none: the only host function is the log sink. What a script can
 * reach is listed once, in src/shared/app/javascript-sdk.ts (the editors' completions, checked against this).
 *
 * @example runInSandbox(module, { code: 'return input * 2', scopeJson: '{"input":21}', limits, deadline })
 *   // { ok: true, result: 42, logs: [] }
 */
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import type { ContactChanges } from '../../shared/actions/runner';
import { checkContactSet } from '../../shared/contact-fields';
import { toErrorMessage } from '../../shared/errors';
import { formatBytes, type JsLimits, type JsLogLine, type JsOutcome, type JsScope } from './limits';
import { readThreadCpuMs } from './thread-cpu';

export interface SandboxJob {
  code: string;
  scopeJson: string;
  limits: JsLimits;
  /** Absolute wall deadline, ms since epoch. */
  deadline: number;
}

export interface SandboxRun {
  outcome: JsOutcome;
  cpuMs: number;
  /** The QuickJS module misbehaved (a host-side exception, a failed dispose): replace it before reuse. */
  isModuleSuspect: boolean;
  /** The script ran out of heap. */
  isOutOfMemory: boolean;
}

const FILENAME = 'script.js';
/** Deeper results cost the host (parse, copy between threads, the session store) for no use in a USSD app. */
const MAX_RESULT_DEPTH = 64;
const LOG_LEVELS = new Set(['debug', 'info', 'error']);

/**
 * Runs before the builder's code, in the same context. It keeps its own references to JSON.stringify so a
 * script that overwrites globals only spoils its own run, and hands back `log` plus two helpers the host
 * uses to read results and errors without running arbitrary getters from the host side.
 */
const PRELUDE = `(function (hostLog, maxMessage, hostContactSet) {
  'use strict';
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var full = false;
  function fmt(v) {
    if (typeof v === 'string') return v;
    try {
      if (v instanceof Error) return String(v);
      var s = stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      try { return String(v); } catch (e2) { return '[unprintable]'; }
    }
  }
  function emit(level) {
    return function () {
      if (full) return;
      var msg = '';
      for (var i = 0; i < arguments.length && msg.length <= maxMessage; i++) msg += (i ? ' ' : '') + fmt(arguments[i]);
      if (msg.length > maxMessage) msg = msg.slice(0, maxMessage);
      full = hostLog(level, msg) === true;
    };
  }
  // log('x') is log.info('x'): the SDK's one callable object, so the obvious first try works.
  var log = emit('info');
  log.debug = emit('debug');
  log.info = emit('info');
  log.error = emit('error');
  Object.freeze(log);
  Object.defineProperty(globalThis, 'console', {
    value: Object.freeze({ log: log.debug, debug: log.debug, info: log.info, warn: log.error, error: log.error }),
    writable: true,
    configurable: true,
  });
  function toJson(v, maxLength) {
    var s = stringify(v);
    if (s === undefined) return 'null';
    return s.length > maxLength ? s.length : s;
  }
  function describe(e) {
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        var d = { name: '', message: '', stack: '', line: null };
        try { if (typeof e.name === 'string') d.name = e.name.slice(0, 200); } catch (x) {}
        try { if (typeof e.message === 'string') d.message = e.message.slice(0, 2000); } catch (x) {}
        try { if (typeof e.stack === 'string') d.stack = e.stack.slice(0, 2000); } catch (x) {}
        try { if (typeof e.lineNumber === 'number') d.line = e.lineNumber; } catch (x) {}
        if (!d.name && !d.message) { try { d.message = stringify(e).slice(0, 2000); } catch (x) { d.message = 'Script failed'; } }
        return stringify(d);
      }
      return stringify({ message: typeof e === 'symbol' ? e.toString() : String(e).slice(0, 2000) });
    } catch (x) {
      return '{"message":"Script failed"}';
    }
  }
  // contact.get(key) / contact.set(key, value): the caller's contact as loaded plus this run's sets; the host checks
  // each set as the API would, keeps it for the outcome, and its refusal is thrown into the script.
  function makeContact(data) {
    var fields = {};
    var has = Object.prototype.hasOwnProperty;
    if (data !== null && typeof data === 'object') for (var k in data) if (has.call(data, k) && typeof data[k] === 'string') fields[k] = data[k];
    return Object.freeze({
      get: function (key) {
        var value = typeof key === 'string' && has.call(fields, key) ? fields[key] : '';
        return value === '' ? null : value;
      },
      set: function (key, value) {
        var refused = hostContactSet(key, value);
        if (typeof refused === 'string') throw new TypeError(refused);
        fields[key] = value;
      },
    });
  }
  function readScope(text) {
    var scope = parse(text);
    Object.defineProperty(globalThis, 'contact', { value: makeContact(scope.contact), writable: true, configurable: true });
    return [scope.session, scope.input, scope.actions];
  }
  return [log, toJson, describe, readScope];
})`;

/** CPU time of this thread (ms); wall time where the OS does not say (never less than CPU time). */
const hasThreadCpu = readThreadCpuMs() !== null;
function readCpuMs(): number {
  return (hasThreadCpu ? readThreadCpuMs() : null) ?? performance.now();
}

interface ErrorInfo {
  name?: string;
  message?: string;
  stack?: string;
  line?: number | null;
}

function formatError(info: ErrorInfo, limits: JsLimits, source = ''): string {
  let text = info.name && info.message ? `${info.name}: ${info.message}` : info.message || info.name || 'Script failed';
  // QuickJS's own words for its limits are terse; say which limit it was.
  if (info.name === 'InternalError' && info.message === 'out of memory')
    text = `Script ran out of memory (limit ${formatBytes(limits.memoryBytes)})`;
  if (info.name === 'InternalError' && info.message === 'stack overflow')
    text = `Script overflowed its stack (limit ${formatBytes(limits.stackBytes)}): too deep a recursion?`;
  // QuickJS says only "not a function"; the call it points at names the culprit.
  if (info.name === 'TypeError' && info.message === 'not a function') text = describeNotAFunction(source, info.stack ?? '') ?? text;
  const line = typeof info.line === 'number' ? info.line : Number(new RegExp(`${FILENAME}:(\\d+)`).exec(info.stack ?? '')?.[1] ?? NaN);
  return Number.isFinite(line) && line > 0 ? `${text} (line ${line})` : text;
}

const MAX_CALLEE_LOOK = 200;
/** `log`, `session.mobile`, `opt?.run`, `api\n  .get`: a name and its dotted members. */
const CALLEE = String.raw`(?:[A-Za-z_$][\w$]*\s*\??\.\s*)*[A-Za-z_$][\w$]*`;

/** The SDK objects whose members builders guess at, with what they do have. */
const SDK_MEMBER_HINTS: Record<string, string> = {
  log: 'use log(), log.info(), log.debug() or log.error()',
  console: 'use console.log(), console.info(), console.warn() or console.error()',
};

/**
 * "log.warn is not a function: use log(), log.info(), log.debug() or log.error()" from QuickJS's bare
 * "not a function", when the innermost frame is the builder's code: its line and column point at the call's
 * `(` (or a tagged template's backtick), and the name before it is what was called. Null when the frame is
 * native (e.g. a bad callback passed to map) or no name stands before the call.
 * @example describeNotAFunction('x.foo()', '    at <eval> (script.js:1:6)') // 'x.foo is not a function'
 */
export function describeNotAFunction(source: string, stack: string): string | null {
  const frame = stack.split('\n').find((l) => l.trim() !== '') ?? '';
  const at = new RegExp(`\\(${FILENAME}:(\\d+):(\\d+)\\)`).exec(frame);
  if (!at) return null;
  const text = source.split('\n')[Number(at[1]) - 1] ?? '';
  const column = Number(at[2]) - 1;
  // Bounded looks: a name is short, and a 100,000-character line must not cost a regexp scan.
  const after = text.slice(column, column + MAX_CALLEE_LOOK);
  const before = text.slice(Math.max(0, column - MAX_CALLEE_LOOK), column);
  let name: string | undefined;
  let isNew = false;
  if (after.startsWith('(') || after.startsWith('`')) {
    const callee = new RegExp(`(${CALLEE})\\s*$`).exec(before);
    name = callee?.[1];
    isNew = !!callee && /\bnew\s+$/.test(before.slice(0, callee.index));
  } else {
    // A tail call (`return f()` in a plain function) is reported at its `return`.
    const tail = new RegExp(`^return\\s+(new\\s+)?(${CALLEE})\\s*[(\`]`).exec(after);
    name = tail?.[2];
    isNew = !!tail?.[1];
  }
  if (!name) return null;
  name = name.replace(/\s+/g, '');
  if (isNew) return `${name} is not a constructor`;
  const hint = SDK_MEMBER_HINTS[name.split(/\??\./)[0]!];
  return hint && name.includes('.') ? `${name} is not a function: ${hint}` : `${name} is not a function`;
}

/** Nesting depth of JSON text, counted without parsing it. */
function getJsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

function truncateUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  return buf
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/**
 * @param isMemoryFull tells whether the module's memory is at its ceiling: QuickJS sometimes throws `null`
 *   when an allocation fails deep inside a native call, and this is how such a failure still reads as
 *   "out of memory".
 */
export function runInSandbox(module: QuickJSWASMModule, job: SandboxJob, isMemoryFull: () => boolean = () => false): SandboxRun {
  const { limits } = job;
  const cpuStart = readCpuMs();
  const wallStart = performance.now();
  const wallDeadline = Math.min(job.deadline, Date.now() + limits.wallMs);
  const wallLeft = () => wallDeadline - Date.now();

  if (job.code.length > limits.codeChars) {
    return {
      outcome: { ok: false, error: `Script is longer than ${limits.codeChars} characters`, logs: [] },
      cpuMs: 0,
      isModuleSuspect: false,
      isOutOfMemory: false,
    };
  }

  let stopReason: 'cpu' | 'wall' | null = null;
  let nextCpuCheck = 0;
  const shouldInterrupt = (): boolean => {
    if (stopReason) return true;
    if (wallLeft() <= 0) {
      stopReason = 'wall';
      return true;
    }
    // A thread cannot use more CPU than wall time, so the (cheap) clock guards the (dearer) /proc read.
    const now = performance.now();
    if (now - wallStart < limits.cpuMs || now < nextCpuCheck) return false;
    nextCpuCheck = now + 2;
    if (readCpuMs() - cpuStart >= limits.cpuMs) {
      stopReason = 'cpu';
      return true;
    }
    return false;
  };

  const logs: JsLogLine[] = [];
  const contactChanges = createContactChanges(job.scopeJson);
  let logBytes = 0;
  let isLogFull = false;

  const rt = module.newRuntime();
  rt.setMemoryLimit(limits.memoryBytes);
  rt.setMaxStackSize(limits.stackBytes);
  rt.setInterruptHandler(shouldInterrupt);
  const ctx = rt.newContext();
  const handles: QuickJSHandle[] = [];
  const own = (h: QuickJSHandle): QuickJSHandle => {
    handles.push(h);
    return h;
  };

  // The builder's code on the wrapper's first line, so QuickJS's line numbers are the builder's.
  const source = `(async function (session, input, actions, log) {${job.code}\n})`;
  let outcome: JsOutcome;
  let isModuleSuspect = false;
  try {
    const hostLog = own(
      ctx.newFunction('hostLog', (levelH, messageH) => {
        if (isLogFull) return ctx.true;
        if (ctx.typeof(messageH) !== 'string') return undefined;
        const rawLevel = ctx.typeof(levelH) === 'string' ? ctx.getString(levelH) : 'debug';
        const level = (LOG_LEVELS.has(rawLevel) ? rawLevel : 'debug') as JsLogLine['level'];
        const message = ctx.getString(messageH);
        const bytes = Buffer.byteLength(message, 'utf8');
        if (logBytes + bytes <= limits.outputBytes) {
          logs.push({ level, message });
          logBytes += bytes;
          return undefined;
        }
        const rest = truncateUtf8(message, limits.outputBytes - logBytes);
        if (rest) logs.push({ level, message: rest });
        logBytes = limits.outputBytes;
        isLogFull = true;
        return ctx.true;
      }),
    );
    const contactSet = own(
      ctx.newFunction('hostContactSet', (keyH, valueH) => {
        const key = ctx.typeof(keyH) === 'string' ? ctx.getString(keyH) : undefined;
        const value = ctx.typeof(valueH) === 'string' ? ctx.getString(valueH) : undefined;
        const refused = contactChanges.set(key, value);
        return refused === null ? undefined : ctx.newString(refused);
      }),
    );
    const [log, toJson, describe, readScope] = setUpPrelude(ctx, own, [hostLog, own(ctx.newNumber(limits.outputBytes)), contactSet]);

    const describeError = (errorH: QuickJSHandle): string => {
      const res = ctx.callFunction(describe, ctx.undefined, errorH);
      if (res.error) {
        res.error.dispose();
        return 'Script failed';
      }
      const text = ctx.typeof(res.value) === 'string' ? ctx.getString(res.value) : '';
      res.value.dispose();
      try {
        const info = JSON.parse(text) as ErrorInfo;
        if (!info.name && info.message === 'null' && isMemoryFull())
          return formatError({ name: 'InternalError', message: 'out of memory' }, limits);
        return formatError(info, limits, source);
      } catch {
        return 'Script failed';
      }
    };

    outcome = (() => {
      const compiled = ctx.evalCode(source, FILENAME, { type: 'global' });
      if (compiled.error) {
        const message = describeError(compiled.error);
        compiled.error.dispose();
        return { ok: false, error: message, logs };
      }
      const fn = own(compiled.value);
      if (ctx.typeof(fn) !== 'function') return { ok: false, error: 'Script must be the body of a function', logs };

      // The scope is parsed inside QuickJS by JSON.parse: only JSON text crosses, never a host object.
      const scope = ctx.callFunction(readScope, ctx.undefined, own(ctx.newString(job.scopeJson)));
      if (scope.error) {
        scope.error.dispose();
        return { ok: false, error: stopReason ? limitMessage(stopReason, limits) : 'The script input could not be read', logs };
      }
      const scopeH = own(scope.value);
      const args = [0, 1, 2].map((index) => own(ctx.getProp(scopeH, index)));

      const called = ctx.callFunction(fn, ctx.undefined, [...args, log]);
      if (called.error) {
        const message = stopReason ? limitMessage(stopReason, limits) : describeError(called.error);
        called.error.dispose();
        return { ok: false, error: message, logs };
      }
      const promise = own(called.value);
      // No timers or I/O exist in the sandbox, so draining the job queue settles everything that can settle.
      for (;;) {
        const jobs = rt.executePendingJobs(-1);
        if (jobs.error) {
          jobs.error.dispose();
          if (stopReason) break;
          continue;
        }
        if (jobs.value === 0 || !rt.hasPendingJob()) break;
      }
      const state = ctx.getPromiseState(promise);
      if (state.type === 'pending') {
        return { ok: false, error: stopReason ? limitMessage(stopReason, limits) : 'Script awaited something that never settles', logs };
      }
      if (state.type === 'rejected') {
        // Give the error's getters a little room when the heap is what ran out.
        rt.setMemoryLimit(limits.memoryBytes + 1024 * 1024);
        const message = stopReason ? limitMessage(stopReason, limits) : describeError(state.error);
        state.error.dispose();
        return { ok: false, error: stopReason ? limitMessage(stopReason, limits) : message, logs };
      }
      const value = own(state.value);
      const json = ctx.callFunction(toJson, ctx.undefined, value, own(ctx.newNumber(limits.outputBytes)));
      if (json.error) {
        const message = stopReason ? limitMessage(stopReason, limits) : `The returned value is not JSON: ${describeError(json.error)}`;
        json.error.dispose();
        return { ok: false, error: message, logs };
      }
      const jsonH = own(json.value);
      if (ctx.typeof(jsonH) === 'number' || stopReason) {
        return {
          ok: false,
          error: stopReason ? limitMessage(stopReason, limits) : `The returned value is larger than ${formatBytes(limits.outputBytes)}`,
          logs,
        };
      }
      const text = ctx.getString(jsonH);
      const resultBytes = Buffer.byteLength(text, 'utf8');
      if (resultBytes > limits.outputBytes) {
        return { ok: false, error: `The returned value is larger than ${formatBytes(limits.outputBytes)}`, logs };
      }
      if (getJsonDepth(text) > MAX_RESULT_DEPTH)
        return { ok: false, error: `The returned value is nested deeper than ${MAX_RESULT_DEPTH} levels`, logs };
      const changes = contactChanges.read();
      return changes
        ? { ok: true, result: JSON.parse(text) as unknown, logs, contactChanges: changes }
        : { ok: true, result: JSON.parse(text) as unknown, logs };
    })();
  } catch (err) {
    // Only a bug or a wasm-level failure (an abort, the thread's own stack) lands here.
    isModuleSuspect = true;
    outcome = {
      ok: false,
      error: stopReason ? limitMessage(stopReason, limits) : `Script failed: ${toErrorMessage(err)}`,
      logs,
    };
  } finally {
    for (const h of handles) if (h.alive) h.dispose();
    try {
      ctx.dispose();
      rt.dispose();
    } catch {
      isModuleSuspect = true;
    }
  }

  const resultBytes = outcome.ok ? Buffer.byteLength(JSON.stringify(outcome.result) ?? '', 'utf8') : 0;
  outcome.logs = fitLogs(logs, limits.outputBytes - resultBytes, isLogFull, limits.outputBytes);
  if (stopReason === 'wall' && !outcome.ok) outcome.timedOut = true;
  const isOutOfMemory = !outcome.ok && /out of memory/i.test(outcome.error);
  return { outcome, cpuMs: Math.round((readCpuMs() - cpuStart) * 10) / 10, isModuleSuspect, isOutOfMemory };
}

/**
 * A run's `contact.set` calls: each checked as the API checks a contact (checkContactSet), the accepted ones kept
 * for the outcome. The contact's attribute keys are read from the scope on the first set only.
 */
function createContactChanges(scopeJson: string) {
  let keys: Set<string> | null = null;
  let changes: ContactChanges | null = null;
  return {
    /** The refusal's message, or null when the set is kept. */
    set(key: string | undefined, value: string | undefined): string | null {
      keys ??= readAttributeKeys(scopeJson);
      const refused = checkContactSet(key, value, keys);
      if (refused !== null || key === undefined || value === undefined) return refused;
      changes ??= {};
      if (key === 'name') changes.name = value;
      else {
        keys.add(key);
        changes.attributes = { ...changes.attributes, [key]: value };
      }
      return null;
    },
    read: () => changes,
  };
}

/** The attribute keys of the scope's contact (`name` and `language` are fields of their own). */
function readAttributeKeys(scopeJson: string): Set<string> {
  const contact = (JSON.parse(scopeJson) as JsScope).contact ?? {};
  return new Set(Object.keys(contact).filter((key) => key !== 'name' && key !== 'language'));
}

function setUpPrelude(
  ctx: QuickJSContext,
  own: (h: QuickJSHandle) => QuickJSHandle,
  args: [hostLog: QuickJSHandle, maxMessage: QuickJSHandle, hostContactSet: QuickJSHandle],
): [log: QuickJSHandle, toJson: QuickJSHandle, describe: QuickJSHandle, readScope: QuickJSHandle] {
  const factory = own(ctx.unwrapResult(ctx.evalCode(PRELUDE, 'prelude.js', { type: 'global' })));
  const parts = own(ctx.unwrapResult(ctx.callFunction(factory, ctx.undefined, ...args)));
  return [0, 1, 2, 3].map((index) => own(ctx.getProp(parts, index))) as [QuickJSHandle, QuickJSHandle, QuickJSHandle, QuickJSHandle];
}

function limitMessage(reason: 'cpu' | 'wall', limits: JsLimits): string {
  return reason === 'cpu' ? `Script used more than ${limits.cpuMs} ms of CPU` : 'Script timed out';
}

/** The result has first call on the output budget; logs get the rest, and an error line says when they were cut. */
function fitLogs(logs: JsLogLine[], budget: number, wasCut: boolean, outputBytes: number): JsLogLine[] {
  const kept: JsLogLine[] = [];
  let used = 0;
  let isCut = wasCut;
  for (const line of logs) {
    const bytes = Buffer.byteLength(line.message, 'utf8');
    if (used + bytes <= budget) {
      kept.push(line);
      used += bytes;
      continue;
    }
    const rest = truncateUtf8(line.message, budget - used);
    if (rest) kept.push({ level: line.level, message: rest });
    isCut = true;
    break;
  }
  if (isCut) kept.push({ level: 'error', message: `Log output truncated: logs and result may use ${formatBytes(outputBytes)} in all` });
  return kept;
}
