import type { ActionInput, ActionOutcome, ActionRequest, ActionRunner, TemplateScope } from '../../../shared/actions/runner';
import type { ActionKind } from '../../../shared/app';
import { toErrorMessage } from '../../../shared/errors';

/** One runner per action kind: the build fails until every kind has one (docs/architecture.md, How the code looks). */
export type ActionRunners = { [K in ActionKind]: ActionRunner<K> };

/** The app an action runs for. */
export interface ActionApp {
  appId: string;
  /** Whose outbox, transactions and custom functions its actions use. */
  ownerId: string;
  /** A featured template: every run is a test run anyone may make (see `templateRunners`). */
  isTemplate: boolean;
}

/**
 * The engine's injected runner: adapts an ActionRequest to the runners' ActionInput and runs it, turning a
 * runner's own crash into a failed action (the engine then logs it and the session goes on). For a featured
 * template, `templateRunners` stand in for the kinds that would move money or send messages. `now` is the
 * engine's clock, the one its deadlines are on. `prepareScope` adjusts the request's scope, in place, before the
 * action reads it (the server makes the links of the session's files fresh: media.service.ts refreshMediaLinks).
 */
export function createActionRunner(
  now: () => number,
  runners: ActionRunners,
  templateRunners: Partial<ActionRunners>,
  prepareScope?: (scope: TemplateScope, app: ActionApp) => Promise<void>,
) {
  const forTemplates: ActionRunners = { ...runners, ...templateRunners };
  return async (request: ActionRequest, app: ActionApp): Promise<ActionOutcome> => {
    const input = {
      action: request.action,
      appId: app.appId,
      ownerId: app.ownerId,
      menu: request.menu,
      scope: request.scope,
      // The same time left, on the real clock: runners time real work (sockets, timers, worker threads), and a
      // test that moved the injected clock must neither cut an action short nor let it run past its budget.
      deadline: Date.now() + (request.deadline - now()),
      renderTemplate: request.renderTemplate,
    } as ActionInput;
    try {
      await prepareScope?.(request.scope, app);
      return await ((app.isTemplate ? forTemplates : runners)[request.kind] as ActionRunner<ActionKind>).run(input);
    } catch (err) {
      return { ok: false, error: toErrorMessage(err) };
    }
  };
}
