/**
 * A hop in named steps (docs/architecture.md, "A hop, from gateway to reply"). The request is read by its gateway's
 * adapter in one call (`readGatewayRequest` in src/channels), the version is loaded (`loadVersion`), and once the
 * session's previous hop is done (hop-turns.ts) `answerHop` runs the rest in order:
 *
 *   closeSession (an end hop) | whenCaughtUp -> admission -> readSession -> checkVersion -> admitHop -> readContact
 *   -> takeDroppedSession -> runEngine -> storeHop
 *
 * (`runHop`) and the adapter formats the reply; a WhatsApp message's reply is written by `toChatReply` instead.
 * Each step reads the runtime's parts from a `HopEnv` (hop-env.ts), built once per runtime. The contact's two steps
 * are in contact-steps.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ChannelAdapter, FormattedReply, InboundHop, Reply } from '../../../channels';
import {
  continueSession,
  extendDialOfApp,
  isDialOfApp,
  offerResume,
  resumeLostSession,
  startSession,
  UNAVAILABLE_TEXT,
  type Hop,
  type HopResult,
} from '../../../engine';
import { notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { GatewaySource } from '../../core/gateway-access';
import type { HopOutcome } from '../../core/metrics';
import { readContact, recordContact } from './contact-steps';
import { requestCallback } from './handoff-steps';
import type { HopEnv, RunnableApp } from './hop-env';
import { addHopTiming, toEndCause, toSessionEnd } from './session-records';
import type { Environment, RouteDecision, StoredSession } from './runtime-types';
import type { LoadedApp } from '../../core/caches';

/** One hop on its way through the runtime, once its adapter and session key are known. */
export interface HopRequest {
  appId: string;
  environment: Environment;
  caller: string | null;
  key: string;
  loaded: LoadedApp;
  adapter: ChannelAdapter;
  hop: InboundHop;
  /** Routed hops: the session as already looked up (a routed hop needs it to find its app). */
  lookedUp?: { stored: StoredSession | undefined };
  /** Routed hops: the parts dialled after the code that reached the app; a new session reads them as dialled on the app's code. */
  rest?: string[];
  /** Gateway URLs: where the request came from, for the limits on new sessions. */
  source?: GatewaySource;
  /** When the request arrived (performance.now()), for the hop's time on its session's record. */
  startedAt?: number;
  /**
   * Set by the reply deadline (hop-deadline.ts) once the gateway got its end screen because this hop was late: the
   * hop still finishes, but its session ends there, as over its budget.
   */
  late?: { isLate: boolean };
}

/**
 * The store key of a session: `id` is the gateway's session id, or a chat's conversation (a chat message names no
 * session; its conversation has one open at a time). A caller joins the gateway's name with `@`, which no adapter
 * name holds, so no session id sent to a gateway URL can spell an emulator caller's key.
 */
export const sessionKey = (appId: string, environment: Environment, gateway: string, id: string, caller: string | null = null) =>
  `${appId}:${environment}:${caller ? `${gateway}@${caller}` : gateway}:${id}`;

/**
 * Resume on redial's key for a dialler (not a session): the app, environment, emulator caller and number, so one
 * caller's emulator sessions are never offered to another.
 */
const resumableKey = (appId: string, environment: string, caller: string | null, msisdn: string) =>
  `${appId}:${environment}:${caller ?? ''}:${msisdn}`;

/** The store key of a routed session: the route key (`provider/mtngh`) holds a `/`, which no app id does. */
export const routedSessionKey = (routeKey: string, gateway: string, sessionId: string) => `${routeKey}:${gateway}:${sessionId}`;

const NOT_DEPLOYED_TEXT = 'This service is not available yet. Please try again later.';

/**
 * How long a finished session of a gateway that resends hops stays stored (ended) so that its last hop, sent
 * again, gets the same closing screen. Africa's Talking waits 15 s for an answer before it gives up on one;
 * 60 s covers several resends.
 */
const ENDED_SESSION_KEEP_SECONDS = 60;

/** A hop id as stored: short ones as they are, long ones (Africa's Talking text may reach the body limit) as a digest. */
const toStoredHopId = (id: string) => (id.length <= 64 ? id : `sha256:${createHash('sha256').update(id).digest('base64url')}`);

/** Step: the version a hop runs, the deployed one on live and the draft on test; missing says why there is none. */
export function loadVersion(ctx: AppContext, appId: string, environment: Environment): Promise<LoadedApp> {
  return environment === 'live' ? ctx.versions.getLive(appId) : ctx.versions.getDraft(appId);
}

/**
 * loadVersion for a URL that names the app: an app that does not exist is 404. `version` (the emulator's) names a
 * deployed version to run instead, which must exist: 404 too.
 */
export async function getVersion(ctx: AppContext, appId: string, environment: Environment, version?: number): Promise<LoadedApp> {
  const loaded = version ? await ctx.versions.getNumbered(appId, version) : await loadVersion(ctx, appId, environment);
  if ('missing' in loaded && loaded.missing === 'app') throw notFound('App not found');
  if (version && 'missing' in loaded) throw notFound(`Version ${version} not found`);
  return loaded;
}

/** One hop, its session's previous hop done (hop-turns.ts): every step in order, then the adapter's reply. */
export async function answerHop(env: HopEnv, request: HopRequest): Promise<FormattedReply | null> {
  let answered = await runHop(env, request);
  if (answered?.handoff && env.deps.handoffs) answered = await requestCallback(env, env.deps.handoffs, request, answered);
  return answered && request.adapter.formatReply(answered.reply, answered.hop);
}

/** What a hop answers: the screen, and the hop as read against its session (a chat's carries the session's id). */
export interface HopAnswer {
  reply: Reply;
  hop: InboundHop;
  /** A rule handed the conversation to a person (docs/inbox.md): its reason, and the session's inputs then. */
  handoff?: { reason: string; whatsappBotId?: string; inputs: Record<string, string>; language: string | null };
}

/**
 * The steps of a hop in order, its session's previous hop done: the screen it gets, or null for an end hop (the
 * gateway gets an empty 200). Gateways' hops are formatted by their adapter (answerHop), a chat's by toChatReply.
 */
export async function runHop(env: HopEnv, request: HopRequest): Promise<HopAnswer | null> {
  if (request.hop.kind === 'end') {
    env.deps.metrics?.countHop(request.adapter.name, request.environment, 'notice');
    return closeSession(env, request.key, request.hop, request.appId);
  }
  // A database writing slower than the traffic comes holds new hops until it catches up, rather than losing
  // their records: the hops of the accounts whose rows fill the buffer (event-sink.ts); null, nothing to wait
  // for, is the usual case.
  const ownerId = 'ownerId' in request.loaded ? request.loaded.ownerId : '';
  const behind = env.deps.sink.whenCaughtUp(ownerId);
  if (behind) await behind;
  // While the process is busy, each account gets its share of the hop thread (hop-admission.ts): past it, its hops
  // wait for a later turn of the event loop; one whose gateway's deadline passed meanwhile, or refused for a full
  // queue, never runs.
  const turn = env.admission.admit(ownerId, request.late);
  if (!(turn === true || (turn !== false && (await turn)))) {
    // A hop the deadline already answered was counted late there.
    if (!request.late?.isLate) env.deps.metrics?.countHop(request.adapter.name, request.environment, 'refused');
    return { reply: { text: UNAVAILABLE_TEXT, end: true }, hop: request.hop };
  }

  const read = await readSession(env, request);
  if ('reply' in read) return read;
  const { hop, stored } = read;
  const checked = checkVersion(env, request, hop, stored);
  const count = (outcome: HopOutcome) => env.deps.metrics?.countHop(request.adapter.name, request.environment, outcome);
  if ('reply' in checked) {
    count('refused');
    return { reply: checked.reply, hop };
  }
  const { version, engineHop } = checked;
  const isNewSession = !(stored && !stored.state.ended) && hop.kind !== 'continue';
  const refusal = await admitHop(env, request, version, engineHop.msisdn, isNewSession);
  if (refusal !== null) {
    count('refused');
    return { reply: { text: refusal, end: true }, hop };
  }
  const contactMsisdn = await readContact(env, version, engineHop, stored);
  const resume = await takeDroppedSession(env, request, version, engineHop.msisdn, isNewSession);
  const result = await runEngine(env, request, version, { engineHop, hop, stored, dropped: resume.dropped });
  if (!result) {
    count('unavailable');
    return { reply: { text: UNAVAILABLE_TEXT, end: true }, hop };
  }
  await storeHop(env, request, version, { hop, stored, result, resume, contactMsisdn });
  if (result.handoff) {
    const handoff = {
      ...result.handoff,
      inputs: { ...result.state.inputs },
      language: result.state.language ?? null,
    };
    return { reply: result.reply, hop, handoff };
  }
  return { reply: result.reply, hop };
}

/**
 * Step, for an end hop: the gateway ended the session (released, timed out; Africa's Talking's end notice): it is
 * abandoned where it stood, with the cause and the details the gateway gave (`hop.ending`; without one, the gateway
 * ended it). `appId` defaults to the session's. One the user ended themselves (`isEndedByUser`) is not offered back
 * on redial. A notice for a session already recorded (ended and kept for resent hops, or gone) adds what it says to
 * the record; one for a session never seen changes nothing. The gateway gets an empty 200.
 */
export async function closeSession(env: HopEnv, key: string, hop: InboundHop, appId?: string): Promise<null> {
  const ending = hop.ending ?? { cause: 'gateway_ended' };
  const stored = await env.deps.sessions.get(key);
  if (!stored) {
    if (appId && addsToRecord(hop)) env.records.recordNotice({ appId, gateway: hop.gateway, sessionId: hop.sessionId, ...ending });
    else env.ctx.log.debug({ appId, gateway: hop.gateway, sessionId: hop.sessionId }, 'an end notice for a session not stored');
    return null;
  }
  const { state } = stored;
  await env.deps.sessions.delete(key, appId ?? state.appId);
  // A finished session kept for resent hops was recorded when it ended.
  if (state.ended) {
    if (addsToRecord(hop)) env.records.recordNotice({ appId: state.appId, gateway: state.gateway, sessionId: state.sessionId, ...ending });
    return null;
  }
  if (hop.isEndedByUser && state.msisdn)
    await env.deps.sessions.deleteResumable(resumableKey(state.appId, state.environment, stored.caller ?? null, state.msisdn));
  env.records.recordAbandoned(stored, ending);
  return null;
}

/**
 * Whether an end notice has anything to add to a record already written: a duration, a cost, the network's words, or
 * a network's failure (core/session-notices.ts). A bare Release or Timeout for a session already closed changes
 * nothing and writes nothing, however many a forger sends.
 */
function addsToRecord(hop: InboundHop): boolean {
  const ending = hop.ending;
  if (!ending) return false;
  return ending.cause === 'network_error' || ending.durationMs !== undefined || ending.cost !== undefined || ending.words !== undefined;
}

/** What readSession found: the hop read against its session, or the screen it gets at once (a resent hop's). */
type SessionRead = { hop: InboundHop; stored: StoredSession | undefined } | HopAnswer;

/**
 * Step: the session a hop continues, and the hop read against it (the adapter's `resumeHop`; a chat channel's
 * conversation). A hop the gateway sent again (our answer was late) gets its stored reply, and nothing runs twice.
 */
export async function readSession(env: HopEnv, request: HopRequest): Promise<SessionRead> {
  const { adapter, key } = request;
  let hop = request.hop;
  // A gateway whose hop is read against its session (`resumeHop`), or that names its hops, needs the session
  // looked up even for what reads as a start.
  let stored = request.lookedUp
    ? request.lookedUp.stored
    : hop.kind === 'start' && !adapter.resumeHop && !adapter.conversation && hop.hopId === undefined
      ? undefined
      : await env.deps.sessions.get(key);
  if (hop.hopId !== undefined && stored?.lastHop && stored.lastHop.id === toStoredHopId(hop.hopId)) {
    env.ctx.log.debug({ appId: request.appId, sessionId: hop.sessionId }, 'a resent hop answered with its stored reply');
    // A chat message names no session: its stored reply names the session it was given in.
    return { hop: adapter.conversation ? { ...hop, sessionId: stored.state.sessionId } : hop, reply: stored.lastHop.reply };
  }
  // A new session on the id of a finished one (kept only for resends) replaces it.
  if (hop.kind === 'start' && stored?.state.ended) stored = undefined;
  if (adapter.resumeHop) hop = adapter.resumeHop(hop, stored?.channelState);
  if (adapter.conversation) return readConversation(env, hop, stored);
  return { hop, stored };
}

/**
 * A chat channel's message against its conversation's stored session (ChannelAdapter.conversation): the open
 * session goes on, or a new one starts under an id of its own; a restart word abandons the open one first.
 */
function readConversation(
  env: HopEnv,
  hop: InboundHop,
  stored: StoredSession | undefined,
): { hop: InboundHop; stored: StoredSession | undefined } {
  const open = stored && !stored.state.ended ? stored : undefined;
  if (open && hop.kind !== 'start') return { hop: { ...hop, sessionId: open.state.sessionId }, stored: open };
  // A restart word: the user left the open session.
  if (open) env.records.recordAbandoned(open, { cause: 'user_cancelled' });
  return { hop: { ...hop, kind: 'start', sessionId: randomUUID() }, stored: undefined };
}

/**
 * Step: whether the version can take the hop (deployed, on its kind of channel, dialled on its code), and the hop
 * as the engine takes it; or the end screen it gets instead.
 */
export function checkVersion(
  env: HopEnv,
  request: HopRequest,
  hop: InboundHop,
  stored: StoredSession | undefined,
): { version: RunnableApp; engineHop: Hop } | { reply: Reply } {
  const { appId, environment, caller, loaded, adapter } = request;
  if ('missing' in loaded) return { reply: { text: NOT_DEPLOYED_TEXT, end: true } };
  // A bot answers on WhatsApp only, and a USSD app on USSD URLs only.
  if ((loaded.compiled.app.channel === 'whatsapp') !== !!adapter.conversation) throw notFound('App not found');
  // Routed here by another code: the app reads what followed that code as if dialled after its own.
  const dialString = request.rest && hop.kind === 'start' ? extendDialOfApp(loaded.compiled.dial, request.rest) : hop.dialString;
  // A channel that is the network too (the emulator) never hands the app a session dialled on another code.
  if (adapter.network && hop.kind === 'start' && dialString !== undefined && !isDialOfApp(loaded.compiled.dial, dialString)) {
    env.records.recordRefusedDial(
      { appId, environment, caller, sessionId: hop.sessionId, dialString: dialString ?? '' },
      loaded.compiled.app.shortCode,
      adapter.network.unknownCodeText,
      loaded.ownerId,
    );
    return { reply: { text: adapter.network.unknownCodeText, end: true } };
  }
  const engineHop: Hop = {
    sessionId: hop.sessionId,
    msisdn: hop.msisdn || stored?.state.msisdn || '',
    network: hop.network || stored?.state.network || '',
    serviceCode: hop.serviceCode || stored?.state.serviceCode || '',
    input: hop.input,
    dialString,
    gateway: adapter.name,
    environment,
  };
  if (hop.entryMenuId !== undefined && hop.kind === 'start') engineHop.entryMenuId = hop.entryMenuId;
  if (hop.media) engineHop.media = hop.media;
  if (hop.location) engineHop.location = hop.location;
  return { version: loaded, engineHop };
}

/**
 * Step: the limits a hop must pass, in order; null admits it, a sentence ends the session on the gateway's end
 * screen. A draft's hops on its own URL count against its owner; the gateway limits come before the plan's, so a
 * session they refuse is never counted against the plan.
 */
export async function admitHop(
  env: HopEnv,
  request: HopRequest,
  version: RunnableApp,
  msisdn: string,
  isNewSession: boolean,
): Promise<string | null> {
  const { deps } = env;
  const { appId, environment, rest, source } = request;
  // Test URLs take any account's traffic for free: each hop of a draft is counted against its owner.
  if (environment === 'test' && rest === undefined && deps.admitTestHop && !version.isTemplate) {
    const refusal = await deps.admitTestHop(version.ownerId);
    if (refusal !== null) return refusal;
  }
  if (isNewSession && deps.admitGatewaySession && source) {
    const refusal = await deps.admitGatewaySession({ appId, msisdn, source });
    if (refusal !== null) return refusal;
  }
  if (isNewSession && deps.admitLiveSession && !version.isTemplate && (environment === 'live' || rest !== undefined))
    return deps.admitLiveSession(version.ownerId);
  return null;
}

/** Resume on redial for one hop: the dialler's key and the app's window (null: off), and the session it dropped. */
interface DroppedSession {
  diallerKey: string | null;
  windowMinutes: number | null;
  dropped: StoredSession | undefined;
}

/**
 * Step, resume on redial (USSD apps that turned it on): a new session takes the dialler's last one, saved after
 * each of its hops, when it dropped within the app's window.
 */
export async function takeDroppedSession(
  env: HopEnv,
  request: HopRequest,
  version: RunnableApp,
  msisdn: string,
  isNewSession: boolean,
): Promise<DroppedSession> {
  const { appId, environment, caller, adapter } = request;
  const windowMinutes = adapter.conversation ? null : version.resumeWindowMinutes;
  const diallerKey = windowMinutes !== null && msisdn !== '' ? resumableKey(appId, environment, caller, msisdn) : null;
  const saved = isNewSession && diallerKey ? await env.deps.sessions.takeResumable(diallerKey) : undefined;
  // The store keeps it for the window it was saved with; a window shortened since counts too.
  const dropped = saved && windowMinutes !== null && saved.state.lastHopAt + windowMinutes * 60_000 > env.now() ? saved : undefined;
  return { diallerKey, windowMinutes, dropped };
}

/**
 * Step: the engine on the hop: the stored session goes on; a `continue` with none stored resumes a lost one; a
 * new session is offered the dropped one back, or starts. An engine that throws (our bug: it turns authoring
 * faults into screens) ends the session on the unavailable screen.
 */
export async function runEngine(
  env: HopEnv,
  request: HopRequest,
  version: RunnableApp,
  run: { engineHop: Hop; hop: InboundHop; stored: StoredSession | undefined; dropped: StoredSession | undefined },
): Promise<HopResult | null> {
  const { engineHop, hop, stored, dropped } = run;
  const engineDeps = env.getEngineDeps(version, request.appId, request.adapter);
  const { compiled } = version;
  try {
    if (stored && !stored.state.ended) return await continueSession(compiled, stored.state, engineHop, engineDeps);
    // Never replays: see resumeLostSession.
    if (hop.kind === 'continue') return await resumeLostSession(compiled, engineHop, engineDeps);
    if (dropped) return await offerResume(compiled, engineHop, dropped.state, engineDeps);
    return await startSession(compiled, engineHop, engineDeps);
  } catch (err) {
    env.ctx.log.error({ err, appId: request.appId }, 'engine failed on a hop');
    await env.deps.sessions.delete(request.key, request.appId);
    // The session is gone without a record, as before; what it kept for its contact is written.
    if (stored?.pendingContact && !stored.state.ended) env.records.recordContact(stored.pendingContact.record);
    return null;
  }
}

/**
 * Step: what a hop leaves: its events and inputs as rows, its contact's record (kept with the session until it
 * ends: recordContact), the dialler's session for resume on redial, and the session itself: kept for the next
 * hop, kept ended for a while when the gateway resends hops, or deleted and recorded as completed.
 */
export async function storeHop(
  env: HopEnv,
  request: HopRequest,
  version: RunnableApp,
  run: {
    hop: InboundHop;
    stored: StoredSession | undefined;
    result: HopResult;
    resume: DroppedSession;
    contactMsisdn: string | undefined;
  },
): Promise<void> {
  const { deps, records } = env;
  const { appId, environment, caller, key, adapter } = request;
  const { hop, stored, result, resume, contactMsisdn } = run;
  const timings = addHopTiming(stored?.timings, performance.now() - (request.startedAt ?? performance.now()), result.events);
  if (deps.metrics) {
    deps.metrics.countHop(adapter.name, environment, result.reply.end ? 'ended' : 'continued');
    deps.metrics.timeHop(timings.hopMs.at(-1)!, timings.actionMs.at(-1)!);
  }
  records.recordHop(result.events, stored?.state.inputs ?? {}, result.state, environment, caller, version.ownerId);
  const pendingContact = recordContact(env, version, run);
  const session: StoredSession = { state: result.state, channelState: hop.channelState, caller, contactMsisdn, pendingContact, timings };
  // The gateway already has its end screen (hop-deadline.ts): the session ends here, whatever the hop answered.
  if (request.late?.isLate) return endLateSession(env, request, session);
  if (resume.diallerKey && resume.windowMinutes !== null) await saveResumable(env, resume.diallerKey, result, resume.windowMinutes, caller);
  const lastHop = hop.hopId === undefined ? undefined : { id: toStoredHopId(hop.hopId), reply: result.reply };
  session.lastHop = lastHop;
  if (!result.reply.end) {
    const ttlSeconds = adapter.conversation?.timeoutSeconds ?? env.ussdTtlSeconds;
    try {
      await deps.sessions.set(key, session, { appId, ttlSeconds });
    } catch (err) {
      // The store lost the hop (Redis down): its contact record is written as its other records were.
      if (pendingContact) records.recordContact(pendingContact.record);
      throw err;
    }
    return;
  }
  if (lastHop) await deps.sessions.keep(key, session, { appId, ttlSeconds: ENDED_SESSION_KEEP_SECONDS });
  else await deps.sessions.delete(key, appId);
  records.recordSession(result.state, { status: 'completed', cause: toEndCause(result.events), ...toSessionEnd(session) }, version.ownerId);
}

/**
 * A hop that finished after the gateway got its end screen (hop-deadline.ts): the session is over for the caller,
 * so it is deleted and recorded as over its budget, whatever the hop answered; nothing is saved for resume.
 */
async function endLateSession(env: HopEnv, request: HopRequest, session: StoredSession): Promise<void> {
  await env.deps.sessions.delete(request.key, request.appId);
  env.records.recordSession(session.state, { status: 'abandoned', cause: 'budget_exceeded', ...toSessionEnd(session) });
  if (session.pendingContact) env.records.recordContact(session.pendingContact.record);
}

/**
 * After a hop of an app with resume on redial: a session that ended is never offered back; one still open is
 * saved for its dialler for the window, counted from its last answer. While the offer is on screen the dropped
 * session stays saved (its own time left), so a drop on the offer loses nothing.
 */
async function saveResumable(
  env: HopEnv,
  diallerKey: string,
  result: HopResult,
  windowMinutes: number,
  caller: string | null,
): Promise<void> {
  if (result.reply.end) return env.deps.sessions.deleteResumable(diallerKey);
  const state = result.state.resumeOffer?.from ?? result.state;
  const ttlSeconds = Math.ceil((state.lastHopAt + windowMinutes * 60_000 - env.now()) / 1000);
  if (ttlSeconds > 0) await env.deps.sessions.saveResumable(diallerKey, { state, caller }, ttlSeconds);
}

/** A routed hop, its session's previous hop done: its app from its session, or routed by what was dialled. */
export async function answerRoutedHop(
  env: HopEnv,
  request: Pick<HopRequest, 'key' | 'adapter' | 'hop' | 'source' | 'startedAt' | 'late'>,
  route: (dialled: string) => Promise<RouteDecision>,
): Promise<FormattedReply | null> {
  const { key, adapter, hop, source, startedAt, late } = request;
  if (hop.kind === 'end') {
    env.deps.metrics?.countHop(adapter.name, 'routed', 'notice');
    return closeSession(env, key, hop);
  }
  const stored = await env.deps.sessions.get(key);
  const isResent = hop.hopId !== undefined && stored?.lastHop?.id === toStoredHopId(hop.hopId);
  let target: { appId: string; environment: Environment; rest?: string[] };
  if (stored && (hop.kind !== 'start' || isResent)) {
    target = { appId: stored.state.appId, environment: stored.state.environment === 'live' ? 'live' : 'test' };
  } else {
    const decision = await route(hop.dialString || hop.serviceCode);
    if ('refusal' in decision) return adapter.formatReply({ text: decision.refusal, end: true }, hop);
    target = decision;
  }
  const { appId, environment, rest } = target;
  const loaded = await loadVersion(env.ctx, appId, environment);
  return answerHop(env, {
    appId,
    environment,
    caller: null,
    key,
    loaded,
    adapter,
    hop,
    lookedUp: { stored },
    rest,
    source,
    startedAt,
    late,
  });
}
