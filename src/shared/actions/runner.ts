/**
 * The action runner contract, in one place: the engine asks for an action with an `ActionRequest`, the server
 * adapts it to an `ActionInput` (adding whose app it runs for) and hands it to the runner registered for its
 * kind (`ActionRunner`), which answers an `ActionOutcome`. The engine, the runners and the server import it
 * from here.
 */
import type { Action, ActionKind, ActionOf } from '../app';
import type { ConsentChannel } from '../contact-consent';
import type { LocationRef, MediaRef } from '../media';

/** The level of an engine event, and of an action's log line (each line becomes an event at its level). */
export type EventLevel = 'system' | 'info' | 'debug' | 'error';

/** What a template (and a running action) may read at the moment: plain JSON. */
export interface TemplateScope {
  session: {
    sessionId: string;
    mobile: string;
    network: string;
    serviceCode: string;
    /** The session's language code (docs/languages.md); '' for an app without languages. */
    language: string;
    inputs: Record<string, string>;
    /** By menu identifier, the file or location a bot's menu received (docs/bots.md, "Media"). */
    media?: Record<string, MediaRef | LocationRef>;
    vars: Record<string, unknown>;
  };
  /** `media`: the file or location being handled, when the hop carries one. */
  inRequest: { input: string; media?: MediaRef | LocationRef };
  actions: Record<string, unknown>;
  app: { name: string; shortCode: string };
  /**
   * The caller's contact (docs/contacts.md): `name`, `language` and the attributes by key, '' where unknown.
   * Empty when the app reads no contact field.
   */
  contact: Readonly<Record<string, string>>;
}

/** What every run of an action is given, whoever asks. */
interface ActionCall {
  menu: { uniqueId: string; identifier: string };
  /** The template scope of the moment. */
  scope: TemplateScope;
  /**
   * Absolute time (ms since epoch) by which the runner must settle; past it, the hop ends. In an ActionRequest
   * it is on the engine's injected clock; the server hands a runner the same time left on the real clock
   * (`Date.now()`), which its timers and sockets run on.
   */
  deadline: number;
  /** Renders a template string over `scope` (cached parse), for url, headers, payload and SMS fields. */
  renderTemplate(source: string): string;
}

/** What the engine asks its injected runner to do. */
export interface ActionRequest extends ActionCall {
  /** `action` for a menu action; `validation` for a javascript input validation. */
  purpose: 'action' | 'validation';
  kind: ActionKind;
  action: Action;
}

/** What one kind's runner is given: the request, and the app it runs for. */
export interface ActionInput<K extends ActionKind = ActionKind> extends ActionCall {
  action: ActionOf<K>;
  appId: string;
  /** The app's owner: whose outbox, transactions and custom functions an action uses. */
  ownerId: string;
}

export interface ActionLogLine {
  level: EventLevel;
  message: string;
}

/**
 * The runner's answer. `timedOut` marks a budget overrun (the hop ends with the unavailable text);
 * any other failure is reported and the session goes on with `actions.<name>` = `{ error }`.
 */
/**
 * What a hop set on the caller's contact (a menu's `saveToContact`, a script's `contact.set`, checked as the API
 * checks them): only the fields it set. The runtime stores them with the session's records.
 */
export interface ContactChanges {
  name?: string;
  attributes?: Record<string, string>;
  /** A rule's `consent` (never a script's): stored with the hop's time, source `menu` and the menu's name. */
  consent?: Partial<Record<ConsentChannel, { status: 'in' | 'out'; menu: string }>>;
}

export type ActionOutcome =
  | { ok: true; result: unknown; logs?: ActionLogLine[]; contactChanges?: ContactChanges }
  | { ok: false; error: string; timedOut?: boolean; logs?: ActionLogLine[] };

export interface ActionRunner<K extends ActionKind> {
  run(input: ActionInput<K>): Promise<ActionOutcome>;
}
