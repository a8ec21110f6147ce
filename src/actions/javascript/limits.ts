/**
 * The javascript sandbox's limits and the messages the pool and its workers exchange. Shared by the main
 * side (pool.ts) and the worker side (worker.ts, sandbox.ts); nothing here imports Node or QuickJS.
 */
import type { ContactChanges } from '../../shared/actions/runner';

/** The sandbox's limits (docs/runtime.md, Action kinds): 32 MB heap, 512 KiB stack, 250 ms CPU, 3 s wall, 64 KB output, 100 KB code. */
export interface JsLimits {
  /** QuickJS heap (malloc) limit, bytes. */
  memoryBytes: number;
  /** QuickJS stack limit, bytes: deep recursion ends with a stack overflow error, not a crash. */
  stackBytes: number;
  /** CPU time the script's thread may use (measured per thread where the OS tells us, else wall time). */
  cpuMs: number;
  /** Wall time from the start of the run; the job's own deadline shortens it. */
  wallMs: number;
  /** Logs and the JSON result together, UTF-8 bytes. */
  outputBytes: number;
  /** Longest code accepted, characters (the app schema allows 100,000). */
  codeChars: number;
}

export const DEFAULT_JS_LIMITS: Readonly<JsLimits> = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  cpuMs: 250,
  wallMs: 3000,
  outputBytes: 64 * 1024,
  codeChars: 100_000,
});

/** What a script sees besides `log`: plain JSON, copied in. */
export interface JsScope {
  session?: unknown;
  input?: unknown;
  actions?: unknown;
  /** The caller's contact as templates read it (`name`, `language`, attributes by key; '' where unknown), for `contact.get`. */
  contact?: Readonly<Record<string, string>>;
}

export interface JsJob {
  /** The body of `async function (session, input, actions, log) { ... }`: `return` and `await` work. */
  code: string;
  scope: JsScope;
  /** Absolute time (ms since epoch) by which the job must be answered, queue wait included. */
  deadline?: number;
  /**
   * Whose job this is (the account that owns the app, or that asked for a test run): the pool shares its
   * workers and its queue between tenants (pool.ts). A job without one is a tenant of its own.
   */
  tenant?: string;
  /**
   * Tenants held to a share of the pool together (pool.ts): all of a group's jobs at most half the workers,
   * each of its tenants at most a quarter. The server names one group for all unpaid accounts.
   */
  group?: string;
}

export interface JsLogLine {
  level: 'debug' | 'info' | 'error';
  message: string;
}

export type JsOutcome =
  /** `contactChanges`: what the script's `contact.set` calls changed, when it made any. */
  | { ok: true; result: unknown; logs: JsLogLine[]; contactChanges?: ContactChanges }
  | { ok: false; error: string; timedOut?: boolean; logs: JsLogLine[] };

/** main -> worker */
export interface RunMessage {
  type: 'run';
  id: number;
  code: string;
  /** `JsScope` as JSON text: the worker parses it inside QuickJS, so only JSON crosses over. */
  scopeJson: string;
  limits: JsLimits;
  /** Absolute wall deadline (ms since epoch) for this run. */
  deadline: number;
}

/** worker -> main */
export type WorkerMessage =
  /** `tid`: the worker's kernel thread id (Linux), so the pool can read its CPU time from outside. */
  { type: 'ready'; tid: number | null } | { type: 'done'; id: number; outcome: JsOutcome; cpuMs: number };

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
