/**
 * compileApp: everything about an app version that does not depend on a session, done once per version
 * (templates parsed, comparisons compiled, menus indexed) so a hop only looks things up and renders.
 */
import {
  ALWAYS_OPERATOR,
  compileComparison,
  createMenuRegExpBudget,
  getScreenLimit,
  type Action,
  type AppVersion,
  type InputValidation,
  type Menu,
  type SwitchOperation,
} from '../shared/app';
import { compileDialPattern, type DialPattern } from './dial';
import { compileTemplate, type CompiledTemplate } from './render';

export interface CompiledRule {
  index: number;
  rule: SwitchOperation;
  /** null when the compare value is unusable: the rule never matches (lint reports it, a hop logs it). */
  test: ((input: string) => boolean) | null;
  /** Why `test` is null. */
  error: string | null;
  /** The closing text of a Terminate rule. */
  closing: CompiledTemplate | null;
}

export interface CompiledValidation {
  index: number;
  validation: InputValidation;
  /** null for the javascript method (run by the action runner) and for an unusable compare value. */
  test: ((input: string) => boolean) | null;
  error: string | null;
}

export interface CompiledMenu {
  menu: Menu;
  uniqueId: string;
  identifier: string;
  header: CompiledTemplate;
  text: CompiledTemplate;
  footer: CompiledTemplate;
  /** The Always goto rule, which wins over every other rule. */
  alwaysRule: CompiledRule | null;
  rules: CompiledRule[];
  validations: CompiledValidation[];
  preActions: Action[];
  postActions: Action[];
  /** The back indicator when Back Menu is on, else ''. */
  backIndicator: string;
}

export interface CompiledApp {
  app: AppVersion;
  menus: Map<string, CompiledMenu>;
  byIdentifier: Map<string, CompiledMenu>;
  order: CompiledMenu[];
  first: CompiledMenu | null;
  dial: DialPattern;
  /** Characters one screen may hold (getScreenLimit: the USSD limit, or a WhatsApp message's). */
  screenLimit: number;
  /** Templates inside action fields (url, payload, SMS text...), parsed on first use and kept. */
  actionTemplates: Map<string, CompiledTemplate>;
}

/** Bound on the lazily filled action-template cache, so odd runner input cannot grow it forever. */
export const MAX_ACTION_TEMPLATES = 2000;

/** @example const compiled = compileApp(appVersion); cache.set(appVersion.versionId, compiled); */
export function compileApp(app: AppVersion): CompiledApp {
  const order = app.menus.map(compileMenu);
  const menus = new Map(order.map((m) => [m.uniqueId, m]));
  const byIdentifier = new Map<string, CompiledMenu>();
  for (const m of order) if (m.identifier && !byIdentifier.has(m.identifier)) byIdentifier.set(m.identifier, m);
  const compiled: CompiledApp = {
    app,
    menus,
    byIdentifier,
    order,
    first: order.find((m) => m.menu.isFirst) ?? order[0] ?? null,
    dial: compileDialPattern(app.shortCode),
    screenLimit: getScreenLimit(app),
    actionTemplates: new Map(),
  };
  for (const m of order)
    for (const action of m.menu.actions) for (const source of findActionTemplates(action)) getActionTemplate(compiled, source);
  return compiled;
}

function compileMenu(menu: Menu): CompiledMenu {
  // In validateMenu's order, so a menu saved under older rules has the same patterns refused here.
  const regexps = createMenuRegExpBudget();
  const rules = menu.switchOperations.map((rule, index): CompiledRule => {
    const comparison = rule.operator === ALWAYS_OPERATOR ? null : compileComparison(rule.operator, rule.compareVal, regexps);
    return {
      index,
      rule,
      test: comparison === null ? () => true : comparison.ok ? comparison.test : null,
      error: comparison === null || comparison.ok ? null : comparison.error,
      closing: rule.action === 'Terminate' && rule.actionParam.trim() !== '' ? compileTemplate(rule.actionParam) : null,
    };
  });
  return {
    menu,
    uniqueId: menu.uniqueId,
    identifier: menu.userDefinedName.trim(),
    header: compileTemplate(menu.headerText),
    text: compileTemplate(menu.displayText),
    footer: compileTemplate(menu.footerText),
    alwaysRule: rules.find((r) => r.rule.operator === ALWAYS_OPERATOR) ?? null,
    rules: rules.filter((r) => r.rule.operator !== ALWAYS_OPERATOR),
    validations: menu.inputValidations.map((validation, index): CompiledValidation => {
      if (validation.validationMethod === 'javascript') return { index, validation, test: null, error: null };
      const comparison = compileComparison(validation.validationMethod, validation.compareValue, regexps);
      return comparison.ok
        ? { index, validation, test: comparison.test, error: null }
        : { index, validation, test: null, error: comparison.error };
    }),
    preActions: menu.actions.filter((a) => a.actionType === 'pre'),
    postActions: menu.actions.filter((a) => a.actionType === 'post'),
    backIndicator: menu.allowGoBack ? menu.goBackInputIndicator.trim() : '',
  };
}

/** The action fields that are templates (dbaccess queries are bound by the runner, not rendered). */
export function findActionTemplates(action: Action): string[] {
  switch (action.inheritsPlugin) {
    case 'restapi':
      return [action.code.url, action.code.payload, ...action.code.headers.map((h) => h.value)].filter((s) => s !== '');
    case 'sendsms':
      return [action.code.smsSender, action.code.mobile, action.code.smsMessage].filter((s) => s !== '');
    case 'paymentprompt':
      return [action.code.mobile, action.code.amount, action.code.network].filter((s) => s !== '');
    default:
      return [];
  }
}

export function getActionTemplate(compiled: CompiledApp, source: string): CompiledTemplate {
  const cached = compiled.actionTemplates.get(source);
  if (cached) return cached;
  const template = compileTemplate(source);
  if (compiled.actionTemplates.size < MAX_ACTION_TEMPLATES) compiled.actionTemplates.set(source, template);
  return template;
}

/** A goto target is a uniqueId; steering names a menu by identifier. Either is accepted. */
export function findMenu(compiled: CompiledApp, ref: string): CompiledMenu | null {
  return compiled.menus.get(ref) ?? compiled.byIdentifier.get(ref) ?? null;
}
