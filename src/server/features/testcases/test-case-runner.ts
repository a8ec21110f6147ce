/**
 * Runs a saved test case against a compiled version with the engine itself (docs/testing-apps.md): the dial, then
 * each input, each screen held to the step's expectation. Actions that reach outside (REST, database, SMS, payment)
 * answer with the case's recorded reply and never run; a script (javascript, a custom action) runs for real in the
 * sandbox, as the account's, unless the case recorded a reply for it. Nothing is stored: no session, no logs.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { continueSession, startSession, type CompiledApp, type EngineDeps, type Hop, type HopResult } from '../../../engine';
import type { ActionOutcome, ActionRequest } from '../../../shared/actions/runner';
import { TEST_WILDCARD, type TestCaseBody, type TestCaseResult, type TestStepResult } from '../../../shared/api/test-cases.schema';

/** What runs a script for real: the runtime's action runner, for the app's account. */
export type RunScript = (request: ActionRequest) => Promise<ActionOutcome>;

/** The kinds that run for real when the case has no recorded reply: they compute, they reach nothing outside. */
const SCRIPT_KINDS = new Set(['javascript', 'customAction']);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An expectation as a pattern: its text as it is, `{*}` any text on its line. */
function toPattern(expect: string): RegExp {
  return new RegExp(expect.split(TEST_WILDCARD).map(escapeRegExp).join('[^\\n]*'));
}

/**
 * Whether a screen shows what a step expects (it contains it, wildcards matching what varies), and if not, the first
 * line of the expectation it lacks.
 * @example checkScreen('Balance GHS 20.00\n1. Back', 'Balance GHS {*}') // { ok: true }
 */
export function checkScreen(actual: string, expect: string): Pick<TestStepResult, 'ok' | 'difference'> {
  if (toPattern(expect).test(actual)) return { ok: true };
  // The first line at which the expectation, read from its top, stops being on the screen: a line missing, or one
  // that is there but not right after the lines before it.
  const lines = expect.split('\n');
  let index = lines.length - 1;
  for (let k = 1; k <= lines.length; k++) {
    if (!toPattern(lines.slice(0, k).join('\n')).test(actual)) {
      index = k - 1;
      break;
    }
  }
  return { ok: false, difference: { line: index + 1, expected: lines[index] ?? '' } };
}

/** The engine's action runner for one case: its recorded replies, real scripts, and a refusal for the rest. */
function createCaseRunner(stubs: TestCaseBody['stubs'], runScript: RunScript): EngineDeps['runAction'] {
  return async (request) => {
    const stub = stubs[request.action.actionName];
    if (stub) return stub.ok ? { ok: true, result: stub.result } : { ok: false, error: stub.error };
    if (SCRIPT_KINDS.has(request.kind)) return runScript(request);
    return { ok: false, error: `No recorded reply for ${request.action.actionName} in this test case` };
  };
}

export async function runTestCase(
  compiled: CompiledApp,
  testCase: TestCaseBody & { id: string },
  runScript: RunScript,
): Promise<TestCaseResult> {
  const started = performance.now();
  let ids = 0;
  const deps: EngineDeps = { now: () => Date.now(), newId: () => `t${++ids}`, runAction: createCaseRunner(testCase.stubs, runScript) };
  const dialString = testCase.dialString || compiled.app.shortCode;
  const base: Hop = {
    sessionId: `test-${testCase.id}`,
    msisdn: testCase.msisdn,
    network: 'TEST',
    serviceCode: dialString,
    input: '',
    gateway: 'test',
    environment: 'test',
  };
  const steps: TestStepResult[] = [];
  const finish = (error?: string): TestCaseResult => ({
    id: testCase.id,
    name: testCase.name,
    ok: error === undefined && steps.every((s) => s.ok),
    steps,
    ...(error ? { error } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  let result: HopResult | undefined;
  for (const [index, step] of testCase.steps.entries()) {
    if (result?.reply.end)
      return finish(`The session ended at step ${index}; step ${index + 1} (input "${step.input}") has no screen to answer`);
    // One hop at a time on the server's thread: other tenants' hops are answered between two steps of a run.
    if (index > 0) await yieldToEventLoop();
    result = result
      ? await continueSession(compiled, result.state, { ...base, input: step.input }, deps)
      : await startSession(compiled, { ...base, dialString }, deps);
    const actual = result.reply.text;
    const checked = checkScreen(actual, step.expect);
    steps.push({ input: step.input, expect: step.expect, actual, ...checked });
    if (!checked.ok) return finish();
  }
  return finish();
}
