/**
 * The steps of a hop (docs/runtime.md, A hop): entering a menu, and handling one input on the current menu.
 */
import { runActions } from './actions';
import { recordConsent, saveToContact } from './contact';
import type { CompiledMenu, CompiledRule } from './compile';
import { findMenu } from './compile';
import {
  emitEvent,
  endSession,
  failHop,
  getCurrentMenu,
  getLabels,
  getScope,
  getTranslation,
  getShownPages,
  isHalted,
  showScreen,
  showScreenAgain,
  type HopContext,
} from './context';
import { cleanInput, findOptionLabel } from './input';
import { checkReceived, renderMenuMedia } from './media';
import { MISSING_MENU_TEXT } from './limits';
import { pickRule } from './navigation';
import { NEXT_PAGE_INPUT } from './pagination';
import { joinScreenParts, RenderBudgetError, renderTemplate, type CompiledTemplate } from './render';
import type { EngineEventData, Reply, RuleData } from './types';
import { validateInput } from './validation';
import { toErrorMessage } from '../shared/errors';
import { parseSubflowMenuId } from '../shared/app';
import { DEFAULT_CALLBACK_TEXT, DEFAULT_HANDOFF_TEXT, DEFAULT_WHATSAPP_CONTINUE_TEXT } from '../shared/inbox';

/** Renders a template or reports the fault, or the time budget run out (and ends the hop); null then. */
function renderOrFail(ctx: HopContext, menu: CompiledMenu, template: CompiledTemplate, part: string): string | null {
  try {
    return renderTemplate(template, getScope(ctx), ctx.renderTime);
  } catch (err) {
    if (err instanceof RenderBudgetError) {
      failHop(ctx, `${err.message} in ${part}: ${ctx.renderTime.describeOverrun()}`, {
        menu,
        data: { part, renderMs: Math.round(ctx.renderTime.spentMs) },
      });
    } else {
      failHop(ctx, `Template error in ${part}: ${toErrorMessage(err)}`, { menu, data: { part } });
    }
    return null;
  }
}

/** Header, text and footer in the session's language, each field falling back to the default language's. */
export function renderMenuScreen(ctx: HopContext, menu: CompiledMenu): string | null {
  const t = getTranslation(ctx, menu);
  const header = renderOrFail(ctx, menu, t?.header ?? menu.header, 'headerText');
  if (header === null) return null;
  const text = renderOrFail(ctx, menu, t?.text ?? menu.text, 'displayText');
  if (text === null) return null;
  const footer = renderOrFail(ctx, menu, t?.footer ?? menu.footer, 'footerText');
  if (footer === null) return null;
  return joinScreenParts([header, text, footer]);
}

/**
 * Enters a menu: `pre` actions, render, reply. `from` is the menu left behind (pushed for Back), or null
 * when nothing is to be pushed (start, Back itself, a pre-action redirect).
 */
export async function enterMenu(ctx: HopContext, menu: CompiledMenu, from: CompiledMenu | null): Promise<void> {
  ctx.menuEntries += 1;
  if (ctx.menuEntries > ctx.limits.maxMenuEntriesPerHop) {
    failHop(ctx, `Entered ${ctx.limits.maxMenuEntriesPerHop} menus in one hop without input; is there a goto loop?`, { menu });
    return;
  }
  const { state } = ctx;
  // A session in a sub-flow that reaches a menu outside it (Back past its first menu, a script's goto) has left it.
  if (state.frames !== undefined && parseSubflowMenuId(menu.uniqueId)?.subflowId !== state.frames.at(-1)?.subflowId) delete state.frames;
  if (from) {
    state.history.push(from.uniqueId);
    if (state.history.length > ctx.limits.maxHistory) state.history.splice(0, state.history.length - ctx.limits.maxHistory);
  }
  state.currentMenuId = menu.uniqueId;
  state.screen = '';
  delete state.linkButton;
  state.notice = '';
  state.page = 0;

  const flow = await runActions(ctx, menu, 'pre');
  if (flow.kind === 'halted') return;
  if (flow.kind === 'end') return endSession(ctx, flow.text, 'steered', menu);
  if (flow.kind === 'goto') return enterMenu(ctx, flow.menu, null);

  const screen = renderMenuScreen(ctx, menu);
  if (screen === null) return;
  const media = renderMenuMedia(ctx, menu);
  if (media === null) return;
  if (media.linkButton) state.linkButton = media.linkButton;
  if (menu.menu.terminate) endSession(ctx, screen, 'terminate_menu', menu);
  else {
    state.screen = screen;
    showScreen(ctx, menu);
  }
  // Sent once, on entering: a re-shown screen or its next page does not send them again.
  const reply = ctx.reply as Reply;
  if (media.attachments) reply.attachments = media.attachments;
  if (media.linkButton) reply.linkButton = media.linkButton;
}

/**
 * Handles one input on the current menu. Returns true when the session moved on (a new page or menu),
 * false when it stayed put (validation failure, invalid choice) or halted; deep dial stops on false.
 */
export async function handleInput(ctx: HopContext, raw: unknown, isReplayed = false): Promise<boolean> {
  const { state } = ctx;
  const menu = getCurrentMenu(ctx);
  const cleaned = cleanInput(raw, ctx.limits.maxInputLength);
  const { isTruncated } = cleaned;
  // A file or location arriving has no text of its own: its caption is `media.caption`.
  let input = ctx.received === null ? cleaned.value : '';
  ctx.input = input;
  if (!menu) {
    failHop(ctx, `The current menu ${String(state.currentMenuId)} is not in this app version`);
    return false;
  }
  // Built without object spread: spreading on this path cost microseconds a hop (bench/README.md).
  const inputData: EngineEventData['input_received'] = { input };
  if (isReplayed) inputData.replayed = true;
  if (isTruncated && ctx.received === null) inputData.truncated = true;
  if (ctx.received !== null) inputData.media = 'media' in ctx.received ? ctx.received.media : ctx.received.location;
  emitEvent(ctx, 'input_received', 'info', `Received input on ${menu.identifier || menu.uniqueId}`, { menu, data: inputData });

  if (input === NEXT_PAGE_INPUT && state.page < getShownPages(ctx).length - 1) {
    state.page += 1;
    showScreen(ctx, menu);
    return true;
  }

  if (menu.backIndicator !== '' && input === menu.backIndicator && state.history.length > 0) {
    const previous = findMenu(ctx.compiled, state.history.pop() as string);
    if (!previous) {
      failHop(ctx, 'The previous menu is not in this app version', { menu });
      return false;
    }
    emitEvent(ctx, 'navigated_back', 'info', `Went back to ${previous.identifier}`, {
      menu,
      data: { to: previous.identifier, toId: previous.uniqueId },
    });
    await enterMenu(ctx, previous, null);
    return !isHalted(ctx);
  }

  const accepted = checkReceived(ctx, menu, ctx.received, input);
  if (!accepted.ok) {
    showScreenAgain(ctx, menu, accepted.message);
    return false;
  }
  input = accepted.input;
  ctx.input = input;
  // What arrived is `session.media.<identifier>` from here, so a javascript validation reads it too; a new object,
  // not a change in place (a state copied for the next hop may share the previous one), dropped if refused.
  const mediaBefore = state.media;
  if (accepted.value !== null && menu.identifier !== '') state.media = { ...state.media, [menu.identifier]: accepted.value };

  const verdict = await validateInput(ctx, menu, input);
  if (verdict === null) return false;
  if (!verdict.ok) {
    if (mediaBefore === undefined) delete state.media;
    else state.media = mediaBefore;
    showScreenAgain(ctx, menu, verdict.message);
    return false;
  }

  if (menu.identifier !== '') {
    state.inputs[menu.identifier] = input;
    const label = accepted.value === null ? findOptionLabel(state.screen, input) : null;
    if (label !== null) state.inputs[`${menu.identifier}Label`] = label;
    else delete state.inputs[`${menu.identifier}Label`];
  }
  if (menu.saveToContact !== null) saveToContact(ctx, menu.saveToContact, input);

  const flow = await runActions(ctx, menu, 'post');
  if (flow.kind === 'halted') return false;
  if (flow.kind === 'end') {
    endSession(ctx, flow.text, 'steered', menu);
    return true;
  }
  if (flow.kind === 'goto') {
    await enterMenu(ctx, flow.menu, menu);
    return !isHalted(ctx);
  }

  const rule = pickRule(ctx, menu, input);
  if (!rule) {
    const notice = getLabels(ctx).invalidChoice;
    emitEvent(ctx, 'navigation_failed', 'info', notice, { menu, data: { input } });
    showScreenAgain(ctx, menu, notice);
    return false;
  }
  const ruleData: RuleData = { rule: rule.index, operator: rule.rule.operator, compareVal: rule.rule.compareVal };
  if (rule.rule.setLanguage !== undefined) setLanguage(ctx, rule.rule.setLanguage);
  if (rule.rule.consent !== undefined) recordConsent(ctx, rule.rule.consent, menu.identifier || menu.uniqueId);
  if (rule.rule.action === 'Terminate') {
    const handoff = rule.rule.handoff;
    // A handoff on USSD is a callback request: the agent calls the number back (docs/inbox.md).
    // "Continue on WhatsApp" asks the caller to message the bot's number, which the runtime writes in.
    const handoffText =
      ctx.compiled.app.channel === 'whatsapp'
        ? DEFAULT_HANDOFF_TEXT
        : handoff?.whatsappBotId
          ? DEFAULT_WHATSAPP_CONTINUE_TEXT
          : DEFAULT_CALLBACK_TEXT;
    const thankYou = handoff ? handoffText : getLabels(ctx).thankYou;
    let text = thankYou;
    const closing = getTranslation(ctx, menu)?.closing[rule.index] ?? rule.closing;
    if (closing) {
      const rendered = renderOrFail(ctx, menu, closing, `switchOperations.${rule.index}.actionParam`);
      if (rendered === null) return false;
      text = rendered.trim() || thankYou;
    }
    emitEvent(ctx, 'navigated', 'info', `Rule ${rule.index + 1} ended the session`, { menu, data: ruleData });
    if (handoff) {
      ctx.handoff = handoff.whatsappBotId ? { reason: handoff.reason, whatsappBotId: handoff.whatsappBotId } : { reason: handoff.reason };
      emitEvent(ctx, 'handed_off', 'info', `Rule ${rule.index + 1} handed the conversation to a person`, {
        menu,
        data: { reason: handoff.reason },
      });
    }
    endSession(ctx, text, handoff ? 'handoff' : 'terminate_rule', menu);
    return true;
  }
  if (rule.rule.action === 'Return') return returnFromSubflow(ctx, menu, rule, ruleData);
  const target = findMenu(ctx.compiled, rule.rule.actionParam);
  if (!target) {
    // A draft whose target was deleted (a deploy refuses such a version): the caller is told, the logs say which rule.
    const name = rule === menu.alwaysRule ? 'Always goto' : `Rule ${rule.index + 1} (${rule.rule.operator} ${rule.rule.compareVal})`;
    failHop(
      ctx,
      `${name} goes to a menu that no longer exists: ${rule.rule.actionParam || '(none chosen)'}`,
      { menu, data: { ...ruleData, target: rule.rule.actionParam } },
      MISSING_MENU_TEXT,
    );
    return false;
  }
  if (rule.subflowInputs !== null) return enterSubflow(ctx, menu, rule, ruleData, target);
  emitNavigated(ctx, menu, rule, ruleData, target);
  await enterMenu(ctx, target, menu);
  return !isHalted(ctx);
}

function emitNavigated(ctx: HopContext, menu: CompiledMenu, rule: CompiledRule, ruleData: RuleData, target: CompiledMenu): void {
  emitEvent(ctx, 'navigated', 'info', `Rule ${rule.index + 1} went to ${target.identifier}`, {
    menu,
    data: {
      rule: ruleData.rule,
      operator: ruleData.operator,
      compareVal: ruleData.compareVal,
      to: target.identifier,
      toId: target.uniqueId,
    },
  });
}

/**
 * A rule entering a sub-flow (docs/sub-flows.md): its inputs rendered into session variables, a frame kept with
 * the menu it returns to, then the sub-flow's first menu. A sub-flow this version lacks ends the session as a
 * missing menu does; one inside another is refused (the lint refuses it before a deploy).
 */
async function enterSubflow(
  ctx: HopContext,
  menu: CompiledMenu,
  rule: CompiledRule,
  ruleData: RuleData,
  returnTo: CompiledMenu,
): Promise<boolean> {
  const { state } = ctx;
  const id = rule.rule.subflow?.id ?? '';
  const subflow = ctx.compiled.subflows.get(id);
  if (!subflow?.entry) {
    failHop(
      ctx,
      `Rule ${rule.index + 1} enters a sub-flow this version does not have: ${id}`,
      { menu, data: { ...ruleData, target: id } },
      MISSING_MENU_TEXT,
    );
    return false;
  }
  if (state.frames !== undefined) {
    failHop(ctx, `Rule ${rule.index + 1} enters a sub-flow from inside another: ${subflow.name}`, { menu });
    return false;
  }
  const vars: Record<string, string> = {};
  for (const input of rule.subflowInputs ?? []) {
    const value = renderOrFail(ctx, menu, input.value, `switchOperations.${rule.index}.subflow.inputs.${input.name}`);
    if (value === null) return false;
    vars[input.name] = value;
  }
  // A new object, not a change in place: a state copied for the next hop may share the previous one's.
  state.vars = { ...state.vars, ...vars };
  state.frames = [{ subflowId: subflow.id, from: menu.uniqueId, returnTo: returnTo.uniqueId, historyLength: state.history.length }];
  emitEvent(ctx, 'subflow_entered', 'info', `Rule ${rule.index + 1} entered the sub-flow ${subflow.name}`, {
    menu,
    data: {
      subflowId: subflow.id,
      name: subflow.name,
      version: subflow.version,
      inputs: Object.keys(vars),
      returnTo: returnTo.identifier,
      returnToId: returnTo.uniqueId,
    },
  });
  emitNavigated(ctx, menu, rule, ruleData, subflow.entry);
  await enterMenu(ctx, subflow.entry, menu);
  return !isHalted(ctx);
}

/**
 * A sub-flow's Return rule: its outputs rendered (in the sub-flow's session) into session variables, its menus
 * dropped from the Back history, and the session goes on at the menu the entering rule named, Back leading to the
 * menu that entered it.
 */
async function returnFromSubflow(ctx: HopContext, menu: CompiledMenu, rule: CompiledRule, ruleData: RuleData): Promise<boolean> {
  const { state } = ctx;
  const frame = state.frames?.at(-1);
  const subflow = frame ? ctx.compiled.subflows.get(frame.subflowId) : undefined;
  if (!frame || !subflow) {
    failHop(ctx, `Rule ${rule.index + 1} returns, but the session is not in a sub-flow`, { menu });
    return false;
  }
  const outputs: Record<string, string> = {};
  for (const output of subflow.outputs) {
    const value = renderOrFail(ctx, menu, output.value, `outputs.${output.name}`);
    if (value === null) return false;
    outputs[output.name] = value;
  }
  const target = findMenu(ctx.compiled, frame.returnTo);
  if (!target) {
    failHop(ctx, `The sub-flow ${subflow.name} returns to a menu that no longer exists: ${frame.returnTo}`, { menu }, MISSING_MENU_TEXT);
    return false;
  }
  state.vars = { ...state.vars, ...outputs };
  delete state.frames;
  state.history = state.history.slice(0, frame.historyLength);
  emitEvent(ctx, 'subflow_returned', 'info', `Rule ${rule.index + 1} returned from the sub-flow ${subflow.name}`, {
    menu,
    data: { subflowId: subflow.id, name: subflow.name, version: subflow.version, outputs: Object.keys(outputs) },
  });
  emitNavigated(ctx, menu, rule, ruleData, target);
  await enterMenu(ctx, target, findMenu(ctx.compiled, frame.from));
  return !isHalted(ctx);
}

/**
 * A rule's `setLanguage`: the session speaks that language from now on. The default language clears the field
 * (absent means default); a language the app does not have (removed since the rule was written) is ignored.
 */
function setLanguage(ctx: HopContext, language: string): void {
  const { compiled, state } = ctx;
  if (language === compiled.defaultLanguage) delete state.language;
  else if (compiled.labels.has(language) && language !== '') state.language = language;
}
