import { randomUUID } from 'node:crypto';
import {
  detectGateway,
  isSessionEndNotification,
  parseSessionEndNotification,
  sessionEndHop,
  type FormattedReply,
  type GatewayRequest,
} from '../../../channels';
import {
  continueSession,
  startSession,
  UNAVAILABLE_TEXT,
  type ActionOutcome,
  type ActionRequest,
  type EngineDeps,
  type EngineEvent,
  type Hop,
  type HopResult,
  type SessionState,
} from '../../../engine';
import { notFound } from '../../../shared/errors';
import type { AppContext } from '../../context';
import type { EventSink, EventSinkStats } from './event-sink';
import type { SessionStore } from './session-store';
import type { VersionCache } from './version-cache';

export type Environment = 'test' | 'live';

/** What the store keeps per session: the engine's state, plus the cumulative path for Africa's Talking. */
export interface StoredSession {
  state: SessionState;
  path?: string;
}

export interface RuntimeDeps {
  sessions: SessionStore<StoredSession>;
  versions: VersionCache;
  sink: EventSink;
  /** Runs one action for an app; `owner` is whose outbox, transactions and custom functions it uses. */
  runAction: (request: ActionRequest, app: { appId: string; ownerId: string }) => Promise<ActionOutcome>;
  /** Inactivity after which a session is over (DESIGN.md: 180 s). */
  sessionTimeoutSeconds?: number;
}

export interface Runtime {
  /** One gateway request to `/ussd/{appId}/{test|live}` or the emulator; null means "answer an empty 200". */
  handleRequest(appId: string, environment: Environment, req: GatewayRequest, gateway?: string): Promise<FormattedReply | null>;
  findActiveSessions(appId: string): Promise<SessionState[]>;
  /** Records sessions that timed out as abandoned; runs on a timer, callable from tests. */
  sweepExpired(): Promise<number>;
  /** Writes buffered events now (tests, and the logs screens' "refresh"). */
  flushEvents(): Promise<void>;
  getEventStats(): EventSinkStats;
  close(): Promise<void>;
}

const sessionKey = (appId: string, environment: Environment, gateway: string, sessionId: string) => `${appId}:${environment}:${gateway}:${sessionId}`;

const NOT_DEPLOYED_TEXT = 'This service is not available yet. Please try again later.';

export function createRuntime(ctx: AppContext, deps: RuntimeDeps): Runtime {
  const ttlSeconds = deps.sessionTimeoutSeconds ?? 180;
  // Event ids only need to be unique (they are never stored): a random process prefix and a counter cost
  // far less than a UUID per event. They also name a session whose gateway sent no id.
  const idPrefix = randomUUID().slice(0, 8);
  let idCounter = 0;
  const newId = () => `${idPrefix}-${(++idCounter).toString(36)}`;
  const baseDeps = { now: () => ctx.now().getTime(), newId, limits: { sessionTimeoutMs: ttlSeconds * 1000 } };

  function recordEvents(events: EngineEvent[], environment: Environment): void {
    for (const e of events) {
      deps.sink.push({
        table: 'logs',
        row: {
          appId: e.appId,
          sessionId: e.sessionId,
          environment,
          level: e.level,
          type: e.type,
          menuId: e.menuId,
          menu: e.menu,
          plugin: e.plugin,
          action: e.action,
          message: e.message,
          data: e.data ?? null,
          createdAt: new Date(e.time),
        },
      });
      if ((e.type === 'action_finished' || e.type === 'action_failed') && e.action) {
        deps.sink.push({
          table: 'actionResults',
          row: {
            appId: e.appId,
            sessionId: e.sessionId,
            actionName: e.action,
            menuName: e.menu ?? '',
            plugin: e.plugin ?? '',
            result: e.type === 'action_finished' ? (e.data?.result ?? null) : { error: e.message },
            isOk: e.type === 'action_finished' ? 1 : 0,
            durationMs: typeof e.data?.elapsedMs === 'number' ? Math.round(e.data.elapsedMs) : null,
            createdAt: new Date(e.time),
          },
        });
      }
    }
  }

  /** Inputs the hop stored (`session.inputs` entries that are new or changed): the debugger's User Inputs. */
  function recordInputs(before: Record<string, string>, after: SessionState): void {
    for (const [fieldName, fieldValue] of Object.entries(after.inputs)) {
      if (before[fieldName] === fieldValue) continue;
      deps.sink.push({ table: 'inputs', row: { appId: after.appId, sessionId: after.sessionId, fieldName, fieldValue, createdAt: new Date(after.lastHopAt) } });
    }
  }

  function recordSession(state: SessionState, status: 'completed' | 'abandoned', lastMenu: string | null): void {
    deps.sink.push({
      table: 'sessions',
      row: {
        appId: state.appId,
        sessionId: state.sessionId,
        environment: state.environment,
        gateway: state.gateway,
        mobile: state.msisdn,
        network: state.network,
        serviceCode: state.serviceCode,
        status,
        lastMenu,
        inputs: state.inputs,
        hopCount: state.hopCount,
        startedAt: new Date(state.startedAt),
        endedAt: ctx.now(),
      },
    });
  }

  /** The engine's dependencies for one loaded app (version or draft), made once rather than on every hop. */
  const depsByApp = new WeakMap<object, EngineDeps>();
  function getEngineDeps(loaded: { ownerId: string }, appId: string): EngineDeps {
    let engineDeps = depsByApp.get(loaded);
    if (!engineDeps) {
      const appRef = { appId, ownerId: loaded.ownerId };
      engineDeps = { ...baseDeps, runAction: (request) => deps.runAction(request, appRef) };
      depsByApp.set(loaded, engineDeps);
    }
    return engineDeps;
  }

  /** The gateway ended the session (released, timed out): it is abandoned where it stood. */
  async function closeSession(key: string, appId: string): Promise<null> {
    const stored = await deps.sessions.get(key);
    if (stored) {
      await deps.sessions.delete(key, appId);
      recordSession(stored.state, 'abandoned', stored.state.currentMenuId);
    }
    return null;
  }

  async function handleRequest(appId: string, environment: Environment, req: GatewayRequest, gateway?: string): Promise<FormattedReply | null> {
    const loaded = environment === 'live' ? await deps.versions.getLive(appId) : await deps.versions.getDraft(appId);
    if ('missing' in loaded && loaded.missing === 'app') throw notFound('App not found');

    if (!gateway && isSessionEndNotification(req)) {
      const hop = sessionEndHop(parseSessionEndNotification(req));
      return closeSession(sessionKey(appId, environment, hop.gateway, hop.sessionId), appId);
    }

    const adapter = detectGateway(req, gateway);
    let hop = adapter.parseRequest(req);
    const key = sessionKey(appId, environment, adapter.name, hop.sessionId);
    if (hop.kind === 'end') return closeSession(key, appId);

    // Cumulative gateways (Africa's Talking) cannot tell a new session from the request alone: the stored
    // path decides, so their session is always looked up and the request read again against it.
    const isCumulative = hop.path !== undefined;
    const stored = hop.kind === 'start' && !isCumulative ? undefined : await deps.sessions.get(key);
    if (isCumulative) hop = adapter.resumePath ? adapter.resumePath(hop, stored?.path) : adapter.parseRequest(req, stored?.path);
    if ('missing' in loaded) return adapter.formatReply({ text: NOT_DEPLOYED_TEXT, end: true }, hop);

    const engineHop: Hop = {
      sessionId: hop.sessionId,
      msisdn: hop.msisdn || stored?.state.msisdn || '',
      network: hop.network || stored?.state.network || '',
      serviceCode: hop.serviceCode || stored?.state.serviceCode || '',
      input: hop.input,
      dialString: hop.dialString,
      gateway: adapter.name,
      environment,
    };

    const engineDeps = getEngineDeps(loaded, appId);
    let result: HopResult;
    try {
      result = stored && !stored.state.ended
        ? await continueSession(loaded.compiled, stored.state, engineHop, engineDeps)
        : await startSession(loaded.compiled, engineHop, engineDeps);
    } catch (err) {
      // The engine turns authoring faults into screens; reaching here is our bug. Answer the gateway cleanly.
      ctx.log.error({ err, appId }, 'engine failed on a hop');
      await deps.sessions.delete(key, appId);
      return adapter.formatReply({ text: UNAVAILABLE_TEXT, end: true }, hop);
    }

    recordEvents(result.events, environment);
    recordInputs(stored?.state.inputs ?? {}, result.state);
    if (result.reply.end) {
      await deps.sessions.delete(key, appId);
      recordSession(result.state, 'completed', result.state.currentMenuId);
    } else {
      await deps.sessions.set(key, { state: result.state, path: hop.path }, { appId, ttlSeconds });
    }
    return adapter.formatReply(result.reply, hop);
  }

  async function sweepExpired(): Promise<number> {
    const expired = await deps.sessions.takeExpired();
    for (const { state } of expired) recordSession(state, 'abandoned', state.currentMenuId);
    return expired.length;
  }

  const sweeper = setInterval(() => void sweepExpired().catch((err) => ctx.log.error({ err }, 'session sweep failed')), 5000);
  sweeper.unref();

  return {
    handleRequest,
    findActiveSessions: async (appId) => (await deps.sessions.findActive(appId)).map((s) => s.state),
    sweepExpired,
    flushEvents: () => deps.sink.flush(),
    getEventStats: () => deps.sink.stats(),
    async close() {
      clearInterval(sweeper);
      await deps.versions.close();
      await deps.sink.close();
    },
  };
}
