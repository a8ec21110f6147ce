import {
  getChannelAdapter,
  readChatMessage,
  readGatewayRequest,
  toChatReply,
  type FormattedReply,
  type GatewayRequest,
} from '../../../channels';
import { UNAVAILABLE_TEXT, type SessionState } from '../../../engine';
import { AppError } from '../../../shared/errors';
import { toConversation, toSentenceReply, type ChatMessage, type ChatReply } from '../../../shared/whatsapp';
import { toE164 } from '../../core/msisdn';
import type { AppContext } from '../../context';
import type { whatsappMessages } from '../../../db/schema';
import type { EventSinkStats } from './event-sink';
import type { AdmissionStats } from './hop-admission';
import type { GatewaySource } from '../../core/gateway-access';
import { answerConsentKeyword } from './consent-steps';
import { answerHandoffKeyword, holdForAgents, openForAgents, toHandoffTarget, toHandoffText } from './handoff-steps';
import type { ChatHandoffs } from '../../core/inbox-handoffs';
import type { RuntimeMetrics } from '../../core/metrics';
import { createHopEnv } from './hop-env';
import { answerHop, answerRoutedHop, getVersion, routedSessionKey, runHop, sessionKey } from './hop-steps';
import { createHopTurns } from './hop-turns';
import { answerInTime } from './hop-deadline';

export type { Environment, RouteDecision, RuntimeDeps, StoredSession } from './runtime-types';
import type { Environment, RouteDecision, RuntimeDeps } from './runtime-types';

/** The bot a WhatsApp message goes to, found inside its conversation's turn. */
export interface ChatBot {
  appId: string;
  environment: Environment;
  /** True when the connector can show lists and buttons; otherwise every screen is numbered text. */
  interactive: boolean;
  /** The console's chat simulator: whom the session belongs to (emulator-caller.ts). */
  caller?: string | null;
  /**
   * The business wrote first with a template (docs/bots.md, "Writing first"): a new session starts at this menu
   * instead of the first.
   */
  entryMenuId?: string;
}

/** How one WhatsApp message is answered, both parts run inside its conversation's turn. */
export interface ChatDelivery {
  /** The bot it goes to; a sentence answers it without running a bot (an inactive bot, a picture); null drops it. */
  findBot(message: ChatMessage): Promise<ChatBot | string | null>;
  /**
   * Sends the reply (a connector's `send`), so a conversation's replies leave in the order its messages came; what
   * it resolves with (the provider's ids) is the caller's to record.
   */
  send?(reply: ChatReply): Promise<unknown>;
  /**
   * A linked number's message (not the console's chat simulator): a message that reaches a bot opens the user's
   * 24-hour window with that number (core/whatsapp-windows.ts), written with the session's records.
   */
  opensWindow?: boolean;
  /**
   * A linked number's message: the inbox (docs/inbox.md). A conversation open with the agents takes the message
   * instead of the bot; a handoff word or a rule's handoff opens one.
   */
  handoffs?: ChatHandoffs;
}

/** A business writing first to a user of a linked number (docs/bots.md, "Writing first"), inside the window. */
export interface ChatStart {
  bot: ChatBot & { entryMenuId: string };
  linkId: string;
  /** The user's number, digits only (as a message's `from`). */
  to: string;
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
   * `version` (emulator only) runs that deployed version on test instead of the draft, in sessions of its own.
   */
  handleRequest(
    appId: string,
    environment: Environment,
    req: GatewayRequest,
    gateway?: string,
    caller?: string | null,
    authorize?: AuthorizeGatewayRequest,
    version?: number,
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
   * One WhatsApp message (features/bots' connectors, and the console's chat simulator): the conversation's turn is
   * taken at once, so its messages are answered one at a time in the order handed over; inside it the bot is found,
   * the hop runs its steps (runHop) and the reply is sent. Null: the message was dropped (`findBot`), or was a
   * consent keyword that changed nothing (a second STOP), which is not answered again.
   */
  handleMessage(message: ChatMessage, delivery: ChatDelivery): Promise<ChatReply | null>;
  /**
   * A business writing first inside the window: in the conversation's turn, a new session of the bot starts at the
   * entry menu as if the user had written (an open one is abandoned, as a restart word does) and its screen is sent;
   * the user's reply continues it. Rejects with the connector's error when the send is refused.
   */
  startConversation(start: ChatStart, send: (reply: ChatReply) => Promise<unknown>): Promise<ChatReply>;
  /**
   * The gateway's end screen with `text`, for a hop that may not run (one our own action or webhook sent): the
   * request is read as any hop is, nothing is stored or recorded.
   */
  refuseHop(req: GatewayRequest, gateway: string | undefined, text: string): FormattedReply;
  findActiveSessions(appId: string): Promise<SessionState[]>;
  /** Records sessions that timed out as abandoned; runs on a timer, callable from tests. */
  sweepExpired(): Promise<number>;
  /** Writes buffered events now (tests, and the logs screens' "refresh"). */
  flushEvents(): Promise<void>;
  /** Records messages a bot sent on WhatsApp through the event sink (features/bots/whatsapp-messages.ts): never waits. */
  recordSentMessages(rows: (typeof whatsappMessages.$inferInsert)[], ownerId: string): void;
  getEventStats(): EventSinkStats;
  /** Hops running and waiting for their account's turn (hop-admission.ts). */
  getAdmissionStats(): AdmissionStats;
  close(): Promise<void>;
}

export function createRuntime(ctx: AppContext, deps: RuntimeDeps): Runtime {
  const whatsappAdapter = getChannelAdapter('whatsapp');
  const env = createHopEnv(ctx, deps, whatsappAdapter.conversation?.timeoutSeconds ?? deps.sessionTimeoutSeconds ?? 180);
  // The hops of one session take turns; a resent hop that is still running shares its reply.
  const hopTurns = createHopTurns<FormattedReply | null>();
  // A conversation's messages take turns the same way, keyed by the conversation. A connector hands messages over
  // without waiting for their replies (Meta wants its 200 at once), so a burst is queued rather than refused.
  const chatTurns = createHopTurns<ChatReply | null>(Number.POSITIVE_INFINITY);
  const answerUnavailable = createUnavailableAnswer(ctx, deps.metrics);

  async function handleRequest(
    appId: string,
    environment: Environment,
    req: GatewayRequest,
    gateway?: string,
    caller: string | null = null,
    authorize?: AuthorizeGatewayRequest,
    version?: number,
  ): Promise<FormattedReply | null> {
    const startedAt = performance.now();
    try {
      const source = authorize ? await authorize() : undefined;
      // The version first: an app that does not exist is 404, whatever the request.
      const loaded = await getVersion(ctx, appId, environment, version);
      const { adapter, hop } = readGatewayRequest(req, gateway);
      // A version's sessions are its own: one started on the draft never continues on version 3, nor the reverse.
      const key = sessionKey(appId, environment, adapter.name, hop.sessionId, caller) + (version ? `#v${version}` : '');
      const late = { isLate: false };
      const answer = hopTurns.take(key, hop.hopId, () =>
        answerHop(env, { appId, environment, caller, key, loaded, adapter, hop, source, startedAt, late }),
      );
      return await answerInTime(env, { appId, environment, caller, loaded, adapter, hop, startedAt, late }, answer);
    } catch (err) {
      return answerUnavailable(err, req, gateway, appId, environment);
    }
  }

  async function handleRoutedRequest(
    routeKey: string,
    req: GatewayRequest,
    gateway: string | undefined,
    route: (dialled: string) => Promise<RouteDecision>,
    authorize?: AuthorizeGatewayRequest,
  ): Promise<FormattedReply | null> {
    const startedAt = performance.now();
    try {
      const source = authorize ? await authorize() : undefined;
      const { adapter, hop } = readGatewayRequest(req, gateway);
      const key = routedSessionKey(routeKey, adapter.name, hop.sessionId);
      const late = { isLate: false };
      const answer = hopTurns.take(key, hop.hopId, () => answerRoutedHop(env, { key, adapter, hop, source, startedAt, late }, route));
      // The app is not known until the hop is routed: the gateway's own profile applies, and the server's log.
      const timed = { appId: undefined, environment: undefined, caller: null, loaded: undefined, adapter, hop, startedAt, late };
      return await answerInTime(env, timed, answer);
    } catch (err) {
      return answerUnavailable(err, req, gateway, undefined, 'routed');
    }
  }

  function handleMessage(message: ChatMessage, delivery: ChatDelivery): Promise<ChatReply | null> {
    return chatTurns.take(message.conversation, message.messageId || undefined, async () => {
      const bot = await delivery.findBot(message);
      if (bot === null) return null;
      if (delivery.opensWindow) recordWindow(message);
      const reply =
        typeof bot === 'string' ? toSentenceReply(message, bot) : await answerChatMessage(bot, message, undefined, delivery.handoffs);
      if (reply && delivery.send) await delivery.send(reply);
      return reply;
    });
  }

  /** The user's message opens their 24-hour window with the linked number (E.164, as contacts are kept). */
  function recordWindow(message: ChatMessage): void {
    const msisdn = toE164(`+${message.from}`);
    if (msisdn === null) return;
    const at = new Date(message.sentAt ?? message.receivedAt).toISOString();
    env.records.recordWindow({ linkId: message.linkId, msisdn, at });
  }

  function startConversation(start: ChatStart, send: (reply: ChatReply) => Promise<unknown>): Promise<ChatReply> {
    const { bot, linkId, to } = start;
    const conversation = toConversation(linkId, to);
    const message: ChatMessage = { linkId, conversation, messageId: '', from: to, text: '', kind: 'text', receivedAt: ctx.now().getTime() };
    return chatTurns
      .take(conversation, undefined, async () => {
        const reply = await answerChatMessage(bot, message, 'start');
        // An empty message is no consent keyword: a start always has its menu.
        if (!reply) throw new Error('a conversation start was read as a consent keyword');
        await send(reply);
        return reply;
      })
      .then((reply) => reply!);
  }

  /**
   * A chat message's hop: the bot's version, a consent keyword answered without the bot (null: already so, no
   * answer), else the conversation's session, the steps, and the reply as WhatsApp messages. `start`: a new session
   * whatever is open (a business writing first).
   */
  async function answerChatMessage(bot: ChatBot, message: ChatMessage, kind?: 'start', handoffs?: ChatHandoffs): Promise<ChatReply | null> {
    const startedAt = performance.now();
    const { appId, environment, caller = null, entryMenuId } = bot;
    const loaded = await getVersion(ctx, appId, environment);
    const keyword = await answerConsentKeyword(env, loaded, message);
    if (keyword) return keyword.text === null ? null : toSentenceReply(message, keyword.text);
    const key = sessionKey(appId, environment, whatsappAdapter.name, message.conversation, caller);
    // The inbox (docs/inbox.md): an open conversation takes the message; a handoff word opens one.
    const target = handoffs ? toHandoffTarget(loaded, appId, message) : null;
    if (handoffs && target) {
      const held = await holdForAgents(env, handoffs, target, message);
      if (held === '') return null;
      if (held !== undefined) return toSentenceReply(message, held);
      const handedOver = await answerHandoffKeyword(env, handoffs, loaded, target, key, message);
      if (handedOver !== undefined) return toSentenceReply(message, handedOver);
    }
    const hop = readChatMessage(message);
    if (kind) hop.kind = kind;
    if (entryMenuId !== undefined) hop.entryMenuId = entryMenuId;
    const answered = await runHop(env, { appId, environment, caller, key, loaded, adapter: whatsappAdapter, hop, startedAt });
    // Only a gateway's end notice has no screen; a chat message always has one.
    if (!answered) throw new Error('a WhatsApp message was read as an end hop');
    // Opened before the screen goes: the customer's next message, in the next turn, reaches the agents.
    if (answered.handoff && handoffs && target) {
      const { reason, inputs, language } = answered.handoff;
      const text = await openForAgents(env, handoffs, {
        ...target,
        reason,
        inputs,
        customerText: message.kind === 'text' ? message.text : '',
        inbound: true,
        botText: toHandoffText(env, loaded, 'whatsapp', language, answered.reply.text),
      });
      return toChatReply(message, { ...answered.reply, text }, answered.hop.sessionId, bot);
    }
    return toChatReply(message, answered.reply, answered.hop.sessionId, bot);
  }

  async function sweepExpired(): Promise<number> {
    const expired = await deps.sessions.takeExpired();
    for (const stored of expired) env.records.recordAbandoned(stored, { cause: 'timed_out' });
    return expired.length;
  }

  const sweeper = setInterval(() => void sweepExpired().catch((err) => ctx.log.error({ err }, 'session sweep failed')), 5000);
  sweeper.unref();

  return {
    handleRequest,
    refuseHop(req, gateway, text) {
      const { adapter, hop } = readGatewayRequest(req, gateway);
      return adapter.formatReply({ text, end: true }, hop);
    },
    handleRoutedRequest,
    handleMessage,
    startConversation,
    findActiveSessions: async (appId) => (await deps.sessions.findActive(appId)).map((s) => s.state),
    sweepExpired,
    flushEvents: () => deps.sink.flush(),
    recordSentMessages(rows, ownerId) {
      for (const row of rows) deps.sink.push({ table: 'whatsappMessages', row }, ownerId);
    },
    getEventStats: () => deps.sink.stats(),
    getAdmissionStats: () => env.admission.stats(),
    async close() {
      clearInterval(sweeper);
      env.admission.close();
      await ctx.versions.close();
      // Sessions held in this process end with it, unrecorded as before; the contact records they kept are written.
      for (const stored of await deps.sessions.findLostOnExit())
        if (stored.pendingContact) env.records.recordContact(stored.pendingContact.record);
      await deps.sink.close();
    },
  };
}

/**
 * A hop that failed on what the runtime stands on (the session store: Redis down or failing over; the database:
 * an app's version or its owner's plan unreadable) ends on the gateway's own end screen, as an action past its
 * budget does, with HTTP 200: a 500 shows the handset a network error. Errors thrown on purpose (an unknown app,
 * a request no gateway sends) keep their status. During an outage every hop fails the same way: one log line a
 * second says so, with how many it stands for.
 */
function createUnavailableAnswer(ctx: AppContext, metrics: RuntimeMetrics | undefined) {
  let loggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (
    err: unknown,
    req: GatewayRequest,
    gateway: string | undefined,
    appId: string | undefined,
    environment: string,
  ): FormattedReply => {
    if (err instanceof AppError) throw err;
    unlogged++;
    if (performance.now() - loggedAt >= 1000) {
      ctx.log.error(
        { err, appId, hops: unlogged },
        'hops failed on the session store or the database; the gateway got the unavailable screen',
      );
      loggedAt = performance.now();
      unlogged = 0;
    }
    const { adapter, hop } = readGatewayRequest(req, gateway);
    metrics?.countHop(adapter.name, environment, 'unavailable');
    return adapter.formatReply({ text: UNAVAILABLE_TEXT, end: true }, hop);
  };
}
