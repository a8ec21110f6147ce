/**
 * The engine's entry points for a hop: startSession for a new gateway session, continueSession for the
 * next input. Both resolve (never reject) with the new state, the reply and what happened.
 */
import type { CompiledApp } from './compile';
import { emitEvent, failHop, isHalted, isOverBudget, type HopContext } from './context';
import { readDialString } from './dial';
import { enterMenu, handleInput } from './hop';
import { resolveLimits } from './limits';
import type { EngineDeps, Hop, HopResult, SessionState } from './types';

const MAX_FIELD = 200;

const field = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_FIELD) : '');

function createState(compiled: CompiledApp, hop: Hop, deps: EngineDeps, now: number): SessionState {
  return {
    version: 1,
    appId: compiled.app.appId,
    environment: field(hop.environment),
    versionId: compiled.app.versionId,
    gateway: field(hop.gateway),
    sessionId: field(hop.sessionId) || deps.newId(),
    msisdn: field(hop.msisdn),
    network: field(hop.network),
    serviceCode: field(hop.serviceCode),
    currentMenuId: null,
    history: [],
    inputs: {},
    vars: {},
    actionResults: {},
    screen: '',
    notice: '',
    page: 0,
    hopCount: 1,
    startedAt: now,
    lastHopAt: now,
    ended: false,
  };
}

function createContext(compiled: CompiledApp, deps: EngineDeps, state: SessionState, now: number): HopContext {
  const limits = resolveLimits(deps.limits);
  return { compiled, deps, limits, state, events: [], deadline: now + limits.hopBudgetMs, input: '', menuEntries: 0, reply: null };
}

/**
 * Runs a hop's step; an unexpected throw still ends in a defined reply and an error event. The step is a
 * module-level function and its argument, not a closure made on every hop.
 */
async function runGuarded<A>(ctx: HopContext, step: (ctx: HopContext, arg: A) => Promise<unknown>, arg: A): Promise<HopResult> {
  try {
    await step(ctx, arg);
    if (!ctx.reply) failHop(ctx, 'The hop produced no screen');
    else if (!isHalted(ctx) && isOverBudget(ctx)) failHop(ctx, `Hop answered with END: past the ${ctx.limits.hopBudgetMs} ms budget`);
  } catch (err) {
    failHop(ctx, `Engine fault: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { state: ctx.state, reply: ctx.reply ?? { text: '', end: true }, events: ctx.events };
}

function startedData(state: SessionState, dialString: string | undefined, reading: { vars: Record<string, string>; inputs: string[] }) {
  const data: Record<string, unknown> = { msisdn: state.msisdn, network: state.network, serviceCode: state.serviceCode };
  if (dialString) data.dialString = dialString.slice(0, MAX_FIELD);
  data.vars = reading.vars;
  data.deepDialInputs = reading.inputs.length;
  return data;
}

async function beginSession(ctx: HopContext, dialString: string | undefined): Promise<void> {
  const { compiled, state, limits } = ctx;
  const reading = readDialString(compiled.dial, typeof dialString === 'string' ? dialString : undefined, limits.maxDeepDialInputs);
  Object.assign(state.vars, reading.vars);
  emitEvent(ctx, 'session_started', 'system', `Session started for ${state.msisdn || 'unknown number'}`, {
    data: startedData(state, dialString, reading),
  });
  if (!compiled.first) return failHop(ctx, 'The app has no menus');
  await enterMenu(ctx, compiled.first, null);
  // Deep dial: replay the extra dialled parts as if typed, until one does not move the session on.
  for (const input of reading.inputs) {
    if (isHalted(ctx)) break;
    if (!(await handleInput(ctx, input, true))) break;
  }
}

/**
 * Starts a session: reads the dial string, enters the first menu (isFirst, else the first in order),
 * replays any deep-dial inputs.
 * @example const { state, reply, events } = await startSession(compiled, { sessionId, msisdn, network,
 *   serviceCode: '*920#', input: '', dialString: '*920*1*2#' }, deps);
 */
export function startSession(compiled: CompiledApp, hop: Hop, deps: EngineDeps): Promise<HopResult> {
  const now = deps.now();
  const ctx = createContext(compiled, deps, createState(compiled, hop, deps, now), now);
  return runGuarded(ctx, beginSession, hop.dialString);
}

function findRestartReason(compiled: CompiledApp, state: SessionState, now: number, timeoutMs: number): string | null {
  if (typeof state !== 'object' || state === null || state.version !== 1) return 'unreadable_state';
  if (state.appId !== compiled.app.appId) return 'app_changed';
  if (state.ended) return 'ended';
  if (now - state.lastHopAt > timeoutMs) return 'timeout';
  if (state.currentMenuId === null || !compiled.menus.has(state.currentMenuId)) return 'menu_missing';
  return null;
}

/**
 * Handles the next input of a stored session. A stale state (inactive past the timeout, already ended,
 * or pointing at a menu the version no longer has) starts over from the first menu.
 */
export function continueSession(compiled: CompiledApp, state: SessionState, hop: Hop, deps: EngineDeps): Promise<HopResult> {
  const now = deps.now();
  const limits = resolveLimits(deps.limits);
  const reason = findRestartReason(compiled, state, now, limits.sessionTimeoutMs);
  if (reason) {
    const ctx = createContext(compiled, deps, createState(compiled, hop, deps, now), now);
    const type = reason === 'timeout' ? 'session_expired' : 'session_restarted';
    emitEvent(ctx, type, 'system', reason === 'timeout' ? 'Session expired; starting over' : 'Session starting over', { data: { reason } });
    return runGuarded(ctx, beginSession, undefined);
  }
  // Copy what a hop changes, so the caller's stored object is never modified in place.
  const next: SessionState = {
    ...state,
    versionId: compiled.app.versionId,
    history: [...state.history],
    inputs: { ...state.inputs },
    vars: { ...state.vars },
    actionResults: { ...state.actionResults },
    hopCount: state.hopCount + 1,
    lastHopAt: now,
  };
  const ctx = createContext(compiled, deps, next, now);
  return runGuarded(ctx, handleInput, hop.input);
}
