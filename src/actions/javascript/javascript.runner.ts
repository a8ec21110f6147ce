/**
 * The `javascript` action kind and the `javascript` validation method, on the QuickJS pool. The script is
 * the body of `async function (session, input, actions, log)`; its returned value (JSON) is the action's
 * result, and the engine reads any steering from it (`{ goto }`, `{ end }`, `{ vars }`).
 *
 * @example
 *   const runner = createJavascriptRunner(createJavascriptPool());
 *   await runner.run(input) // code: 'return { goto: "balance" }' -> { ok: true, result: { goto: 'balance' }, logs: [] }
 */
import type { ActionInput, ActionLogLine, ActionOutcome, ActionRunner } from '../../shared/actions/runner';
import type { JsOutcome } from './limits';
import type { JavascriptPool } from './pool';

/**
 * `readGroup` names the pool's share group a run belongs to (JsJob.group), e.g. the server's group of unpaid
 * accounts and test runs; without it every run is held only to its account's share.
 */
export function createJavascriptRunner(
  pool: JavascriptPool,
  readGroup: (input: ActionInput<'javascript'>) => Promise<string | undefined> = async () => undefined,
): ActionRunner<'javascript'> {
  return {
    async run(input: ActionInput<'javascript'>): Promise<ActionOutcome> {
      const code = input.action.code ?? '';
      // An empty script returns nothing; it need not wait for a worker.
      if (code.trim() === '') return { ok: true, result: null, logs: [] };
      const outcome = await pool.run({
        code,
        scope: {
          session: input.scope.session,
          input: input.scope.inRequest.input,
          actions: input.scope.actions,
          contact: input.scope.contact,
        },
        deadline: input.deadline,
        tenant: input.ownerId,
        group: await readGroup(input),
      });
      return toActionOutcome(outcome);
    },
  };
}

export function toActionOutcome(outcome: JsOutcome): ActionOutcome {
  const logs: ActionLogLine[] = outcome.logs.map((line) => ({ level: line.level, message: line.message }));
  if (outcome.ok)
    return outcome.contactChanges
      ? { ok: true, result: outcome.result ?? null, logs, contactChanges: outcome.contactChanges }
      : { ok: true, result: outcome.result ?? null, logs };
  return outcome.timedOut ? { ok: false, error: outcome.error, timedOut: true, logs } : { ok: false, error: outcome.error, logs };
}

export type ValidationScriptVerdict =
  | { valid: true; logs: ActionLogLine[] }
  /** `message` is the script's own (`{ valid: false, message }`); `error` says the script itself failed. */
  | { valid: false; message: string | null; error?: string; timedOut?: boolean; logs: ActionLogLine[] };

/**
 * The `javascript` validation method: passes when the script returns a truthy value or `{ valid: true }`,
 * fails on a falsy value or `{ valid: false, message }`, and fails closed when the script itself fails.
 * @example runValidationScript(pool, 'return input.length === 10', { input: '0241234567', session }, deadline)
 *   // { valid: true, logs: [] }
 */
export async function runValidationScript(
  pool: JavascriptPool,
  code: string,
  scope: { input: string; session: unknown },
  deadline: number,
): Promise<ValidationScriptVerdict> {
  const outcome = toActionOutcome(await pool.run({ code, scope: { session: scope.session, input: scope.input, actions: {} }, deadline }));
  const logs = outcome.logs ?? [];
  if (!outcome.ok) return { valid: false, message: null, error: outcome.error, ...(outcome.timedOut ? { timedOut: true } : {}), logs };
  const result = outcome.result;
  if (typeof result === 'object' && result !== null && !Array.isArray(result) && 'valid' in result) {
    const { valid, message } = result as { valid: unknown; message?: unknown };
    if (valid) return { valid: true, logs };
    return { valid: false, message: typeof message === 'string' && message !== '' ? message.slice(0, 500) : null, logs };
  }
  return result ? { valid: true, logs } : { valid: false, message: null, logs };
}
