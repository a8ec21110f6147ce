/**
 * The engine's contract with its caller (the runtime service, the emulator, tests). Everything here is
 * plain data except `EngineDeps`, which injects the clock, ids and the action runner.
 */
import type { Action, ActionKind } from '../shared/app';

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
}

export type EventLevel = 'system' | 'info' | 'debug' | 'error';

/** What happened during a hop; the caller turns events into logs, live view, debug data and billing. */
export interface EngineEvent {
  /** From the injected id generator, so a sink can store each event once. */
  id: string;
  /** snake_case, past tense: `session_started`, `menu_shown`, `action_failed`, ... */
  type: string;
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
  data?: Record<string, unknown>;
}

export interface Reply {
  text: string;
  /** True when the session is over (`END`); false to wait for input (`CON`). */
  end: boolean;
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
  /** `session.vars`: template-tag values and variables set by javascript actions. */
  vars: Record<string, unknown>;
  /** `actions.<actionName>`: the last result of each action. */
  actionResults: Record<string, unknown>;
  /** The current menu's rendered screen (all pages), as the user sees it. */
  screen: string;
  /** A line shown above the screen: a validation message or 'Invalid choice'. */
  notice: string;
  /** 0-based page of `notice + screen` on display. */
  page: number;
  hopCount: number;
  startedAt: number;
  lastHopAt: number;
  ended: boolean;
}

/** What the runner is asked to do. `scope` is the template scope of the moment. */
export interface ActionRequest {
  /** `action` for a menu action; `validation` for a javascript input validation. */
  purpose: 'action' | 'validation';
  kind: ActionKind;
  action: Action;
  menu: { uniqueId: string; identifier: string };
  scope: TemplateScope;
  /** Absolute time (injected clock) by which the runner must settle; past it, the hop is answered with END. */
  deadline: number;
  /** Renders a template string over `scope` (cached parse), for url, headers, payload and SMS fields. */
  renderTemplate: (source: string) => string;
}

export interface ActionLogLine {
  level: EventLevel;
  message: string;
}

/**
 * The runner's answer. `timedOut` marks a budget overrun (the hop ends with the unavailable text);
 * any other failure is reported and the session goes on with `actions.<name>` = `{ error }`.
 */
export type ActionOutcome =
  | { ok: true; result: unknown; logs?: ActionLogLine[] }
  | { ok: false; error: string; timedOut?: boolean; logs?: ActionLogLine[] };

export interface EngineLimits {
  /** A hop's whole budget. */
  hopBudgetMs: number;
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
}

export interface EngineDeps {
  now(): number;
  newId(): string;
  runAction(request: ActionRequest): Promise<ActionOutcome>;
  limits?: Partial<EngineLimits>;
}

export interface HopResult {
  state: SessionState;
  reply: Reply;
  events: EngineEvent[];
}

export interface TemplateScope {
  session: {
    sessionId: string;
    mobile: string;
    network: string;
    serviceCode: string;
    inputs: Record<string, string>;
    vars: Record<string, unknown>;
  };
  inRequest: { input: string };
  actions: Record<string, unknown>;
  app: { name: string; shortCode: string };
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
  /** A stable name for issues other tools read, e.g. 'unreachable'. */
  code?: 'unreachable';
}
