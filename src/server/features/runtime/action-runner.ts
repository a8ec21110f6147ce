import type { ActionOutcome, ActionRequest } from '../../../engine';
import type { ActionKind } from '../../../shared/app';
import type { ActionInput, ActionRunner } from '../../../actions/types';

/** One runner per action kind: the build fails until every kind has one (STYLE.md idea 3). */
export type ActionRunners = { [K in ActionKind]: ActionRunner<K> };

/**
 * The engine's injected runner: adapts an ActionRequest to the runners' ActionInput and runs it, turning a
 * runner's own crash into a failed action (the engine then logs it and the session goes on).
 */
export function createActionRunner(runners: ActionRunners) {
  return async (request: ActionRequest, app: { appId: string; ownerId: string }): Promise<ActionOutcome> => {
    const input = {
      action: request.action,
      appId: app.appId,
      ownerId: app.ownerId,
      menu: request.menu,
      scope: request.scope,
      deadline: request.deadline,
      renderTemplate: request.renderTemplate,
    } as ActionInput;
    try {
      return await (runners[request.kind] as ActionRunner<ActionKind>).run(input);
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  };
}
