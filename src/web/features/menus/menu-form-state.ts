/**
 * The menu edit form's model: what the form holds, how a stored menu loads into it and how it is read back
 * into the body the server takes (the Always goto load and read rules of docs/product.md), and where each of
 * validateMenu's field paths shows in the form.
 */
import {
  ALWAYS_OPERATOR,
  toMenuScreen,
  validateMenu,
  type Action,
  type FieldError,
  type InputValidation,
  type LanguageCode,
  type Menu,
  type MenuBody,
  type MenuRef,
  type SwitchAction,
  type SwitchOperator,
} from '../../../shared/app';

/** A navigation rule in the form; `action` is '' until the builder picks goto or Terminate. */
export interface RuleDraft {
  key: string;
  operator: SwitchOperator;
  compareVal: string;
  action: SwitchAction | '';
  actionParam: string;
  /** The language the rule switches the session to (docs/languages.md), kept as loaded. */
  setLanguage?: string;
}

export type ActionDraft = Action & { key: string };
export type ValidationDraft = InputValidation & { key: string };

export interface MenuFormValues {
  uniqueId?: string;
  appId: string;
  isFirst: boolean;
  parentMenuId: string | null;
  userDefinedName: string;
  displayText: string;
  headerText: string;
  footerText: string;
  inputHolder: string;
  allowGoBack: boolean;
  goBackInputIndicator: string;
  terminate: boolean;
  alwaysGoto: boolean;
  alwaysTarget: string;
  rules: RuleDraft[];
  actions: ActionDraft[];
  validations: ValidationDraft[];
  /** Texts per other language of the app, edited side by side on the Menu tab. */
  translations: NonNullable<Menu['translations']>;
}

export type MenuDraft = Omit<Menu, 'uniqueId'> & { uniqueId?: string };

/** The draft as a saved menu, or null for a new one. */
export const asSavedMenu = (draft: MenuDraft): Menu | null => (draft.uniqueId ? (draft as Menu) : null);

export const FORM_MESSAGES = {
  ruleActionRequired: 'Choose goto or Terminate.',
  actionOpen: 'Finish the open action first, with its own buttons above.',
} as const;

let keySeed = 0;
/** List keys for rows that have no id of their own. */
export const nextKey = (prefix: string) => `${prefix}-${++keySeed}`;

/**
 * A new action's id: two random digits followed by the milliseconds of the current time.
 * @example createActionId() // '471718000000123'
 */
export function createActionId(now = Date.now()): string {
  return `${Math.floor(Math.random() * 90 + 10)}${now}`;
}

export function createRuleDraft(): RuleDraft {
  return { key: nextKey('rule'), operator: 'eq', compareVal: '', action: '', actionParam: '' };
}

/** Load rule: a single stored 'always' rule turns the Always goto checkbox on and leaves the list empty. */
export function loadMenuForm(menu: MenuDraft): MenuFormValues {
  const ops = menu.switchOperations;
  const isAlwaysOnly = ops.length === 1 && ops[0]!.operator === ALWAYS_OPERATOR;
  return {
    uniqueId: menu.uniqueId,
    appId: menu.appId,
    isFirst: menu.isFirst,
    parentMenuId: menu.parentMenuId,
    userDefinedName: menu.userDefinedName,
    ...toMenuScreen(menu),
    alwaysGoto: isAlwaysOnly,
    alwaysTarget: isAlwaysOnly ? ops[0]!.actionParam : '',
    rules: isAlwaysOnly ? [] : ops.map((op) => ({ ...op, key: nextKey('rule') })),
    actions: menu.actions.map((action) => ({ ...action, key: action.id ?? nextKey('action') })),
    validations: menu.inputValidations.map((v) => ({ ...v, key: nextKey('validation') })),
    translations: menu.translations ?? {},
  };
}

/**
 * Terminate on turns Back Menu off (an ending screen takes no input); off again, Back Menu is back to a new
 * menu's default (on, indicator '0' when it had none).
 */
export function toggleTerminate(values: Pick<MenuFormValues, 'goBackInputIndicator'>, terminate: boolean): Partial<MenuFormValues> {
  return terminate
    ? { terminate, allowGoBack: false }
    : { terminate, allowGoBack: true, goBackInputIndicator: values.goBackInputIndicator || '0' };
}

export interface ReadMenuForm {
  body: MenuBody;
  /** Form-only problems (a rule with a value but no action), keyed like validateMenu's. */
  errors: FieldError[];
  /** Maps a saved `switchOperations.N` path prefix to the form's (`rules.M` or `alwaysTarget`). */
  toFormPath: (field: string) => string;
}

/**
 * Read rule: an active Always goto saves only that rule; otherwise rules with both an empty compare value
 * and no action are dropped. A rule with a value but no action is kept out of the body and reported.
 */
export function readMenuForm(values: MenuFormValues): ReadMenuForm {
  const errors: FieldError[] = [];
  const savedToForm: number[] = [];
  let switchOperations: Menu['switchOperations'];
  if (values.alwaysGoto) {
    switchOperations = [{ operator: ALWAYS_OPERATOR, compareVal: '', action: 'goto', actionParam: values.alwaysTarget }];
  } else {
    switchOperations = [];
    values.rules.forEach((rule, formIndex) => {
      if (rule.compareVal.trim() === '' && rule.action === '') return;
      if (rule.action === '') {
        errors.push({ field: `rules.${formIndex}.action`, message: FORM_MESSAGES.ruleActionRequired });
        return;
      }
      savedToForm.push(formIndex);
      switchOperations.push({
        operator: rule.operator,
        compareVal: rule.compareVal,
        action: rule.action,
        actionParam: rule.actionParam,
        ...(rule.setLanguage ? { setLanguage: rule.setLanguage as LanguageCode } : {}),
      });
    });
  }
  const body: MenuBody = {
    ...(values.uniqueId ? { uniqueId: values.uniqueId } : {}),
    appId: values.appId,
    isFirst: values.isFirst,
    parentMenuId: values.parentMenuId,
    userDefinedName: values.userDefinedName.trim(),
    displayText: values.displayText,
    headerText: values.headerText,
    footerText: values.footerText,
    inputHolder: values.inputHolder,
    allowGoBack: values.allowGoBack,
    goBackInputIndicator: values.goBackInputIndicator,
    terminate: values.terminate,
    switchOperations,
    actions: values.actions.map(({ key, ...action }) => ({ ...action, id: action.id ?? key }) as Action),
    inputValidations: values.validations.map(({ key: _key, ...v }) => v),
    ...(hasTranslations(values.translations) ? { translations: values.translations } : {}),
  };
  const toFormPath = (field: string) => {
    const match = /^switchOperations\.(\d+)(\..*)?$/.exec(field);
    if (!match) return field.startsWith('inputValidations.') ? field.replace('inputValidations.', 'validations.') : field;
    if (values.alwaysGoto) return 'alwaysTarget';
    return `rules.${savedToForm[Number(match[1])] ?? match[1]}${match[2] ?? ''}`;
  };
  return { body, errors, toFormPath };
}

/** Whether any translated text is filled in (an emptied one is not a change worth saving). */
function hasTranslations(translations: MenuFormValues['translations']): boolean {
  return Object.values(translations).some((t) =>
    Object.values(t).some((v) => (typeof v === 'string' ? v.trim() !== '' : Array.isArray(v) && v.some((x) => x.trim() !== ''))),
  );
}

export type FormErrors = Record<string, FieldError>;

/** Every problem of the form, keyed by form path (first message per field wins). */
export function checkMenuForm(values: MenuFormValues, others: readonly MenuRef[]): { body: MenuBody; errors: FormErrors } {
  const read = readMenuForm(values);
  const all = [...read.errors, ...validateMenu(read.body, others).map((e) => ({ ...e, field: read.toFormPath(e.field) }))];
  return { body: read.body, errors: toFormErrors(all) };
}

export function toFormErrors(list: readonly FieldError[]): FormErrors {
  const errors: FormErrors = {};
  for (const error of list) errors[error.field] ??= error;
  return errors;
}

export type MenuFormTab = 'menu' | 'navigation' | 'actions' | 'validation';

/** The tab a form path shows on: `rules.2.compareVal` is on Navigation, `actions.0.code` on Actions. */
export function getTabOfField(field: string): MenuFormTab {
  if (field.startsWith('rules.') || field === 'alwaysTarget' || field.startsWith('switchOperations')) return 'navigation';
  if (field.startsWith('actions')) return 'actions';
  if (field.startsWith('validations') || field.startsWith('inputValidations')) return 'validation';
  return 'menu';
}

export function countErrorsByTab(errors: FormErrors): Record<MenuFormTab, number> {
  const counts: Record<MenuFormTab, number> = { menu: 0, navigation: 0, actions: 0, validation: 0 };
  for (const field of Object.keys(errors)) counts[getTabOfField(field)] += 1;
  return counts;
}

/** The errors under one prefix, with the prefix cut: `errorsUnder(errors, 'actions.0')['code.url']`. */
export function errorsUnder(errors: FormErrors, prefix: string): FormErrors {
  const out: FormErrors = {};
  for (const [field, error] of Object.entries(errors)) {
    if (field === prefix) out[''] = error;
    else if (field.startsWith(`${prefix}.`)) out[field.slice(prefix.length + 1)] = error;
  }
  return out;
}

/** True when the form differs from what it was loaded with (keys aside). */
export function isFormDirty(initial: MenuFormValues, current: MenuFormValues): boolean {
  return JSON.stringify(readMenuForm(initial).body) !== JSON.stringify(readMenuForm(current).body);
}
