import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../shared/actions/runner';
import { DEFAULT_JAVASCRIPT_CODE } from './default-code';
import { createJavascriptRunner, runValidationScript } from './javascript.runner';
import { createJavascriptPool, type JavascriptPool } from './pool';

const session = {
  sessionId: 's-1',
  mobile: '233241234567',
  network: 'MTN',
  serviceCode: '*123#',
  language: '',
  inputs: { amount: '20' },
  vars: {},
};

function actionInput(
  code: string,
  over: { input?: string; actions?: Record<string, unknown>; deadline?: number } = {},
): ActionInput<'javascript'> {
  return {
    action: { actionName: 'check', actionType: 'post', inheritsPlugin: 'javascript', code },
    appId: 'app-1',
    ownerId: 'owner-1',
    menu: { uniqueId: 'm-1', identifier: 'amount' },
    scope: {
      session,
      inRequest: { input: over.input ?? '20' },
      actions: over.actions ?? {},
      app: { name: 'Pay', shortCode: '*123#' },
      contact: {},
    },
    deadline: over.deadline ?? Date.now() + 3000,
    renderTemplate: (source) => source,
  };
}

let pool: JavascriptPool;
beforeAll(async () => {
  pool = createJavascriptPool({ size: 2, spares: 0 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

describe('javascript runner', () => {
  it('maps the scope in and the outcome out, logs included', async () => {
    const runner = createJavascriptRunner(pool);
    const outcome = await runner.run(
      actionInput('log.info("for", session.mobile); return { seen: [input, actions.prev.body.x], goto: "next" }', {
        input: '7',
        actions: { prev: { body: { x: 1 } } },
      }),
    );
    expect(outcome).toEqual({ ok: true, result: { seen: ['7', 1], goto: 'next' }, logs: [{ level: 'info', message: 'for 233241234567' }] });
  });

  it('answers an empty script with null without a worker', async () => {
    expect(await createJavascriptRunner(pool).run(actionInput('  \n'))).toEqual({ ok: true, result: null, logs: [] });
  });

  it('passes errors and time-outs through', async () => {
    const runner = createJavascriptRunner(pool);
    expect(await runner.run(actionInput('\nundefinedThing()'))).toEqual({
      ok: false,
      error: "ReferenceError: 'undefinedThing' is not defined (line 2)",
      logs: [],
    });
    expect(await runner.run(actionInput('return 1', { deadline: Date.now() - 1 }))).toMatchObject({ ok: false, timedOut: true });
  });

  it('runs the default code as it stands, steering by its input', async () => {
    const runner = createJavascriptRunner(pool);
    const withBalance = { getBalance: { status: 200, ok: true, headers: {}, body: { balance: 50 } } };
    const paid = await runner.run(actionInput(DEFAULT_JAVASCRIPT_CODE, { actions: withBalance }));
    expect(paid).toMatchObject({
      ok: true,
      result: { remaining: 30, vars: { lastAmount: 20 } },
      logs: [{ level: 'info', message: 'Checking balance for 233241234567 amount 20' }],
    });
    expect(await runner.run(actionInput(DEFAULT_JAVASCRIPT_CODE))).toMatchObject({
      ok: true,
      result: { end: 'Sorry, your balance of GHS 0.00 is too low.' },
    });
  });
});

describe('javascript validation', () => {
  const deadline = () => Date.now() + 3000;

  it('passes on a truthy value or { valid: true }', async () => {
    expect(await runValidationScript(pool, 'return /^0\\d{9}$/.test(input)', { input: '0241234567', session }, deadline())).toEqual({
      valid: true,
      logs: [],
    });
    expect(await runValidationScript(pool, 'return { valid: true }', { input: 'x', session }, deadline())).toMatchObject({ valid: true });
    expect(await runValidationScript(pool, 'return session.mobile.startsWith("233")', { input: 'x', session }, deadline())).toMatchObject({
      valid: true,
    });
  });

  it('fails on a falsy value or { valid: false, message }', async () => {
    expect(await runValidationScript(pool, 'return input.length > 3', { input: 'x', session }, deadline())).toEqual({
      valid: false,
      message: null,
      logs: [],
    });
    expect(await runValidationScript(pool, 'return { valid: false, message: "Too small" }', { input: 'x', session }, deadline())).toEqual({
      valid: false,
      message: 'Too small',
      logs: [],
    });
  });

  it('fails closed when the script itself fails', async () => {
    expect(await runValidationScript(pool, 'throw new Error("boom")', { input: 'x', session }, deadline())).toEqual({
      valid: false,
      message: null,
      error: 'Error: boom (line 1)',
      logs: [],
    });
  });
});
