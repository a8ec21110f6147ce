import { createHash, randomUUID } from 'node:crypto';
import {
  detectGateway,
  getChannelAdapter,
  isSessionEndNotification,
  parseSessionEndNotification,
  sessionEndHop,
  type ChannelAdapter,
  type FormattedReply,
  type GatewayRequest,
  type InboundHop,
  type OutboundReply,
} from '../../../channels';
import {
  continueSession,
  extendDialOfApp,
  isDialOfApp,
  offerResume,
  resumeLostSession,
  startSession,
  UNAVAILABLE_TEXT,
  type ActionOutcome,
  type ActionRequest,
  type EngineDeps,
  type Hop,
  type HopResult,
  type SessionState,
} from '../../../engine';
import { AppError, notFound } from '../../../shared/errors';
import type { WhatsAppInbound, WhatsAppMessage } from '../../../shared/whatsapp';
import type { AppContext } from '../../context';
import type { ActionApp } from './action-runner';
import type { EventSink, EventSinkStats } from './event-sink';
import type { AdmitGatewaySession } from './gateway-limits';
import type { GatewaySource } from '../../core/gateway-access';
import { createHopTurns } from './hop-turns';
import { createSessionRecorder } from './session-records';
import { createRenderShares } from '../../core/render-shares';
import type { SessionStore } from './session-store';
import type { LoadedApp } from '../../core/caches';

export type Environment = 'test' | 'live';

/** What the store keeps per session: the engine's state, and what the channel and the runtime need of it. */
export interface StoredSession {
  state: SessionState;
  /** What the gateway's adapter kept from the last hop to read the next one (`InboundHop.channelState`). */
  channelState?: string;
  /**
   * The last hop of a gateway that names its hops (`InboundHop.hopId`) and the reply it got: the same hop
   * sent again is answered with that reply. `id` as `toStoredHopId` keeps it.
   */
  lastHop?: { id: string; reply: OutboundReply };
  /** The emulator caller the session belongs to (emulator-caller.ts), kept so its abandoned record is marked too. */
  caller?: string | null;
}

export interface RuntimeDeps {
  sessions: SessionStore<StoredSession>;
  sink: EventSink;
  /** Runs one action for an app; `owner` is whose outbox, transactions and custom functions it uses. */
  runAction: (request: ActionRequest, app: ActionApp) => Promise<ActionOutcome>;
  /**
   * Asked before a new session on live traffic (the production URL, a shared shortcode's URL; never test URLs
   * or the emulator) with the app owner's id: null admits it, a sentence ends it on the gateway's end screen
   * (the plan's monthly allowance, an inactive subscription: features/billing).
   */
  admitLiveSession?: (ownerId: string) => Promise<string | null>;
  /**
   * Asked before each hop of a draft on its own URL (the test URL, the emulator; not featured templates) with the
   * app owner's id: null runs it, a sentence ends the session on the gateway's end screen (TEST_HOP_RATE_LIMIT).
   */
  admitTestHop?: (ownerId: string) => Promise<string | null>;
  /**
   * Asked before a new session on a gateway URL (never the emulator or WhatsApp), before `admitLiveSession`: the
   * limits per calling number and per unauthenticated source (gateway-limits.ts). A refused session is not counted.
   */
  admitGatewaySession?: AdmitGatewaySession;
  /** Inactivity after which a session is over (180 s by default, docs/runtime.md). */
  sessionTimeoutSeconds?: number;
}

/**
 * Where a routed hop goes (a shared shortcode's traffic: one gateway URL for many apps, features/shortcodes): the
 * app and environment the dialled string reaches, with the parts dialled after the code that matched (template-tag
 * values or deep-dial input for the app); or the sentence that ends the session when it reaches none.
 */
export type RouteDecision = { appId: string; environment: Environment; rest: string[] } | { refusal: string };

/** One WhatsApp message for a bot: its conversation (linked number and user), and whether lists and buttons can be shown. */
export interface ChatMessage {
  conversation: string;
  inbound: WhatsAppInbound;
  interactive: boolean;
}

/** The bot's answer to one message: the messages to send, and the session they belong to. */
export interface ChatReply {
  sessionId: string;
  end: boolean;
  messages: WhatsAppMessage[];
}

/** Checks a gateway request's key or address (gateway-access.ts): its source, or an AppError (401, 403, 404). */
export type AuthorizeGatewayRequest = () => Promise<GatewaySource>;

export interface Runtime {
  /**
   * One gateway request to `/ussd/{appId}/{test|live}` or the emulator; null means "answer an empty 200".
   * `caller` (emulator only) scopes the session to whoever runs it: the same session id sent by anyone else
   * reaches another session, and every row the session writes is marked with it. `authorize` (gateway URLs only)
   * checks the request's key or address and names its source, which puts new sessions under the gateway limits;
   * it runs inside the hop's error handling, so a database that cannot answer it gives the unavailable screen.
   */
  handleRequest(
    appId: string,
    environment: Environment,
    req: GatewayRequest,
    gateway?: string,
    caller?: string | null,
    authorize?: AuthorizeGatewayRequest,
  ): Promise<FormattedReply | null>;
  /**
   * One gateway request to a URL that serves many apps (`/ussd/provider/{providerId}`). A new session's app comes
   * from `route`, given what was dialled (the dial string, else the service code); its later hops stay on that app
   * whatever they carry, as sessions are kept under `routeKey` rather than an app id. A session the store lost is
   * routed again by its service code.
   */
  handleRoutedRequest(
    routeKey: string,
    req: GatewayRequest,
    gateway: string | undefined,
    route: (dialled: string) => Promise<RouteDecision>,
    authorize?: AuthorizeGatewayRequest,
  ): Promise<FormattedReply | null>;
  /**
   * One WhatsApp message for a bot (features/bots, and the console's chat simulator with its `caller`): the
   * same hop as a gateway's, through the WhatsApp channel (channels/whatsapp.ts).
   */
  handleMessage(appId: string, environment: Environment, message: ChatMessage, caller?: string | null): Promise<ChatReply>;
  /**
   * The gateway's end screen with `text`, for a hop that may not run (one our own action or webhook sent): the
   * request is read as any hop is, nothing is stored or recorded.
   */
  refuseHop(req: GatewayRequest, gateway: string | undefined, text: string): FormattedReply | null;
  findActiveSessions(appId: string): Promise<SessionState[]>;
  /** Records sessions that timed out as abandoned; runs on a timer, callable from tests. */
  sweepExpired(): Promise<number>;
  /** Writes buffered events now (tests, and the logs screens' "refresh"). */
  flushEvents(): Promise<void>;
  getEventStats(): EventSinkStats;
  close(): Promise<void>;
}

/**
 * The store key of a session. A caller joins the gateway's name with `@`, which no adapter name holds, so no
 * session id sent to a gateway URL can spell an emulator caller's key.
 */
const sessionKey = (appId: string, environment: Environment, gateway: string, sessionId: string, caller: string | null = null) =>
  `${appId}:${environment}:${caller ? `${gateway}@${caller}` : gateway}:${sessionId}`;

/**
 * Resume on redial's key for a dialler (not a session): the app, environment, emulator caller and number, so one
 * caller's emulator sessions are never offered to another.
 */
const resumableKey = (appId: string, environment: string, caller: string | null, msisdn: string) =>
  `${appId}:${environment}:${caller ?? ''}:${msisdn}`;

/** The store key of a routed session: the route key (`provider/mtngh`) holds a `/`, which no app id does. */
const routedSessionKey = (routeKey: string, gateway: string, sessionId: string) => `${routeKey}:${gateway}:${sessionId}`;

const NOT_DEPLOYED_TEXT = 'This service is not available yet. Please try again later.';

/**
 * How long a finished session of a gateway that resends hops stays stored (ended) so that its last hop, sent
 * again, gets the same closing screen. Africa's Talking waits 15 s for an answer before it gives up on one;
 * 60 s covers several resends.
 */
const ENDED_SESSION_KEEP_SECONDS = 60;

/** A hop id as stored: short ones as they are, long ones (Africa's Talking text may reach the body limit) as a digest. */
const toStoredHopId = (id: string) => (id.length <= 64 ? id : `sha256:${createHash('sha256').update(id).digest('base64url')}`);

/** One hop on its way through the runtime, once its adapter and session key are known. */
interface HopRequest {
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
}

export function createRuntime(ctx: AppContext, deps: RuntimeDeps): Runtime {
  const ussdTtlSeconds = deps.sessionTimeoutSeconds ?? 180;
  // Event ids only need to be unique (they are never stored): a random process prefix and a counter cost
  // far less than a UUID per event. They also name a session whose gateway sent no id.
  const idPrefix = randomUUID().slice(0, 8);
  let idCounter = 0;
  const newId = () => `${idPrefix}-${(++idCounter).toString(36)}`;
  const now = () => ctx.now().getTime();
  const whatsappAdapter = getChannelAdapter('whatsapp');
  // One limits object per kind of channel, made once: the engine resolves limits by object.
  const ussdLimits = { sessionTimeoutMs: ussdTtlSeconds * 1000 };
  const chatLimits = { sessionTimeoutMs: (whatsappAdapter.conversation?.timeoutSeconds ?? ussdTtlSeconds) * 1000 };

  const { recordEvents, recordInputs, recordSession, recordRefusedDial } = createSessionRecorder(deps.sink, ctx.now);

  /** The engine's dependencies for one loaded app (version or draft), made once rather than on every hop. */
  const depsByApp = new WeakMap<object, EngineDeps>();
  // Liquid time on this thread, shared out per account: all of an owner's apps draw on one share.
  const renderShares = createRenderShares();
  function getEngineDeps(loaded: { ownerId: string; isTemplate: boolean }, appId: string, adapter: ChannelAdapter): EngineDeps {
    // A loaded app runs on one kind of channel only (answerHop refuses a bot on a USSD URL and back).
    let engineDeps = depsByApp.get(loaded);
    if (!engineDeps) {
      const appRef: ActionApp = { appId, ownerId: loaded.ownerId, isTemplate: loaded.isTemplate };
      engineDeps = {
        now,
        newId,
        limits: adapter.conversation ? chatLimits : ussdLimits,
        runAction: (request) => deps.runAction(request, appRef),
        renderTime: renderShares.forAccount(loaded.ownerId),
      };
      depsByApp.set(loaded, engineDeps);
    }
    return engineDeps;
  }

  /**
   * The gateway ended the session (released, timed out): it is abandoned where it stood. `appId` defaults to the
   * session's. One the user ended themselves (`isEndedByUser`) is not offered back on redial.
   */
  async function closeSession(key: string, appId?: string, isEndedByUser = false): Promise<null> {
    const stored = await deps.sessions.get(key);
    if (stored) {
      await deps.sessions.delete(key, appId ?? stored.state.appId);
      // A finished session kept for resent hops was recorded as completed when it ended.
      if (stored.state.ended) return null;
      const { state } = stored;
      if (isEndedByUser && state.msisdn)
        await deps.sessions.deleteResumable(resumableKey(state.appId, state.environment, stored.caller ?? null, state.msisdn));
      recordSession(state, 'abandoned', state.currentMenuId, stored.caller ?? null);
    }
    return null;
  }

  // The hops of one session take turns; a resent hop that is still running shares its reply.
  const hopTurns = createHopTurns<FormattedReply | null>();

  // During an outage every hop fails the same way: one log line a second says so, with how many it stands for.
  let unavailableLoggedAt = Number.NEGATIVE_INFINITY;
  let unavailableUnlogged = 0;

  /**
   * A hop that failed on what the runtime stands on (the session store: Redis down or failing over; the
   * database: an app's version or its owner's plan unreadable) ends on the gateway's own end screen, as an
   * action past its budget does, with HTTP 200: a 500 shows the handset a network error. Errors thrown on
   * purpose (an unknown app, a request no gateway sends) keep their status. A session-end notification wants no
   * screen.
   */
  function answerUnavailable(err: unknown, req: GatewayRequest, gateway: string | undefined, appId?: string): FormattedReply | null {
    if (err instanceof AppError) throw err;
    unavailableUnlogged++;
    if (performance.now() - unavailableLoggedAt >= 1000) {
      ctx.log.error(
        { err, appId, hops: unavailableUnlogged },
        'hops failed on the session store or the database; the gateway got the unavailable screen',
      );
      unavailableLoggedAt = performance.now();
      unavailableUnlogged = 0;
    }
    if (!gateway && isSessionEndNotification(req)) return null;
    const adapter = detectGateway(req, gateway);
    return adapter.formatReply({ text: UNAVAILABLE_TEXT, end: true }, adapter.parseRequest(req));
  }

  async function handleRequest(
    appId: string,
    environment: Environment,
    req: GatewayRequest,
    gateway?: string,
    caller: string | null = null,
    authorize?: AuthorizeGatewayRequest,
  ): Promise<FormattedReply | null> {
    try {
      const source = authorize ? await authorize() : undefined;
      return await handleAppRequest(appId, environment, req, gateway, caller, source);
    } catch (err) {
      return answerUnavailable(err, req, gateway, appId);
    }
  }

  async function handleAppRequest(
    appId: string,
    environment: Environment,
    req: GatewayRequest,
    gateway: string | undefined,
    caller: string | null,
    source: GatewaySource | undefined,
  ): Promise<FormattedReply | null> {
    const loaded = environment === 'live' ? await ctx.versions.getLive(appId) : await ctx.versions.getDraft(appId);
    if ('missing' in loaded && loaded.missing === 'app') throw notFound('App not found');

    if (!gateway && isSessionEndNotification(req)) {
      const hop = sessionEndHop(parseSessionEndNotification(req));
      const key = sessionKey(appId, environment, hop.gateway, hop.sessionId);
      return hopTurns.take(key, undefined, () => closeSession(key, appId));
    }

    const adapter = detectGateway(req, gateway);
    const hop = adapter.parseRequest(req);
    const key = sessionKey(appId, environment, adapter.name, hop.sessionId, caller);
    return hopTurns.take(key, hop.hopId, () => answerHop({ appId, environment, caller, key, loaded, adapter, hop, source }));
  }

  async function handleRoutedRequest(
    routeKey: string,
    req: GatewayRequest,
    gateway: string | undefined,
    route: (dialled: string) => Promise<RouteDecision>,
    authorize?: AuthorizeGatewayRequest,
  ): Promise<FormattedReply | null> {
    try {
      const source = authorize ? await authorize() : undefined;
      return await handleRoutedAppRequest(routeKey, req, gateway, route, source);
    } catch (err) {
      return answerUnavailable(err, req, gateway);
    }
  }

  async function handleRoutedAppRequest(
    routeKey: string,
    req: GatewayRequest,
    gateway: string | undefined,
    route: (dialled: string) => Promise<RouteDecision>,
    source: GatewaySource | undefined,
  ): Promise<FormattedReply | null> {
    if (!gateway && isSessionEndNotification(req)) {
      const hop = sessionEndHop(parseSessionEndNotification(req));
      const key = routedSessionKey(routeKey, hop.gateway, hop.sessionId);
      return hopTurns.take(key, undefined, () => closeSession(key));
    }
    const adapter = detectGateway(req, gateway);
    const hop = adapter.parseRequest(req);
    const key = routedSessionKey(routeKey, adapter.name, hop.sessionId);
    return hopTurns.take(key, hop.hopId, () => answerRoutedHop(key, adapter, hop, route, source));
  }

  /** A routed hop, its session's previous hop done: its app from its session, or routed by what was dialled. */
  async function answerRoutedHop(
    key: string,
    adapter: ChannelAdapter,
    hop: InboundHop,
    route: (dialled: string) => Promise<RouteDecision>,
    source: GatewaySource | undefined,
  ): Promise<FormattedReply | null> {
    if (hop.kind === 'end') return closeSession(key, undefined, hop.isEndedByUser);
    const stored = await deps.sessions.get(key);
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
    const loaded = environment === 'live' ? await ctx.versions.getLive(appId) : await ctx.versions.getDraft(appId);
    return answerHop({ appId, environment, caller: null, key, loaded, adapter, hop, lookedUp: { stored }, rest, source });
  }

  /**
   * A chat channel's message against its conversation's stored session (ChannelAdapter.conversation): the open
   * session goes on, or a new one starts under an id of its own; a restart word abandons the open one first.
   */
  function readConversation(hop: InboundHop, stored: StoredSession | undefined): { hop: InboundHop; stored: StoredSession | undefined } {
    const open = stored && !stored.state.ended ? stored : undefined;
    if (open && hop.kind !== 'start') return { hop: { ...hop, sessionId: open.state.sessionId }, stored: open };
    if (open) recordSession(open.state, 'abandoned', open.state.currentMenuId, open.caller ?? null);
    return { hop: { ...hop, kind: 'start', sessionId: randomUUID() }, stored: undefined };
  }

  async function handleMessage(
    appId: string,
    environment: Environment,
    message: ChatMessage,
    caller: string | null = null,
  ): Promise<ChatReply> {
    const loaded = environment === 'live' ? await ctx.versions.getLive(appId) : await ctx.versions.getDraft(appId);
    if ('missing' in loaded && loaded.missing === 'app') throw notFound('App not found');
    const { conversation, inbound, interactive } = message;
    const body = { conversation, from: inbound.from, text: inbound.text, kind: inbound.kind, messageId: inbound.messageId, interactive };
    const hop = whatsappAdapter.parseRequest({ method: 'POST', query: {}, body, contentType: 'application/json' });
    const key = sessionKey(appId, environment, whatsappAdapter.name, hop.sessionId, caller);
    const formatted = await hopTurns.take(key, hop.hopId, () =>
      answerHop({ appId, environment, caller, key, loaded, adapter: whatsappAdapter, hop }),
    );
    // The WhatsApp adapter always answers (it has no end notifications) with the JSON of a ChatReply.
    return JSON.parse(formatted?.body ?? '{"sessionId":"","end":true,"messages":[]}') as ChatReply;
  }

  /** One hop, its session's previous hop done (hop-turns.ts). */
  async function answerHop(request: HopRequest): Promise<FormattedReply | null> {
    const { appId, environment, caller, key, loaded, adapter } = request;
    let hop = request.hop;
    if (hop.kind === 'end') return closeSession(key, appId, hop.isEndedByUser);
    // A database writing slower than the traffic comes holds new hops until it catches up, rather than losing
    // their records: the hops of the accounts whose rows fill the buffer (event-sink.ts); null, nothing to wait
    // for, is the usual case.
    const ownerId = 'ownerId' in loaded ? loaded.ownerId : '';
    const behind = deps.sink.whenCaughtUp(ownerId);
    if (behind) await behind;

    // A gateway whose hop is read against its session (`resumeHop`), or that names its hops, needs the session
    // looked up even for what reads as a start.
    let stored = request.lookedUp
      ? request.lookedUp.stored
      : hop.kind === 'start' && !adapter.resumeHop && !adapter.conversation && hop.hopId === undefined
        ? undefined
        : await deps.sessions.get(key);
    // The gateway sent the last hop again (our answer was late): the same screen again, and nothing runs twice.
    if (hop.hopId !== undefined && stored?.lastHop && stored.lastHop.id === toStoredHopId(hop.hopId)) {
      ctx.log.debug({ appId, sessionId: hop.sessionId }, 'a resent hop answered with its stored reply');
      // A conversation's reply names the session it was given in, not the conversation.
      return adapter.formatReply(stored.lastHop.reply, adapter.conversation ? { ...hop, sessionId: stored.state.sessionId } : hop);
    }
    // A new session on the id of a finished one (kept only for resends) replaces it.
    if (hop.kind === 'start' && stored?.state.ended) stored = undefined;
    if (adapter.resumeHop) hop = adapter.resumeHop(hop, stored?.channelState);
    if (adapter.conversation) ({ hop, stored } = readConversation(hop, stored));
    if ('missing' in loaded) return adapter.formatReply({ text: NOT_DEPLOYED_TEXT, end: true }, hop);
    // A bot answers on WhatsApp only, and a USSD app on USSD URLs only.
    if ((loaded.compiled.app.channel === 'whatsapp') !== !!adapter.conversation) throw notFound('App not found');
    // Routed here by another code: the app reads what followed that code as if dialled after its own.
    const dialString = request.rest && hop.kind === 'start' ? extendDialOfApp(loaded.compiled.dial, request.rest) : hop.dialString;
    // A channel that is the network too (the emulator) never hands the app a session dialled on another code.
    if (adapter.network && hop.kind === 'start' && dialString !== undefined && !isDialOfApp(loaded.compiled.dial, dialString)) {
      recordRefusedDial(
        { appId, environment, caller, sessionId: hop.sessionId, dialString: dialString ?? '' },
        loaded.compiled.app.shortCode,
        adapter.network.unknownCodeText,
        ownerId,
      );
      return adapter.formatReply({ text: adapter.network.unknownCodeText, end: true }, hop);
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

    const isNewSession = !(stored && !stored.state.ended) && hop.kind !== 'continue';
    // Test URLs take any account's traffic for free: each hop of a draft is counted against its owner.
    if (environment === 'test' && request.rest === undefined && deps.admitTestHop && !loaded.isTemplate) {
      const refusal = await deps.admitTestHop(loaded.ownerId);
      if (refusal !== null) return adapter.formatReply({ text: refusal, end: true }, hop);
    }
    // The gateway limits come first: a session they refuse is never counted against the plan.
    if (isNewSession && deps.admitGatewaySession && request.source) {
      const refusal = await deps.admitGatewaySession({ appId, msisdn: engineHop.msisdn, source: request.source });
      if (refusal !== null) return adapter.formatReply({ text: refusal, end: true }, hop);
    }
    if (isNewSession && deps.admitLiveSession && !loaded.isTemplate && (environment === 'live' || request.rest !== undefined)) {
      const refusal = await deps.admitLiveSession(loaded.ownerId);
      if (refusal !== null) return adapter.formatReply({ text: refusal, end: true }, hop);
    }

    // Resume on redial (USSD apps that turned it on): the dialler's last session, saved after each of its hops.
    const resumeWindowMinutes = adapter.conversation ? null : loaded.resumeWindowMinutes;
    const diallerKey =
      resumeWindowMinutes !== null && engineHop.msisdn !== '' ? resumableKey(appId, environment, caller, engineHop.msisdn) : null;
    const saved = isNewSession && diallerKey ? await deps.sessions.takeResumable(diallerKey) : undefined;
    // The store keeps it for the window it was saved with; a window shortened since counts too.
    const dropped =
      saved && resumeWindowMinutes !== null && saved.state.lastHopAt + resumeWindowMinutes * 60_000 > now() ? saved : undefined;

    const engineDeps = getEngineDeps(loaded, appId, adapter);
    let result: HopResult;
    try {
      result =
        stored && !stored.state.ended
          ? await continueSession(loaded.compiled, stored.state, engineHop, engineDeps)
          : hop.kind === 'continue'
            ? await resumeLostSession(loaded.compiled, engineHop, engineDeps) // never replays: see resumeLostSession
            : dropped
              ? await offerResume(loaded.compiled, engineHop, dropped.state, engineDeps)
              : await startSession(loaded.compiled, engineHop, engineDeps);
    } catch (err) {
      // The engine turns authoring faults into screens; reaching here is our bug. Answer the gateway cleanly.
      ctx.log.error({ err, appId }, 'engine failed on a hop');
      await deps.sessions.delete(key, appId);
      return adapter.formatReply({ text: UNAVAILABLE_TEXT, end: true }, hop);
    }

    recordEvents(result.events, environment, caller, ownerId);
    recordInputs(stored?.state.inputs ?? {}, result.state, caller, ownerId);
    if (diallerKey && resumeWindowMinutes !== null) await saveResumable(diallerKey, result, resumeWindowMinutes, caller);
    const lastHop = hop.hopId === undefined ? undefined : { id: toStoredHopId(hop.hopId), reply: result.reply };
    const ttlSeconds = adapter.conversation?.timeoutSeconds ?? ussdTtlSeconds;
    if (result.reply.end) {
      if (lastHop)
        await deps.sessions.keep(
          key,
          { state: result.state, channelState: hop.channelState, caller, lastHop },
          { appId, ttlSeconds: ENDED_SESSION_KEEP_SECONDS },
        );
      else await deps.sessions.delete(key, appId);
      recordSession(result.state, 'completed', result.state.currentMenuId, caller, ownerId);
    } else {
      await deps.sessions.set(key, { state: result.state, channelState: hop.channelState, caller, lastHop }, { appId, ttlSeconds });
    }
    return adapter.formatReply(result.reply, hop);
  }

  /**
   * After a hop of an app with resume on redial: a session that ended is never offered back; one still open is
   * saved for its dialler for the window, counted from its last answer. While the offer is on screen the dropped
   * session stays saved (its own time left), so a drop on the offer loses nothing.
   */
  async function saveResumable(diallerKey: string, result: HopResult, windowMinutes: number, caller: string | null): Promise<void> {
    if (result.reply.end) return deps.sessions.deleteResumable(diallerKey);
    const state = result.state.resumeOffer?.from ?? result.state;
    const ttlSeconds = Math.ceil((state.lastHopAt + windowMinutes * 60_000 - now()) / 1000);
    if (ttlSeconds > 0) await deps.sessions.saveResumable(diallerKey, { state, caller }, ttlSeconds);
  }

  async function sweepExpired(): Promise<number> {
    const expired = await deps.sessions.takeExpired();
    for (const { state, caller } of expired) recordSession(state, 'abandoned', state.currentMenuId, caller ?? null);
    return expired.length;
  }

  const sweeper = setInterval(() => void sweepExpired().catch((err) => ctx.log.error({ err }, 'session sweep failed')), 5000);
  sweeper.unref();

  return {
    handleRequest,
    refuseHop(req, gateway, text) {
      if (!gateway && isSessionEndNotification(req)) return null;
      const adapter = detectGateway(req, gateway);
      return adapter.formatReply({ text, end: true }, adapter.parseRequest(req));
    },
    handleRoutedRequest,
    handleMessage,
    findActiveSessions: async (appId) => (await deps.sessions.findActive(appId)).map((s) => s.state),
    sweepExpired,
    flushEvents: () => deps.sink.flush(),
    getEventStats: () => deps.sink.stats(),
    async close() {
      clearInterval(sweeper);
      await ctx.versions.close();
      await deps.sink.close();
    },
  };
}
