/**
 * The menu form's and the menus API's rules, with the product's messages (docs/product.md, Menu edit form). Pure and free of
 * Node-only APIs: the browser form runs the same function before it saves.
 */
import type { Action } from './actions.schema';
import { checkJavascriptSyntax, formatSyntaxError, isJavascriptIdentifier } from './javascript-syntax';
import { validateMenuMedia } from './menu-media.schema';
import { CONTACT_FIELD_MESSAGE, CONTACT_FIELD_PATTERN, type Menu } from './menu.schema';
import { ALWAYS_OPERATOR, compileComparison } from './operators';
import { createMenuRegExpBudget } from './regexp';
import { RULE_SUBJECT_MESSAGE, RULE_SUBJECT_PATTERN } from './switch-operation.schema';

/**
 * Stable names for the problems other tools mark without reading messages: a goto whose target is not in
 * the app (`missing_target`, e.g. the menu was deleted) or was never chosen (`no_target`).
 */
export type MenuIssueCode = 'missing_target' | 'no_target';

/** A goto that leads nowhere (its target deleted or never chosen), from validateMenu or the engine's lint. */
export function isBrokenTargetIssue(issue: { code?: string }): boolean {
  return issue.code === 'missing_target' || issue.code === 'no_target';
}

export interface FieldError {
  /** Path in the menu, e.g. `userDefinedName`, `actions.0.code`, `switchOperations.2.compareVal`. */
  field: string;
  message: string;
  code?: MenuIssueCode;
  /** For javascript syntax errors: where the parser stopped (1-based). */
  line?: number;
  column?: number;
}

export const MENU_MESSAGES = {
  identifierRequired: 'Menu identifier is required.',
  identifierInvalid: 'Menu identifier cannot begin with a number, contain spaces or special characters',
  identifierTaken: 'Menu identifier must be unique in this app.',
  identifierTooLong: 'Menu identifier must be at most 64 characters.',
  textRequired: 'Menu Text cannot be empty.',
  indicatorRequired: 'Indicator cannot be empty when Back Menu is checked.',
  actionNameRequired: 'Action name is required.',
  actionNameInvalid: 'Action name must be a valid JavaScript identifier.',
  actionNameTaken: 'Action name must be unique in this menu.',
  javascriptRequired: 'Enter javascript code',
  urlRequired: 'Request URL is required.',
  methodRequired: 'HTTP method is required.',
  bodyRequired: 'Request body is required for non-GET methods.',
  bodyInvalidJson: 'Request body must be valid JSON.',
  dbUrlRequired: 'Database URL is required.',
  queryRequired: 'Database query is required.',
  smsMobileRequired: 'Recipient mobile is required.',
  smsMessageRequired: 'SMS message is required.',
  paymentMobileRequired: 'Mobile number is required.',
  paymentAmountRequired: 'Amount is required.',
  customActionRequired: 'Select a custom function.',
  targetRequired: 'Select a target menu.',
  targetMissing: 'The target menu does not exist in this app.',
  alwaysNeedsGoto: 'An Always goto rule must go to a menu.',
  handoffNeedsTerminate: 'A rule that hands the conversation to a person ends the session: its action must be Terminate.',
  handoffBotNotFound: 'Pick one of your WhatsApp bots to continue on.',
  handoffWhatsAppOnBot: 'A bot hands over in its own chat: continuing on WhatsApp is for USSD apps.',
  subflowNeedsGoto: 'A rule that enters a sub-flow needs a goto action: the menu the session returns to.',
  subflowRequired: 'Select a sub-flow.',
  returnOutsideSubflow: "Return leaves a sub-flow: only a sub-flow's menus have it.",
  subflowInSubflow: 'A sub-flow cannot enter another sub-flow (or itself): enter them one after the other from the app.',
  subflowNotFound: 'This sub-flow does not exist in your account.',
} as const;

/** The plugin-level error shown on an action card, per kind (the first two are fixed texts of docs/product.md). */
export const ACTION_PLUGIN_ERRORS: Record<Action['inheritsPlugin'], string> = {
  javascript: 'Validation failed in the Javascript action component.',
  restapi: 'Validation failed in the Rest API action component.',
  dbaccess: 'Validation failed in the Database Query action component.',
  sendsms: 'Validation failed in the Send Sms action component.',
  paymentprompt: 'Validation failed in the Payment Prompt action component.',
  customAction: 'Validation failed in the Custom Function action component.',
};

const MENU_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_IDENTIFIER = 64;

/** What validateMenu needs to know of the app's other menus (the lite list is enough). */
export type MenuRef = Pick<Menu, 'uniqueId' | 'userDefinedName'>;

/**
 * An app's menus as validateMenu looks them up: ids, and the ids under each identifier (lower case). Built once
 * for a whole app (an import, a deploy's lint), so checking every menu against the others takes linear time, not
 * a scan of the list per menu.
 */
export interface MenuRefIndex {
  readonly ids: ReadonlySet<string>;
  readonly idsByName: ReadonlyMap<string, ReadonlySet<string>>;
}

/** @example const index = createMenuRefIndex(menus); menus.flatMap((m) => validateMenu(m, index)) */
export function createMenuRefIndex(menus: readonly MenuRef[]): MenuRefIndex {
  const ids = new Set<string>();
  const idsByName = new Map<string, Set<string>>();
  for (const m of menus) {
    ids.add(m.uniqueId);
    const name = m.userDefinedName.trim().toLowerCase();
    const named = idsByName.get(name);
    if (named) named.add(m.uniqueId);
    else idsByName.set(name, new Set([m.uniqueId]));
  }
  return { ids, idsByName };
}

/**
 * Checks one menu against the menu rules and its app's other menus (the list, or its index for many menus; the
 * menu itself may be in either). Returns every problem, each at its field, so a form can mark them all at once;
 * an empty list means the menu can be saved.
 * @example validateMenu({ ...menu, userDefinedName: '1abc' }, others)
 *   // [{ field: 'userDefinedName', message: 'Menu identifier cannot begin with a number, ...' }]
 */
export function validateMenu(
  menu: Menu | (Omit<Menu, 'uniqueId'> & { uniqueId?: string }),
  otherMenusOfApp: readonly MenuRef[] | MenuRefIndex,
): FieldError[] {
  const errors: FieldError[] = [];
  const index = isMenuRefIndex(otherMenusOfApp) ? otherMenusOfApp : createMenuRefIndex(otherMenusOfApp);

  const name = menu.userDefinedName.trim();
  // Another menu has the name when the name's ids hold one that is not this menu's.
  const namedIds = index.idsByName.get(name.toLowerCase());
  const isNameTaken = namedIds !== undefined && (namedIds.size > 1 || !menu.uniqueId || !namedIds.has(menu.uniqueId));
  if (name === '') errors.push({ field: 'userDefinedName', message: MENU_MESSAGES.identifierRequired });
  else if (!MENU_IDENTIFIER.test(name)) errors.push({ field: 'userDefinedName', message: MENU_MESSAGES.identifierInvalid });
  else if (name.length > MAX_IDENTIFIER) errors.push({ field: 'userDefinedName', message: MENU_MESSAGES.identifierTooLong });
  // Case-insensitive: `Amount` and `amount` would be two inputs a builder cannot tell apart.
  else if (isNameTaken) errors.push({ field: 'userDefinedName', message: MENU_MESSAGES.identifierTaken });

  if (menu.displayText.trim() === '') errors.push({ field: 'displayText', message: MENU_MESSAGES.textRequired });
  // A terminating menu is saved with Back off (it takes no input), so its indicator does not matter.
  if (menu.allowGoBack && !menu.terminate && menu.goBackInputIndicator.trim() === '')
    errors.push({ field: 'goBackInputIndicator', message: MENU_MESSAGES.indicatorRequired });

  // The contact's fields as the schema takes them (docs/contacts.md), so the form says so before it saves.
  const saveTo = menu.saveToContact;
  if (saveTo !== undefined && (!CONTACT_FIELD_PATTERN.test(saveTo) || saveTo === 'language'))
    errors.push({ field: 'saveToContact', message: CONTACT_FIELD_MESSAGE });

  // The same order as the engine's compileMenu, so the same pattern is the one over the budget.
  const regexps = createMenuRegExpBudget();
  menu.switchOperations.forEach((rule, i) => {
    const at = `switchOperations.${i}`;
    if (rule.subject !== undefined && !RULE_SUBJECT_PATTERN.test(rule.subject))
      errors.push({ field: `${at}.subject`, message: RULE_SUBJECT_MESSAGE });
    if (rule.operator === ALWAYS_OPERATOR && rule.action !== 'goto')
      errors.push({ field: `${at}.action`, message: MENU_MESSAGES.alwaysNeedsGoto });
    if (rule.operator !== ALWAYS_OPERATOR) {
      const comparison = compileComparison(rule.operator, rule.compareVal, regexps);
      if (!comparison.ok) errors.push({ field: `${at}.compareVal`, message: comparison.error });
    }
    if (rule.handoff !== undefined && rule.action !== 'Terminate')
      errors.push({ field: `${at}.action`, message: MENU_MESSAGES.handoffNeedsTerminate });
    if (rule.subflow !== undefined && rule.action !== 'goto')
      errors.push({ field: `${at}.action`, message: MENU_MESSAGES.subflowNeedsGoto });
    if (rule.subflow !== undefined && rule.subflow.id.trim() === '')
      errors.push({ field: `${at}.subflow.id`, message: MENU_MESSAGES.subflowRequired });
    if (rule.action === 'goto') {
      if (rule.actionParam.trim() === '')
        errors.push({ field: `${at}.actionParam`, message: MENU_MESSAGES.targetRequired, code: 'no_target' });
      else if (!index.ids.has(rule.actionParam) && rule.actionParam !== menu.uniqueId)
        errors.push({ field: `${at}.actionParam`, message: MENU_MESSAGES.targetMissing, code: 'missing_target' });
    }
  });

  const seenNames = new Set<string>();
  menu.actions.forEach((action, i) => {
    const at = `actions.${i}`;
    const before = errors.length;
    const actionName = action.actionName.trim();
    if (actionName === '') errors.push({ field: `${at}.actionName`, message: MENU_MESSAGES.actionNameRequired });
    else if (!isJavascriptIdentifier(actionName)) errors.push({ field: `${at}.actionName`, message: MENU_MESSAGES.actionNameInvalid });
    else if (seenNames.has(actionName)) errors.push({ field: `${at}.actionName`, message: MENU_MESSAGES.actionNameTaken });
    seenNames.add(actionName);
    errors.push(...validateActionCode(action, at));
    if (errors.length > before) errors.push({ field: at, message: ACTION_PLUGIN_ERRORS[action.inheritsPlugin] });
  });

  menu.inputValidations.forEach((validation, i) => {
    const at = `inputValidations.${i}`;
    if (validation.validationMethod === 'javascript') {
      errors.push(...validateJavascript(validation.validationFunction, `${at}.validationFunction`));
      return;
    }
    const comparison = compileComparison(validation.validationMethod, validation.compareValue, regexps);
    if (!comparison.ok) errors.push({ field: `${at}.compareValue`, message: comparison.error });
  });

  errors.push(...validateMenuMedia(menu));
  return errors;
}

const isMenuRefIndex = (refs: readonly MenuRef[] | MenuRefIndex): refs is MenuRefIndex => !Array.isArray(refs);

function validateJavascript(code: string, field: string): FieldError[] {
  if (code.trim() === '') return [{ field, message: MENU_MESSAGES.javascriptRequired }];
  const check = checkJavascriptSyntax(code);
  if (check.ok) return [];
  return [{ field, message: formatSyntaxError(check), line: check.line, column: check.column }];
}

/** Kind-specific rules; `at` is the action's path, e.g. `actions.0`. */
export function validateActionCode(action: Action, at: string): FieldError[] {
  const field = (name: string) => `${at}.code${name ? `.${name}` : ''}`;
  const required = (value: string, name: string, message: string): FieldError[] =>
    value.trim() === '' ? [{ field: field(name), message }] : [];
  switch (action.inheritsPlugin) {
    case 'javascript':
      return validateJavascript(action.code, field(''));
    case 'restapi': {
      const code = action.code;
      const errors = [
        ...required(code.url, 'url', MENU_MESSAGES.urlRequired),
        ...required(code.method, 'method', MENU_MESSAGES.methodRequired),
      ];
      if (code.method !== '' && code.method !== 'GET') {
        if (code.payload.trim() === '') errors.push({ field: field('payload'), message: MENU_MESSAGES.bodyRequired });
        else if (code.contentType === 'application/json' && !isJsonTemplate(code.payload))
          errors.push({ field: field('payload'), message: MENU_MESSAGES.bodyInvalidJson });
      }
      return errors;
    }
    case 'dbaccess':
      return [
        ...required(action.code.dburl, 'dburl', MENU_MESSAGES.dbUrlRequired),
        ...required(action.code.query, 'query', MENU_MESSAGES.queryRequired),
      ];
    case 'sendsms':
      return [
        ...required(action.code.mobile, 'mobile', MENU_MESSAGES.smsMobileRequired),
        ...required(action.code.smsMessage, 'smsMessage', MENU_MESSAGES.smsMessageRequired),
      ];
    case 'paymentprompt':
      return [
        ...required(action.code.mobile, 'mobile', MENU_MESSAGES.paymentMobileRequired),
        ...required(action.code.amount, 'amount', MENU_MESSAGES.paymentAmountRequired),
      ];
    case 'customAction':
      return required(action.code.uuid, 'uuid', MENU_MESSAGES.customActionRequired);
  }
}

/**
 * A JSON payload may hold template expressions (`{"amount": {{ session.inputs.amount }}}`), which are only
 * JSON once rendered. Each `{{ ... }}` is replaced by a number and each `{% ... %}` tag dropped before parsing,
 * so `"{{ x }}"` and `{{ x }}` both count as valid while a missing brace still does not.
 */
export function isJsonTemplate(payload: string): boolean {
  const probe = payload.replace(/\{\{[\s\S]*?\}\}/g, '0').replace(/\{%[\s\S]*?%\}/g, '');
  try {
    JSON.parse(probe);
    return true;
  } catch {
    return false;
  }
}
