/**
 * The runtime's own types, apart from runtime.service.ts so that the hop's steps (hop-steps.ts, hop-env.ts) and
 * the service that wires them import these and not each other.
 */
import type { Reply } from '../../../channels';
import type { ActionOutcome, ActionRequest, ContactFields, SessionState } from '../../../engine';
import type { ContactRecord } from '../../core/contact-records';
import type { ChatHandoffs } from '../../core/inbox-handoffs';
import type { ActionApp } from './action-runner';
import type { EventSink } from './event-sink';
import type { HopTimings } from './session-records';
import type { RuntimeMetrics } from '../../core/metrics';
import type { AdmitGatewaySession } from './gateway-limits';
import type { SessionStore } from './session-store';
import type { Environment } from '../../../shared/environment';

export type { Environment };

/** What the store keeps per session: the engine's state, and what the channel and the runtime need of it. */
export interface StoredSession {
  state: SessionState;
  /** What the gateway's adapter kept from the last hop to read the next one (`InboundHop.channelState`). */
  channelState?: string;
  /**
   * The last hop of a gateway that names its hops (`InboundHop.hopId`) and the reply it got: the same hop
   * sent again is answered with that reply. `id` as `toStoredHopId` keeps it.
   */
  lastHop?: { id: string; reply: Reply };
  /** The emulator caller the session belongs to (emulator-caller.ts), kept so its abandoned record is marked too. */
  caller?: string | null;
  /** The caller's contact: the number in E.164 form (docs/contacts.md), worked out on the session's first hop. */
  contactMsisdn?: string;
  /** What the session leaves on its contact and has not written yet (contact-steps.ts, `recordContact`). */
  pendingContact?: PendingContact;
  /** Its hops' times so far, for its record (session-records.ts). */
  timings?: HopTimings;
}

/**
 * A session's contact record not written yet (docs/contacts.md, "Written once a session"): the seen on its first
 * hop and the changes of its later hops folded into one, and when it began (ms), so a long conversation writes it
 * before it ends.
 */
export interface PendingContact {
  since: number;
  record: ContactRecord;
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
  /**
   * The caller's contact (core/contact-records.ts), read once a session for an app that reads contact fields;
   * null when the account has none for the number yet. Without it, no contact is read.
   */
  readContact?: (ownerId: string, msisdn: string) => Promise<ContactFields | null>;
  /**
   * The inbox (docs/inbox.md): a USSD rule's handoff opens a callback request through it. Without it, the caller
   * gets the rule's screen and nothing opens. WhatsApp messages carry their own (ChatDelivery.handoffs).
   */
  handoffs?: ChatHandoffs;
  /** The process's metrics (core/metrics.ts): hops, their time and why sessions ended. Without it, nothing is counted. */
  metrics?: RuntimeMetrics;
}

/**
 * Where a routed hop goes (a shared shortcode's traffic: one gateway URL for many apps, features/shortcodes): the
 * app and environment the dialled string reaches, with the parts dialled after the code that matched (template-tag
 * values or deep-dial input for the app); or the sentence that ends the session when it reaches none.
 */
export type RouteDecision = { appId: string; environment: Environment; rest: string[] } | { refusal: string };
