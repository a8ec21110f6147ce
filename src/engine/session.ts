/**
 * The engine's entry points for a hop: startSession for a new gateway session, continueSession for the
 * next input. Both resolve (never reject) with the new state, the reply and what happened.
 */
import type { CompiledApp } from './compile';
import { toErrorMessage } from '../shared/errors';
import { emitEvent, endSession, failHop, HopRenderTime, isHalted, isOverBudget, type HopContext } from './context';
import { readDialString } from './dial';
import { enterMenu, handleInput } from './hop';
import { resolveLimits, SESSION_LOST_TEXT } from './limits';
import type { EngineDeps, EngineEventData, Hop, HopResult, RestartReason, SessionState } from './types';

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
  const renderTime = new HopRenderTime(deps, limits.renderBudgetMs);
  return {
    compiled,
    deps,
    limits,
    state,
    events: [],
    deadline: now + limits.hopBudgetMs,
    input: '',
    menuEntries: 0,
    reply: null,
    renderTime,
  };
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
    failHop(ctx, `Engine fault: ${toErrorMessage(err)}`);
  }
  return { state: ctx.state, reply: ctx.reply ?? { text: '', end: true }, events: ctx.events };
}

function startedData(
  state: SessionState,
  dialString: string | undefined,
  reading: { vars: Record<string, string>; inputs: string[] },
): EngineEventData['session_started'] {
  const data: EngineEventData['session_started'] = {
    msisdn: state.msisdn,
    network: state.network,
    serviceCode: state.serviceCode,
    vars: reading.vars,
    deepDialInputs: reading.inputs.length,
  };
  if (dialString) data.dialString = dialString.slice(0, MAX_FIELD);
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

function findRestartReason(compiled: CompiledApp, state: SessionState, now: number, timeoutMs: number): RestartReason | 'timeout' | null {
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
    if (reason === 'timeout') emitEvent(ctx, 'session_expired', 'system', 'Session expired; starting over', { data: { reason } });
    else emitEvent(ctx, 'session_restarted', 'system', 'Session starting over', { data: { reason } });
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

async function endLostSession(ctx: HopContext): Promise<void> {
  endSession(ctx, SESSION_LOST_TEXT, 'session_lost');
}

/**
 * A hop that continues a session the runtime no longer has (its store lost it in a restart or an eviction,
 * or it already ended). Its earlier inputs are not replayed: that would run their actions a second time.
 * The session starts over at the first menu when entering that menu runs no action (its screen is shown,
 * the hop's input ignored); otherwise it ends with SESSION_LOST_TEXT. Either way no action runs.
 * @example const { reply } = await resumeLostSession(compiled, { ...hop, input: '' }, deps);
 *   // reply: the first menu's screen, or { text: 'Your session has ended. Please dial again.', end: true }
 */
export function resumeLostSession(compiled: CompiledApp, hop: Hop, deps: EngineDeps): Promise<HopResult> {
  const now = deps.now();
  const ctx = createContext(compiled, deps, createState(compiled, hop, deps, now), now);
  const canStartOver = compiled.first !== null && compiled.first.preActions.length === 0;
  emitEvent(
    ctx,
    'session_restarted',
    'system',
    canStartOver ? 'Session lost; starting over' : "Session lost; ended without running the first menu's actions",
    {
      data: { reason: 'session_lost' },
    },
  );
  return canStartOver ? runGuarded(ctx, beginSession, undefined) : runGuarded(ctx, endLostSession, undefined);
}
