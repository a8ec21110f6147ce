/**
 * Running a menu's actions through the injected runner, inside the hop's budget. The engine never runs
 * builder code itself; it builds the request, waits, checks the clock, records the result and reads any
 * steering from it.
 */
import type { Action, ActionOf } from '../shared/app';
import { toErrorMessage } from '../shared/errors';
import { findMenu, getActionTemplate, type CompiledMenu, type CompiledValidation } from './compile';
import { applyContactChanges } from './contact';
import { emitEvent, failHop, failOverBudget, getScope, type HopContext } from './context';
import { MISSING_MENU_TEXT } from './limits';
import { renderTemplate } from './render';
import type { ActionOutcome, ActionRequest, EventLevel } from './types';

export type ActionFlow = { kind: 'next' } | { kind: 'halted' } | { kind: 'goto'; menu: CompiledMenu } | { kind: 'end'; text: string };

const NEXT: ActionFlow = { kind: 'next' };
const HALTED: ActionFlow = { kind: 'halted' };
const MAX_LOG_LINES = 50;
const MAX_LOG_MESSAGE = 2000;
const MAX_VARS = 100;
const LEVELS = new Set<EventLevel>(['system', 'info', 'debug', 'error']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A runner is ours, but a bug in it must still not crash the hop. */
function normalizeOutcome(value: unknown): ActionOutcome {
  if (isPlainObject(value) && value.ok === true) return value as ActionOutcome;
  if (isPlainObject(value) && value.ok === false) {
    return { ...(value as ActionOutcome & { ok: false }), error: String(value.error ?? 'Action failed') };
  }
  return { ok: false, error: 'The action runner gave no outcome' };
}

/** Calls the runner; null when the budget was blown (the hop is then already answered with END). */
async function callRunner(
  ctx: HopContext,
  menu: CompiledMenu,
  action: Action,
  purpose: ActionRequest['purpose'],
): Promise<{ outcome: ActionOutcome; elapsedMs: number } | null> {
  const started = ctx.deps.now();
  const deadline = Math.min(started + ctx.limits.actionBudgetMs, ctx.deadline);
  emitEvent(ctx, 'action_started', 'debug', `Started ${action.actionName}`, {
    menu,
    action,
    data: { purpose, actionType: action.actionType },
  });
  const scope = getScope(ctx);
  const request: ActionRequest = {
    purpose,
    kind: action.inheritsPlugin,
    action,
    menu: { uniqueId: menu.uniqueId, identifier: menu.identifier },
    scope,
    deadline,
    // Action fields share the hop's render time with its screens.
    renderTemplate: (source) => renderTemplate(getActionTemplate(ctx.compiled, source), scope, ctx.renderTime),
  };
  let outcome: ActionOutcome;
  try {
    outcome = normalizeOutcome(await ctx.deps.runAction(request));
  } catch (err) {
    outcome = { ok: false, error: toErrorMessage(err) };
  }
  const finished = ctx.deps.now();
  const elapsedMs = finished - started;
  for (const line of (Array.isArray(outcome.logs) ? outcome.logs : []).slice(0, MAX_LOG_LINES)) {
    const level = LEVELS.has(line?.level) ? line.level : 'debug';
    emitEvent(ctx, 'action_logged', level, String(line?.message ?? '').slice(0, MAX_LOG_MESSAGE), { menu, action });
  }
  if ((!outcome.ok && outcome.timedOut) || finished > deadline) {
    const budget = deadline === ctx.deadline ? 'the hop' : 'its';
    emitEvent(ctx, 'action_failed', 'error', `${action.actionName} did not finish within ${budget} budget`, {
      menu,
      action,
      data: { elapsedMs, timedOut: true },
    });
    const message = `Hop answered with END: ${action.actionName} took ${elapsedMs} ms, past ${budget} budget`;
    // Past the hop's budget the gateway would not have waited; past only its own, the action is the app's fault.
    if (deadline === ctx.deadline) failOverBudget(ctx, message, { menu, action });
    else failHop(ctx, message, { menu, action });
    return null;
  }
  return { outcome, elapsedMs };
}

/** Runs the menu's `pre` or `post` actions in order; the first steering result stops the rest. */
export async function runActions(ctx: HopContext, menu: CompiledMenu, type: 'pre' | 'post'): Promise<ActionFlow> {
  const actions = type === 'pre' ? menu.preActions : menu.postActions;
  for (const action of actions) {
    const call = await callRunner(ctx, menu, action, 'action');
    if (!call) return HALTED;
    const { outcome, elapsedMs } = call;
    if (!outcome.ok) {
      // The session goes on; a template can test `actions.<name>.error`.
      ctx.state.actionResults[action.actionName] = { error: outcome.error };
      emitEvent(ctx, 'action_failed', 'error', `${action.actionName} failed: ${outcome.error}`, {
        menu,
        action,
        data: { error: outcome.error, elapsedMs },
      });
      continue;
    }
    const result = outcome.result === undefined ? null : outcome.result;
    ctx.state.actionResults[action.actionName] = result;
    // A script's contact.set calls: kept on the contact as a menu's saveToContact is (a failed run keeps none).
    if (isPlainObject(outcome.contactChanges)) applyContactChanges(ctx, outcome.contactChanges);
    emitEvent(ctx, 'action_finished', 'info', `${action.actionName} finished`, { menu, action, data: { result, elapsedMs } });
    if (action.inheritsPlugin === 'javascript' || action.inheritsPlugin === 'customAction') {
      const flow = readSteering(ctx, menu, action, result);
      if (flow !== NEXT) return flow;
    }
  }
  return NEXT;
}

/**
 * A script's result may steer: `{ end: "Bye" }` ends the session with that text, `{ goto: "menuId" }`
 * enters a menu (by identifier or uniqueId), `{ vars: { tier: "gold" } }` sets `session.vars`.
 */
function readSteering(ctx: HopContext, menu: CompiledMenu, action: Action, result: unknown): ActionFlow {
  if (!isPlainObject(result)) return NEXT;
  if (isPlainObject(result.vars)) {
    const entries = Object.entries(result.vars).slice(0, MAX_VARS);
    for (const [key, value] of entries) ctx.state.vars[key] = value;
  }
  if (result.end !== undefined && result.end !== null && result.end !== false) {
    const text = String(result.end);
    emitEvent(ctx, 'session_steered', 'info', `${action.actionName} ended the session`, { menu, action, data: { end: text } });
    return { kind: 'end', text };
  }
  if (typeof result.goto === 'string' && result.goto !== '') {
    const target = findMenu(ctx.compiled, result.goto);
    if (!target) {
      failHop(
        ctx,
        `${action.actionName} steered to a menu that does not exist: ${result.goto.slice(0, 100)}`,
        { menu, action, data: { goto: result.goto.slice(0, 100) } },
        MISSING_MENU_TEXT,
      );
      return HALTED;
    }
    emitEvent(ctx, 'session_steered', 'info', `${action.actionName} steered to ${target.identifier}`, {
      menu,
      action,
      data: { goto: target.identifier, menuId: target.uniqueId },
    });
    return { kind: 'goto', menu: target };
  }
  return NEXT;
}

export type ScriptVerdict = { passed: true } | { passed: false; message: string | null };

/**
 * The javascript validation method: the runner runs `validationFunction` like a javascript action. It
 * passes on a truthy result or `{ valid: true }`; `{ valid: false, message }` may replace the error message.
 * A runner failure fails the validation (closed), with an action_failed event.
 */
export async function runScriptValidation(ctx: HopContext, menu: CompiledMenu, check: CompiledValidation): Promise<ScriptVerdict | null> {
  const action: ActionOf<'javascript'> = {
    actionName: `validation${check.index + 1}`,
    actionType: 'post',
    inheritsPlugin: 'javascript',
    code: check.validation.validationFunction,
  };
  const call = await callRunner(ctx, menu, action, 'validation');
  if (!call) return null;
  const { outcome, elapsedMs } = call;
  if (!outcome.ok) {
    emitEvent(ctx, 'action_failed', 'error', `Validation script failed: ${outcome.error}`, {
      menu,
      action,
      data: { error: outcome.error, elapsedMs },
    });
    return { passed: false, message: null };
  }
  emitEvent(ctx, 'action_finished', 'debug', 'Validation script finished', {
    menu,
    action,
    data: { result: outcome.result ?? null, elapsedMs },
  });
  const result = outcome.result;
  if (isPlainObject(result) && 'valid' in result) {
    return result.valid ? { passed: true } : { passed: false, message: typeof result.message === 'string' ? result.message : null };
  }
  return result ? { passed: true } : { passed: false, message: null };
}
