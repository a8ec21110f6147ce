import type { ActionOutcome, ActionRequest } from '../../../engine';

/**
 * The action runner until the action runners land (sandboxed JavaScript, REST, database, SMS, payment):
 * every action fails with a clear message, which the engine logs as `action_failed` and the session goes on.
 */
export async function runUnavailableAction(request: ActionRequest): Promise<ActionOutcome> {
  return { ok: false, error: `${request.kind} actions are not available on this server yet` };
}
