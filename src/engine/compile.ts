/**
 * compileApp: everything about an app version that does not depend on a session, done once per version
 * (templates parsed, comparisons compiled, menus indexed) so a hop only looks things up and renders.
 */
import {
  ALWAYS_OPERATOR,
  compileComparison,
  createMenuRegExpBudget,
  DEFAULT_ENGINE_LABELS,
  ENGINE_LABEL_KEYS,
  getInputKind,
  getScreenLimit,
  listAppLanguages,
  type Action,
  type AppVersion,
  type EngineLabels,
  type InputValidation,
  type Menu,
  type MenuTranslation,
  type SubflowVersion,
  type SwitchOperation,
  toMediaSubject,
  toSubflowMenuId,
  parseSubflowMenuId,
  toSubjectField,
} from '../shared/app';
import type { InputKind } from '../shared/media';
import { compileDialPattern, type DialPattern } from './dial';
import type { ScreenCarrier } from './pagination';
import { compileTemplate, type CompiledTemplate } from './render';

export interface CompiledRule {
  index: number;
  rule: SwitchOperation;
  /** The contact field the rule tests (its `subject`, `contact.city` -> `city`), null when it tests the input. */
  contactField: string | null;
  /** The received file's field the rule tests (`session.media.photo.size` -> `['photo', 'size']`), null when none. */
  mediaSubject: [identifier: string, field: string] | null;
  /** null when the compare value is unusable: the rule never matches (lint reports it, a hop logs it). */
  test: ((input: string) => boolean) | null;
  /** Why `test` is null. */
  error: string | null;
  /** The closing text of a Terminate rule. */
  closing: CompiledTemplate | null;
  /** A rule entering a sub-flow: the templates of the inputs it passes, by input name; null for any other rule. */
  subflowInputs: Array<{ name: string; value: CompiledTemplate }> | null;
}

export interface CompiledValidation {
  index: number;
  validation: InputValidation;
  /** null for the javascript method (run by the action runner) and for an unusable compare value. */
  test: ((input: string) => boolean) | null;
  error: string | null;
}

/** A menu's texts in one other language; null (or '') where the default language's text is used. */
export interface CompiledTranslation {
  header: CompiledTemplate | null;
  text: CompiledTemplate | null;
  footer: CompiledTemplate | null;
  inputHolder: string;
  /** By validation index: the translated error message, '' for none. */
  errorMessages: string[];
  /** By rule index: the translated closing text of a Terminate rule. */
  closing: (CompiledTemplate | null)[];
}

export interface CompiledMenu {
  menu: Menu;
  uniqueId: string;
  identifier: string;
  /** How events name the menu: its identifier, or `<sub-flow> › <identifier>` for a sub-flow's (docs/sub-flows.md). */
  label: string;
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
  /** By language code, for the app's other languages only. */
  translations: Map<string, CompiledTranslation>;
  /** The contact field the menu's input is saved to, null for none. */
  saveToContact: string | null;
  /** What the menu asks for: its inputKind in a bot; always text on USSD, which carries no files (docs/bots.md, "Media"). */
  inputKind: InputKind;
  /** Whether its attachments, link button and location request are sent: in a bot only. */
  sendsMedia: boolean;
}

/**
 * A sub-flow the app's rules enter (docs/sub-flows.md): its menus are in `CompiledApp.menus` under
 * `<sub-flow id>/<uniqueId>` (toSubflowMenuId), its entry is its first menu.
 */
export interface CompiledSubflow {
  id: string;
  name: string;
  /** The sub-flow's version frozen in this app version; 0 for its draft. */
  version: number;
  entry: CompiledMenu | null;
  inputs: string[];
  outputs: Array<{ name: string; value: CompiledTemplate }>;
  /** Its menus in order, under their compiled ids. */
  order: CompiledMenu[];
}

export interface CompiledApp {
  app: AppVersion;
  /** The app's menus by uniqueId, and its sub-flows' by `<sub-flow id>/<uniqueId>`. */
  menus: Map<string, CompiledMenu>;
  /** By sub-flow id. */
  subflows: Map<string, CompiledSubflow>;
  byIdentifier: Map<string, CompiledMenu>;
  order: CompiledMenu[];
  first: CompiledMenu | null;
  dial: DialPattern;
  /** Characters one screen may hold (getScreenLimit: the USSD limit, or a WhatsApp message's). */
  screenLimit: number;
  /**
   * How a screen's length is counted: `ussd` as the network carries it (GSM-7 septets or UCS-2,
   * src/shared/ussd-encoding.ts), `chat` in UTF-16 units (a WhatsApp message carries any text).
   */
  screenCarrier: ScreenCarrier;
  /**
   * Whether a hop may read or change the caller's contact (a `contact` variable in a template, a menu's
   * saveToContact, a rule on a contact field, a script that may call `contact.get` / `contact.set`): the runtime loads the contact for such an app's sessions only.
   */
  usesContact: boolean;
  /** Templates inside action fields (url, payload, SMS text...), parsed on first use and kept. */
  actionTemplates: Map<string, CompiledTemplate>;
  /** The app's default language, '' for an app without languages. */
  defaultLanguage: string;
  /** The engine's words per language of the app, each falling back to the default language's, then to English. */
  labels: Map<string, EngineLabels>;
}

/**
 * `contact` inside a Liquid output or tag, anywhere in the menus: a cheap test that may say yes for a text that
 * only looks like one (the cost is one read a session), never no for one that reads it.
 */
const CONTACT_VARIABLE = /\{[{%][^}]*\bcontact\b/;

/** `contact.get(` / `contact.set(` in a script, spaced or not: a cheap test, as CONTACT_VARIABLE. */
const CONTACT_CALL = /\bcontact\s*\.\s*(get|set)\b/;

/**
 * A menu that reads or writes the contact by itself: saveToContact, a rule on a contact field, a script calling
 * the sandbox's `contact`, or a custom function (its code is the account's, not the app's: it may call it).
 */
function usesContact(m: CompiledMenu): boolean {
  if (m.saveToContact !== null || m.alwaysRule?.contactField || m.rules.some((r) => r.contactField !== null)) return true;
  if (m.menu.inputValidations.some((v) => v.validationMethod === 'javascript' && CONTACT_CALL.test(v.validationFunction))) return true;
  return m.menu.actions.some(
    (a) => a.inheritsPlugin === 'customAction' || (a.inheritsPlugin === 'javascript' && CONTACT_CALL.test(a.code ?? '')),
  );
}

/** Bound on the lazily filled action-template cache, so odd runner input cannot grow it forever. */
export const MAX_ACTION_TEMPLATES = 2000;

/** @example const compiled = compileApp(appVersion); cache.set(appVersion.versionId, compiled); */
export function compileApp(app: AppVersion): CompiledApp {
  const others = new Set(app.languages?.otherLanguages ?? []);
  const isBot = app.channel === 'whatsapp';
  const order = app.menus.map((menu) => compileMenu(menu, others, isBot));
  const menus = new Map(order.map((m) => [m.uniqueId, m]));
  const subflows = new Map<string, CompiledSubflow>();
  for (const subflow of app.subflows ?? []) {
    const compiledSubflow = compileSubflow(subflow, others, isBot);
    subflows.set(subflow.id, compiledSubflow);
    for (const m of compiledSubflow.order) menus.set(m.uniqueId, m);
  }
  const byIdentifier = new Map<string, CompiledMenu>();
  for (const m of order) if (m.identifier && !byIdentifier.has(m.identifier)) byIdentifier.set(m.identifier, m);
  const compiled: CompiledApp = {
    app,
    menus,
    subflows,
    byIdentifier,
    order,
    first: order.find((m) => m.menu.isFirst) ?? order[0] ?? null,
    dial: compileDialPattern(app.shortCode),
    screenLimit: getScreenLimit(app),
    screenCarrier: isBot ? 'chat' : 'ussd',
    actionTemplates: new Map(),
    defaultLanguage: app.languages?.defaultLanguage ?? '',
    labels: compileLabels(app),
    usesContact: order.some(usesContact) || CONTACT_VARIABLE.test(JSON.stringify(app.menus)),
  };
  for (const m of menus.values())
    for (const action of m.menu.actions) for (const source of findActionTemplates(action)) getActionTemplate(compiled, source);
  if (!compiled.usesContact && subflows.size > 0)
    compiled.usesContact =
      [...subflows.values()].some((sf) => sf.order.some(usesContact)) || CONTACT_VARIABLE.test(JSON.stringify(app.subflows));
  return compiled;
}

/**
 * A sub-flow's menus under their compiled ids (`<sub-flow id>/<uniqueId>`), its gotos between them renamed the
 * same way, so a session inside it moves among its own menus only. A goto to a menu it does not have stays as
 * written: the engine ends such a session as for any missing menu.
 */
export function toSubflowMenus(subflow: Pick<SubflowVersion, 'id' | 'menus'>): Menu[] {
  const ids = new Set(subflow.menus.map((m) => m.uniqueId));
  const rename = (id: string) => (ids.has(id) ? toSubflowMenuId(subflow.id, id) : id);
  return subflow.menus.map((menu) => ({
    ...menu,
    uniqueId: rename(menu.uniqueId),
    switchOperations: menu.switchOperations.map((rule) =>
      rule.action === 'goto' ? { ...rule, actionParam: rename(rule.actionParam) } : rule,
    ),
  }));
}

function compileSubflow(subflow: SubflowVersion, otherLanguages: Set<string>, isBot: boolean): CompiledSubflow {
  const order = toSubflowMenus(subflow).map((menu) => {
    const compiled = compileMenu(menu, otherLanguages, isBot);
    compiled.label = `${subflow.name} › ${compiled.identifier}`;
    return compiled;
  });
  return {
    id: subflow.id,
    name: subflow.name,
    version: subflow.version,
    entry: order.find((m) => m.menu.isFirst) ?? order[0] ?? null,
    inputs: subflow.inputs.map((i) => i.name),
    outputs: subflow.outputs.map((o) => ({ name: o.name, value: compileTemplate(o.value) })),
    order,
  };
}

function compileLabels(app: AppVersion): Map<string, EngineLabels> {
  const labels = new Map<string, EngineLabels>();
  const given = app.languages?.labels ?? {};
  const defaults = { ...DEFAULT_ENGINE_LABELS };
  const fallback = app.languages ? given[app.languages.defaultLanguage] : undefined;
  for (const key of ENGINE_LABEL_KEYS) if (fallback?.[key]) defaults[key] = fallback[key];
  for (const code of listAppLanguages(app.languages)) {
    const own = { ...defaults };
    for (const key of ENGINE_LABEL_KEYS) if (given[code]?.[key]) own[key] = given[code][key];
    labels.set(code, own);
  }
  labels.set('', defaults);
  return labels;
}

const compileOptional = (source: string | undefined) => (source && source.trim() !== '' ? compileTemplate(source) : null);

function compileTranslation(menu: Menu, t: MenuTranslation): CompiledTranslation {
  return {
    header: compileOptional(t.headerText),
    text: compileOptional(t.displayText),
    footer: compileOptional(t.footerText),
    inputHolder: t.inputHolder?.trim() ?? '',
    errorMessages: menu.inputValidations.map((_, i) => t.errorMessages?.[i]?.trim() ?? ''),
    closing: menu.switchOperations.map((rule, i) => (rule.action === 'Terminate' ? compileOptional(t.closingTexts?.[i]) : null)),
  };
}

function compileMenu(menu: Menu, otherLanguages: Set<string>, isBot: boolean): CompiledMenu {
  // In validateMenu's order, so a menu saved under older rules has the same patterns refused here.
  const regexps = createMenuRegExpBudget();
  const rules = menu.switchOperations.map((rule, index): CompiledRule => {
    const comparison = rule.operator === ALWAYS_OPERATOR ? null : compileComparison(rule.operator, rule.compareVal, regexps);
    return {
      index,
      rule,
      contactField: rule.subject === undefined || rule.operator === ALWAYS_OPERATOR ? null : toSubjectField(rule.subject),
      mediaSubject: rule.subject === undefined || rule.operator === ALWAYS_OPERATOR ? null : toMediaSubject(rule.subject),
      test: comparison === null ? () => true : comparison.ok ? comparison.test : null,
      error: comparison === null || comparison.ok ? null : comparison.error,
      closing: rule.action === 'Terminate' && rule.actionParam.trim() !== '' ? compileTemplate(rule.actionParam) : null,
      subflowInputs: rule.subflow
        ? Object.entries(rule.subflow.inputs).map(([name, value]) => ({ name, value: compileTemplate(value) }))
        : null,
    };
  });
  return {
    menu,
    uniqueId: menu.uniqueId,
    identifier: menu.userDefinedName.trim(),
    label: menu.userDefinedName.trim(),
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
    translations: new Map(
      Object.entries(menu.translations ?? {})
        .filter(([code]) => otherLanguages.has(code))
        .map(([code, t]) => [code, compileTranslation(menu, t)]),
    ),
    saveToContact: menu.saveToContact ?? null,
    inputKind: isBot ? getInputKind(menu) : 'text',
    sendsMedia: isBot,
  };
}

/** A menu's media fields that are templates, each with its path (`attachments.0.caption`), for the lint. */
export function findMediaTemplates(menu: Menu): Array<[field: string, source: string]> {
  const found: Array<[string, string]> = [];
  (menu.attachments ?? []).forEach((a, i) => {
    const at = `attachments.${i}`;
    if (a.type === 'file') {
      found.push([`${at}.caption`, a.caption]);
      if (a.source === 'url') found.push([`${at}.value`, a.value]);
    } else if (a.type === 'location') {
      found.push([`${at}.latitude`, a.latitude], [`${at}.longitude`, a.longitude], [`${at}.name`, a.name], [`${at}.address`, a.address]);
    } else {
      found.push([`${at}.name`, a.name], ...a.phones.map((p, j): [string, string] => [`${at}.phones.${j}`, p]));
    }
  });
  if (menu.linkButton) found.push(['linkButton.text', menu.linkButton.text], ['linkButton.url', menu.linkButton.url]);
  return found.filter(([, source]) => source !== '');
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

/** One of the app's own menus by uniqueId, never a sub-flow's (a session enters those through a rule only). */
export function findOwnMenu(compiled: CompiledApp, uniqueId: string): CompiledMenu | null {
  return parseSubflowMenuId(uniqueId) === null ? (compiled.menus.get(uniqueId) ?? null) : null;
}
