/**
 * The contract between the runtime and the action runners (DESIGN.md section 5, Actions). Runners import
 * only src/shared; the server adapts the engine's ActionRequest to an ActionInput and registers one runner
 * per action kind.
 */
import type { ActionKind, ActionOf } from '../shared/app';

/** What a running action may read: the template scope of the moment, as plain JSON. */
export interface ActionScope {
  session: { sessionId: string; mobile: string; network: string; serviceCode: string; inputs: Record<string, string>; vars: Record<string, unknown> };
  inRequest: { input: string };
  actions: Record<string, unknown>;
  app: { name: string; shortCode: string };
}

export interface ActionInput<K extends ActionKind = ActionKind> {
  action: ActionOf<K>;
  appId: string;
  /** The app's owner: whose outbox, transactions and custom functions an action uses. */
  ownerId: string;
  menu: { uniqueId: string; identifier: string };
  scope: ActionScope;
  /** Absolute time (ms since epoch) by which the runner must settle. */
  deadline: number;
  /** Renders a template over the scope (LiquidJS, parse cached). */
  renderTemplate(source: string): string;
}

export interface ActionLogLine {
  level: 'system' | 'info' | 'debug' | 'error';
  message: string;
}

export type ActionOutcome =
  | { ok: true; result: unknown; logs?: ActionLogLine[] }
  | { ok: false; error: string; timedOut?: boolean; logs?: ActionLogLine[] };

export interface ActionRunner<K extends ActionKind> {
  run(input: ActionInput<K>): Promise<ActionOutcome>;
}
