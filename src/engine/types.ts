/**
 * The engine's contract with its caller (the runtime service, the emulator, tests). Everything here is
 * plain data except `EngineDeps`, which injects the clock, ids and the action runner.
 */
import type { ActionOutcome, ActionRequest, ContactChanges, EventLevel } from '../shared/actions/runner';
import type { Action, ActionKind, InputValidation, MenuIssueCode, SwitchOperation } from '../shared/app';
import type { ContactCard, InputKind, LocationRef, MediaRef } from '../shared/media';

export type { ActionLogLine, ActionOutcome, ActionRequest, ContactChanges, EventLevel, TemplateScope } from '../shared/actions/runner';

/** One request from a channel adapter, gateway-neutral. */
export interface Hop {
  /** The gateway's session id. */
  sessionId: string;
  msisdn: string;
  network: string;
  /** The service code as the gateway reports it (e.g. `*920#`). */
  serviceCode: string;
  /** What the user typed on this hop; ignored when a session starts. */
  input: string;
  /**
   * On a new session: the whole string the user dialled (`*920*12*50#`), when the gateway gives it.
   * Its parts after the app's code become template-tag variables or deep-dial inputs.
   */
  dialString?: string;
  gateway?: string;
  /** `test` (draft) or `live` (deployed version); recorded in the state, not interpreted. */
  environment?: string;
  /**
   * The caller's contact, given by the runtime on a session's first hop (once a session: the state keeps it);
   * absent when the app reads no contact field.
   */
  contact?: ContactFields;
  /**
   * On a new session: the menu (`uniqueId`) it starts at instead of the first, when the app has it. A business
   * writing first to a WhatsApp contact (docs/bots.md, "Writing first") starts the flow there.
   */
  entryMenuId?: string;
  /**
   * A file the user sent on this hop (a bot's; docs/bots.md, "Media"), stored by the runtime before the hop: the
   * menu's input when it asks for a file of its kind. `input` is then ignored (the caption is `media.caption`).
   */
  media?: MediaRef;
  /** A location the user shared on this hop: the menu's input when it asks for a location. `input` is then ignored. */
  location?: LocationRef;
}

/** What a menu received instead of text: a file or a location (`session.media.<identifier>`). */
export type ReceivedMedia = MediaRef | LocationRef;

/**
 * One thing sent with a screen (a menu's `attachments`, rendered): WhatsApp shows each as its own message, before
 * the screen's text. A file by `url` has `mediaId: ''` (the runtime fetches or links it); an uploaded file named by
 * its id has `mimeType: ''` and `size: 0` (the runtime reads them from the store); a variable's file is its MediaRef.
 */
export type ReplyAttachment =
  | { type: 'media'; media: MediaRef }
  | { type: 'location'; location: LocationRef }
  | { type: 'contact'; contact: ContactCard };

/** The caller's contact as a session sees it (docs/contacts.md). A contact not stored yet has nulls and no attributes. */
export interface ContactFields {
  name: string | null;
  language: string | null;
  attributes: Record<string, string>;
}

/** Why a stored session was not continued but started over. `session_lost`: the runtime no longer had it. */
export type RestartReason = 'unreadable_state' | 'app_changed' | 'ended' | 'menu_missing' | 'session_lost';

/** Why a session ended: a fault, the hop's budget spent, a terminating menu or rule, a script's `{ end }`, a lost session, a handoff. */
export type EndReason = 'fault' | 'over_budget' | 'terminate_menu' | 'terminate_rule' | 'steered' | 'session_lost' | 'handoff';

/** The navigation rule an input matched (or that failed): its index in the menu, operator and compare value. */
export interface RuleData {
  rule: number;
  operator: SwitchOperation['operator'];
  compareVal: string;
}

/**
 * What each event type carries, by type: the compiler checks every emitter and every reader. `undefined`
 * marks a type without data; `| undefined` one whose data is optional.
 */
export interface EngineEventData {
  session_started: {
    msisdn: string;
    network: string;
    serviceCode: string;
    /** As dialled, when the gateway gave it (cut at 200 characters). */
    dialString?: string;
    /** Template-tag values read from the dial string. */
    vars: Record<string, string>;
    /** How many dialled parts are replayed as inputs. */
    deepDialInputs: number;
  };
  session_expired: { reason: 'timeout' };
  session_restarted: { reason: RestartReason };
  session_ended: { reason: EndReason; text: string };
  /** A closing text longer than the screen, cut. */
  screen_truncated: { length: number; limit: number };
  /** An authoring fault, a blown budget or a skipped rule; the data says where, when it concerns one field. */
  error_logged: { part: string; renderMs?: number } | { goto: string } | (RuleData & { target: string }) | undefined;
  menu_shown: { text: string; page: number; pages: number; notice?: string };
  /** `media`: the file or location the hop carried (its `input` is then ''). */
  input_received: { input: string; replayed?: true; truncated?: true; media?: ReceivedMedia };
  validation_failed: { index: number; method: InputValidation['validationMethod']; input: string };
  /** What arrived is not what the menu asks for: a file of another kind or type, too big, text, or a bad location. */
  media_refused: {
    expected: InputKind;
    received: InputKind;
    reason: 'kind' | 'type' | 'size' | 'location';
    mimeType?: string;
    size?: number;
  };
  /** An attachment that could not be sent (a variable naming no file, an address or place that renders wrong): skipped. */
  attachment_skipped: { index: number; reason: string };
  navigation_failed: { input: string };
  /** Without `to`: the rule ended the session. */
  navigated: RuleData & { to?: string; toId?: string };
  navigated_back: { to: string; toId: string };
  action_started: { purpose: ActionRequest['purpose']; actionType: Action['actionType'] };
  /** One line an action logged, at its level: the message is the line. */
  action_logged: undefined;
  action_finished: { result: unknown; elapsedMs: number };
  action_failed: { error: string; elapsedMs: number } | { elapsedMs: number; timedOut: true };
  /** A script's result ended the session or went to a menu. */
  session_steered: { end: string } | { goto: string; menuId: string };
  /** A rule handed the conversation to a person (docs/inbox.md): the runtime opens an inbox conversation. */
  handed_off: { reason: string };
  /** A rule entered a sub-flow (docs/sub-flows.md): its id, name and version, the inputs it passed, where it returns. */
  subflow_entered: { subflowId: string; name: string; version: number; inputs: string[]; returnTo: string; returnToId: string };
  /** A sub-flow's Return rule left it: the outputs it set (names; their values are session variables). */
  subflow_returned: { subflowId: string; name: string; version: number; outputs: string[] };
  /** Resume on redial: the dialler's dropped session was offered back (offerResume). */
  resume_offered: { fromSessionId: string };
  /** The dialler chose to continue: the dropped session's menu, inputs and variables are this session's now. */
  session_resumed: { fromSessionId: string };
  /** The dialler chose to start again: the dropped session is not offered again. */
  resume_declined: { fromSessionId: string };
}

export type EngineEventType = keyof EngineEventData;

/** What happened during a hop; the caller turns events into logs, live view, debug data and billing. */
interface EngineEventOf<T extends EngineEventType> {
  /** From the injected id generator, so a sink can store each event once. */
  id: string;
  /** snake_case, past tense. */
  type: T;
  level: EventLevel;
  /** From the injected clock (ms since epoch). */
  time: number;
  appId: string;
  sessionId: string;
  /** The menu's uniqueId and identifier, when the event concerns a menu. */
  menuId: string | null;
  menu: string | null;
  plugin: ActionKind | null;
  action: string | null;
  message: string;
  data: EngineEventData[T];
}

/**
 * One event, a union keyed by `type`: `if (e.type === 'action_finished') e.data.result` needs no cast.
 * `data` is absent (undefined) on a type without data.
 */
export type EngineEvent = { [T in EngineEventType]: EngineEventOf<T> }[EngineEventType];

export interface Reply {
  text: string;
  /** True when the session is over (`END`); false to wait for input (`CON`). */
  end: boolean;
  /**
   * The shown menu's input holder (a hint such as `e.g. 0241234567`), when the screen waits for input and the
   * menu has one. Plain text, not a template. Handsets have no place for it; the emulator's reply box shows it.
   */
  inputHolder?: string;
  /** Files, pins and contact cards to send before the screen: set when a menu with attachments is entered. */
  attachments?: ReplyAttachment[];
  /** A button under the screen that opens `url` (the menu's linkButton, rendered). */
  linkButton?: { text: string; url: string };
  /** The screen asks the user to share their location (the menu's requestLocation). */
  requestLocation?: true;
}

/**
 * A session as JSON: the caller keeps it in memory or Redis between hops, keyed by gateway session id.
 * Only the engine writes it; `version` guards against reading a state written by an incompatible engine.
 */
export interface SessionState {
  version: 1;
  appId: string;
  environment: string;
  versionId: string;
  gateway: string;
  sessionId: string;
  msisdn: string;
  network: string;
  serviceCode: string;
  /** uniqueId of the menu on screen, null before the first menu is entered. */
  currentMenuId: string | null;
  /** uniqueIds of the menus behind the current one, most recent last (for Back). */
  history: string[];
  /** `session.inputs`: `<identifier>` and `<identifier>Label`. */
  inputs: Record<string, string>;
  /**
   * `session.media`: by menu identifier, the file (MediaRef) or location (LocationRef) a bot's menu received; its
   * `session.inputs` entry holds the media id, or `latitude,longitude`. Absent while none arrived.
   */
  media?: Record<string, ReceivedMedia>;
  /** `session.vars`: template-tag values and variables set by javascript actions. */
  vars: Record<string, unknown>;
  /** `actions.<actionName>`: the last result of each action. */
  actionResults: Record<string, unknown>;
  /** The current menu's rendered screen (all pages), as the user sees it. */
  screen: string;
  /** The current menu's link button (a bot's), rendered on entering it and shown with each of its screens. */
  linkButton?: { text: string; url: string };
  /** A line shown above the screen: a validation message or 'Invalid choice'. */
  notice: string;
  /** 0-based page of `notice + screen` on display. */
  page: number;
  hopCount: number;
  /**
   * `session.language`: the language the session is shown in, set by a rule's `setLanguage` or, at the start, from
   * the dialler's calling code (docs/languages.md). Absent: the app's default language.
   */
  language?: string;
  startedAt: number;
  lastHopAt: number;
  ended: boolean;
  /**
   * Set while the resume offer is on screen (offerResume): the dropped session it would restore, and what was
   * dialled this time, for a fresh start. Gone once the dialler answers.
   */
  resumeOffer?: ResumeOffer;
  /** The caller's contact, as loaded on the session's first hop and changed by its inputs since (Hop.contact). */
  contact?: ContactFields;
  /** While the session is inside a sub-flow (docs/sub-flows.md): where it entered and returns to. Absent outside. */
  frames?: SubflowFrame[];
}

/** A sub-flow the session is in: which, the menu that entered it, the menu it returns to, the Back history's length then. */
export interface SubflowFrame {
  subflowId: string;
  from: string;
  returnTo: string;
  historyLength: number;
}

/** What a session showing the resume offer keeps until the dialler answers it. */
export interface ResumeOffer {
  from: SessionState;
  dialString?: string;
}

export interface EngineLimits {
  /** A hop's whole budget. */
  hopBudgetMs: number;
  /**
   * The screen limit the hop's screens page and cut at, when the runtime runs the session under its gateway's
   * (shared/gateway-profiles.ts); left out, the compiled app's.
   */
  screenLimit?: number;
  /** One action's budget (capped by what is left of the hop's). */
  actionBudgetMs: number;
  /** Inactivity after which a stored state is stale and the session starts over. */
  sessionTimeoutMs: number;
  /** Menus entered in one hop without user input (goto chains, steering, deep dial). */
  maxMenuEntriesPerHop: number;
  /** Characters of an input kept; the rest is cut. */
  maxInputLength: number;
  /** Deep-dial inputs replayed from one dial string. */
  maxDeepDialInputs: number;
  /** Depth of the Back history. */
  maxHistory: number;
  /**
   * Milliseconds of Liquid rendering one hop may use, all its templates together (screens, closing texts,
   * action fields); one render past it stops and the hop ends with the unavailable text.
   */
  renderBudgetMs: number;
}

/**
 * Time spent rendering templates through Liquid on the caller's thread. The runtime gives each account
 * one (its share of the thread); the engine keeps one per hop within `renderBudgetMs`.
 */
export interface RenderTimeAccount {
  /** A monotonic clock in ms, fine enough to time one render (performance.now). */
  now(): number;
  /** Milliseconds of rendering allowed now; 0 or less refuses the render. */
  getAvailableMs(): number;
  /** Records milliseconds spent rendering. */
  spend(ms: number): void;
}

export interface EngineDeps {
  now(): number;
  newId(): string;
  runAction(request: ActionRequest): Promise<ActionOutcome>;
  limits?: Partial<EngineLimits>;
  /** The tenant's share of render time; without it a hop still has `limits.renderBudgetMs`, timed with `now`. */
  renderTime?: RenderTimeAccount;
}

export interface HopResult {
  state: SessionState;
  reply: Reply;
  events: EngineEvent[];
  /** Set when the hop changed the caller's contact: what the runtime writes with the session's records. */
  contactChanges?: ContactChanges;
  /** Set when a rule handed the conversation to a person (docs/inbox.md): the runtime opens the inbox conversation. */
  handoff?: { reason: string; whatsappBotId?: string };
}

export type LintLevel = 'error' | 'warning';

/** One pre-deploy finding; errors block a deploy, warnings are shown. */
export interface LintIssue {
  level: LintLevel;
  /** The menu's uniqueId and identifier; null for app-wide issues. */
  menuId: string | null;
  menu: string | null;
  /** Path in the menu, as in validateMenu (`actions.0.code`), when it concerns one field. */
  field?: string;
  message: string;
  /** A stable name for issues other tools mark (the flow map, the designer's cards): see MenuIssueCode. */
  code?:
    | 'unreachable'
    | 'duplicate_rule'
    | 'no_exit'
    | 'over_length'
    | 'missing_translation'
    | 'unknown_variable'
    | 'media_on_ussd'
    | MenuIssueCode;
}
