/**
 * The engine's entry points for a hop: startSession for a new gateway session, continueSession for the
 * next input. Both resolve (never reject) with the new state, the reply and what happened.
 */
import { findPrefixLanguage } from '../shared/app';
import type { CompiledApp, CompiledMenu } from './compile';
import { findOwnMenu } from './compile';
import { toErrorMessage } from '../shared/errors';
import {
  emitEvent,
  endSession,
  failHop,
  failOverBudget,
  getCurrentMenu,
  getLabels,
  HopRenderTime,
  isHalted,
  isOverBudget,
  showScreen,
  type HopContext,
} from './context';
import { readDialString } from './dial';
import { enterMenu, handleInput } from './hop';
import { cleanInput } from './input';
import { resolveLimits, RESUME_CONTINUE_INPUT, RESUME_OFFER_TEXT, RESUME_START_AGAIN_INPUT, SESSION_LOST_TEXT } from './limits';
import type { EngineDeps, EngineEventData, Hop, HopResult, RestartReason, ResumeOffer, SessionState } from './types';

const MAX_FIELD = 200;

const field = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_FIELD) : '');

function createState(compiled: CompiledApp, hop: Hop, deps: EngineDeps, now: number): SessionState {
  const state: SessionState = {
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
  if (hop.contact) state.contact = hop.contact;
  // The dialler's calling code may choose the language they start in (an app setting; docs/languages.md).
  const prefixes = compiled.app.languages?.prefixLanguages;
  const language = prefixes && prefixes.length > 0 ? findPrefixLanguage(prefixes, state.msisdn) : null;
  if (language !== null && language !== compiled.defaultLanguage) state.language = language;
  return state;
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
    contactChanges: null,
    handoff: null,
    received: null,
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
    else if (!isHalted(ctx) && isOverBudget(ctx))
      failOverBudget(ctx, `Hop answered with END: past the ${ctx.limits.hopBudgetMs} ms budget`);
  } catch (err) {
    failHop(ctx, `Engine fault: ${toErrorMessage(err)}`);
  }
  const result: HopResult = { state: ctx.state, reply: ctx.reply ?? { text: '', end: true }, events: ctx.events };
  if (ctx.contactChanges) result.contactChanges = ctx.contactChanges;
  if (ctx.handoff && ctx.state.ended) result.handoff = ctx.handoff;
  return result;
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

async function beginSession(ctx: HopContext, dialString: string | undefined, entryMenuId?: string): Promise<void> {
  const reading = readDial(ctx, dialString);
  emitEvent(ctx, 'session_started', 'system', `Session started for ${ctx.state.msisdn || 'unknown number'}`, {
    data: startedData(ctx.state, dialString, reading),
  });
  await enterFirstMenu(ctx, reading, entryMenuId === undefined ? undefined : (findOwnMenu(ctx.compiled, entryMenuId) ?? undefined));
}

/** A new session's start: what was dialled, and the menu it enters instead of the first (Hop.entryMenuId). */
const beginAt = (ctx: HopContext, hop: Pick<Hop, 'dialString' | 'entryMenuId'>) => beginSession(ctx, hop.dialString, hop.entryMenuId);

type DialReading = ReturnType<typeof readDialString>;

const readDial = (ctx: HopContext, dialString: string | undefined): DialReading =>
  readDialString(ctx.compiled.dial, typeof dialString === 'string' ? dialString : undefined, ctx.limits.maxDeepDialInputs);

/** The dial string's variables, the first menu, then its deep-dial inputs replayed until one does not move the session on. */
async function enterFirstMenu(ctx: HopContext, reading: DialReading, entry?: CompiledMenu): Promise<void> {
  const { compiled } = ctx;
  Object.assign(ctx.state.vars, reading.vars);
  const first = entry ?? compiled.first;
  if (!first) return failHop(ctx, 'The app has no menus');
  await enterMenu(ctx, first, null);
  for (const input of reading.inputs) {
    if (isHalted(ctx)) break;
    if (!(await handleInput(ctx, input, true))) break;
  }
}

/**
 * Starts a session: reads the dial string, enters the first menu (isFirst, else the first in order; or the hop's
 * `entryMenuId` when the app has that menu), replays any deep-dial inputs.
 * @example const { state, reply, events } = await startSession(compiled, { sessionId, msisdn, network,
 *   serviceCode: '*920#', input: '', dialString: '*920*1*2#' }, deps);
 */
export function startSession(compiled: CompiledApp, hop: Hop, deps: EngineDeps): Promise<HopResult> {
  const now = deps.now();
  const ctx = createContext(compiled, deps, createState(compiled, hop, deps, now), now);
  return runGuarded(ctx, beginAt, hop);
}

function findRestartReason(compiled: CompiledApp, state: SessionState, now: number, timeoutMs: number): RestartReason | 'timeout' | null {
  if (typeof state !== 'object' || state === null || state.version !== 1) return 'unreadable_state';
  if (state.appId !== compiled.app.appId) return 'app_changed';
  if (state.ended) return 'ended';
  if (now - state.lastHopAt > timeoutMs) return 'timeout';
  // The resume offer's screen is no menu: its state has none.
  if (state.resumeOffer === undefined && (state.currentMenuId === null || !compiled.menus.has(state.currentMenuId))) return 'menu_missing';
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
    // A session that starts over keeps the contact it loaded: the runtime gives it only once a session.
    const contact = hop.contact ?? (reason === 'unreadable_state' ? undefined : state.contact);
    const ctx = createContext(compiled, deps, createState(compiled, contact ? { ...hop, contact } : hop, deps, now), now);
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
  if (hop.contact && !next.contact) next.contact = hop.contact;
  const ctx = createContext(compiled, deps, next, now);
  if (hop.media) ctx.received = { media: hop.media };
  else if (hop.location) ctx.received = { location: hop.location };
  if (next.resumeOffer) return runGuarded(ctx, answerResumeOffer, hop.input);
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

/** Whether a stored state can be offered back: this app's, readable, not ended, on a menu this version has. */
function isResumable(compiled: CompiledApp, state: SessionState): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    state.version === 1 &&
    state.appId === compiled.app.appId &&
    !state.ended &&
    state.resumeOffer === undefined &&
    state.currentMenuId !== null &&
    compiled.menus.has(state.currentMenuId)
  );
}

/**
 * Resume on redial: a new session for a dialler whose previous session (`dropped`, as the runtime saved it after
 * its last hop) timed out or dropped. Shows RESUME_OFFER_TEXT; the answer goes through continueSession: `1`
 * restores `dropped` (menu, history, inputs, variables, action results) under this session's id and shows the
 * screen it was on, without running its actions again; `2` starts afresh from what was dialled now; anything
 * else shows the offer again under `Invalid choice`. A state that cannot be resumed (ended, another app's, its
 * menu gone from this version) is not offered: the session simply starts.
 * @example const { reply } = await offerResume(compiled, hop, saved.state, deps);
 *   // reply: { text: '1. Continue where you left off\n2. Start again', end: false }
 */
export function offerResume(compiled: CompiledApp, hop: Hop, dropped: SessionState, deps: EngineDeps): Promise<HopResult> {
  if (!isResumable(compiled, dropped)) return startSession(compiled, hop, deps);
  const now = deps.now();
  const state = createState(compiled, hop, deps, now);
  state.resumeOffer = typeof hop.dialString === 'string' ? { from: dropped, dialString: hop.dialString } : { from: dropped };
  return runGuarded(createContext(compiled, deps, state, now), beginResumeOffer, hop.dialString);
}

async function beginResumeOffer(ctx: HopContext, dialString: string | undefined): Promise<void> {
  emitEvent(ctx, 'session_started', 'system', `Session started for ${ctx.state.msisdn || 'unknown number'}`, {
    data: startedData(ctx.state, dialString, readDial(ctx, dialString)),
  });
  const fromSessionId = ctx.state.resumeOffer?.from.sessionId ?? '';
  emitEvent(ctx, 'resume_offered', 'system', `Offered to resume session ${fromSessionId}`, { data: { fromSessionId } });
  showResumeOffer(ctx, '');
}

function showResumeOffer(ctx: HopContext, notice: string): void {
  const text = notice === '' ? RESUME_OFFER_TEXT : `${notice}\n${RESUME_OFFER_TEXT}`;
  ctx.state.screen = RESUME_OFFER_TEXT;
  ctx.state.notice = notice;
  ctx.state.page = 0;
  ctx.reply = { text, end: false };
  const data: EngineEventData['menu_shown'] = { text, page: 0, pages: 1 };
  if (notice !== '') data.notice = notice;
  emitEvent(ctx, 'menu_shown', 'info', 'Showed the resume offer', { data });
}

async function answerResumeOffer(ctx: HopContext, raw: unknown): Promise<void> {
  const offer = ctx.state.resumeOffer as ResumeOffer;
  const { value: input } = cleanInput(raw, ctx.limits.maxInputLength);
  ctx.input = input;
  emitEvent(ctx, 'input_received', 'info', 'Received input on the resume offer', { data: { input } });
  const fromSessionId = offer.from.sessionId;
  if (input !== RESUME_CONTINUE_INPUT && input !== RESUME_START_AGAIN_INPUT) {
    const notice = getLabels(ctx).invalidChoice;
    emitEvent(ctx, 'navigation_failed', 'info', notice, { data: { input } });
    return showResumeOffer(ctx, notice);
  }
  delete ctx.state.resumeOffer;
  const { compiled } = ctx;
  if (input === RESUME_CONTINUE_INPUT && isResumable(compiled, offer.from)) {
    const { from } = offer;
    const fresh = ctx.state;
    ctx.state = {
      ...from,
      environment: fresh.environment,
      versionId: compiled.app.versionId,
      gateway: fresh.gateway,
      sessionId: fresh.sessionId,
      msisdn: fresh.msisdn,
      network: fresh.network,
      serviceCode: fresh.serviceCode,
      history: [...from.history],
      inputs: { ...from.inputs },
      vars: { ...from.vars },
      actionResults: { ...from.actionResults },
      notice: '',
      hopCount: fresh.hopCount,
      startedAt: fresh.startedAt,
      lastHopAt: fresh.lastHopAt,
    };
    const menu = getCurrentMenu(ctx) as CompiledMenu;
    emitEvent(ctx, 'session_resumed', 'system', `Resumed from session ${fromSessionId}`, { menu, data: { fromSessionId } });
    return showScreen(ctx, menu);
  }
  // `2`, or `1` when the menu it was on left the app while the offer was on screen (a draft edited meanwhile).
  const message =
    input === RESUME_START_AGAIN_INPUT
      ? `Started again instead of resuming session ${fromSessionId}`
      : `Session ${fromSessionId} can no longer be resumed (its menu is gone); started again`;
  emitEvent(ctx, 'resume_declined', 'system', message, { data: { fromSessionId } });
  await enterFirstMenu(ctx, readDial(ctx, offer.dialString));
}
