/**
 * The menu edit form's model: what the form holds, how a stored menu loads into it and how it is read back
 * into the body the server takes (the Always goto load and read rules of docs/product.md), and where each of
 * validateMenu's field paths shows in the form.
 */
import {
  ALWAYS_OPERATOR,
  pickMenuMedia,
  type Attachment,
  type MediaInput,
  toMenuScreen,
  validateMenu,
  type Action,
  type FieldError,
  type InputValidation,
  TRANSLATED_FIELDS,
  type LanguageCode,
  type Menu,
  type MenuTranslation,
  type TranslatedField,
  type MenuBody,
  type MenuRef,
  type RuleConsent,
  type RuleHandoff,
  type RuleSubflow,
  type SwitchAction,
  type SwitchOperator,
} from '../../../shared/app';
import type { InputKind } from '../../../shared/media';

/** A navigation rule in the form; `action` is '' until the builder picks goto or Terminate. */
export interface RuleDraft {
  key: string;
  /** A contact field the rule tests instead of the input (`contact.tier`), absent for the input. */
  subject?: string;
  operator: SwitchOperator;
  compareVal: string;
  action: SwitchAction | '';
  actionParam: string;
  /** The language the rule switches the session to (docs/languages.md). */
  setLanguage?: string;
  /** The opt in or out the rule records on the caller's contact (docs/contacts.md, "Consent"). */
  consent?: RuleConsent;
  /** A bot's Terminate rule that hands the conversation to a person (docs/inbox.md), with the reason agents see. */
  handoff?: RuleHandoff;
  /** A goto rule's sub-flow, entered before its target menu (docs/sub-flows.md). */
  subflow?: RuleSubflow;
  /** A Terminate rule's closing text per other language, kept with the rule when rules move. */
  closingTranslations?: Record<string, string>;
}

export type ActionDraft = Action & { key: string };
/** An attachment in the form, with a list key. */
export type AttachmentDraft = Attachment & { key: string };
/** A validation in the form, with its error message per other language (kept with it when validations move). */
export type ValidationDraft = InputValidation & { key: string; errorTranslations?: Record<string, string> };

/** A menu's screen texts in one other language; rules and validations carry their own translated texts. */
export type ScreenTranslation = Pick<MenuTranslation, TranslatedField>;

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
  /** The contact field the input is also saved to: `name`, an attribute key, '' for none (docs/contacts.md). */
  saveToContact: string;
  allowGoBack: boolean;
  goBackInputIndicator: string;
  terminate: boolean;
  alwaysGoto: boolean;
  alwaysTarget: string;
  /** The Always goto rule's language switch, '' for none. */
  alwaysLanguage: string;
  rules: RuleDraft[];
  actions: ActionDraft[];
  validations: ValidationDraft[];
  /** Screen texts per other language of the app, edited side by side on the Menu tab. */
  translations: Record<string, ScreenTranslation>;
  /** A bot's media (Media tab): what the menu asks for, its rules, what it sends, its link button and location request. */
  inputKind: InputKind;
  mediaInput: MediaInput;
  attachments: AttachmentDraft[];
  /** The link button's text and address; both empty for none. */
  linkText: string;
  linkUrl: string;
  requestLocation: boolean;
}

const NO_MEDIA_RULES: MediaInput = { mimeTypes: [], maxBytes: null, errorMessage: '', sizeErrorMessage: '' };

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
    saveToContact: menu.saveToContact ?? '',
    ...toMenuScreen(menu),
    alwaysGoto: isAlwaysOnly,
    alwaysTarget: isAlwaysOnly ? ops[0]!.actionParam : '',
    alwaysLanguage: (isAlwaysOnly && ops[0]!.setLanguage) || '',
    rules: isAlwaysOnly
      ? []
      : ops.map((op, i) => withTranslations({ ...op, key: nextKey('rule') }, 'closingTranslations', pickByIndex(menu, 'closingTexts', i))),
    actions: menu.actions.map((action) => ({ ...action, key: action.id ?? nextKey('action') })),
    validations: menu.inputValidations.map((v, i) =>
      withTranslations({ ...v, key: nextKey('validation') }, 'errorTranslations', pickByIndex(menu, 'errorMessages', i)),
    ),
    translations: Object.fromEntries(
      Object.entries(menu.translations ?? {}).map(([code, t]) => [
        code,
        Object.fromEntries(TRANSLATED_FIELDS.filter((f) => t[f] !== undefined).map((f) => [f, t[f]])),
      ]),
    ),
    inputKind: menu.inputKind ?? 'text',
    mediaInput: { ...NO_MEDIA_RULES, ...menu.mediaInput },
    attachments: (menu.attachments ?? []).map((a) => ({ ...a, key: nextKey('attachment') })),
    linkText: menu.linkButton?.text ?? '',
    linkUrl: menu.linkButton?.url ?? '',
    requestLocation: menu.requestLocation ?? false,
  };
}

/** The media fields as saved: left out where they mean nothing (text input, no rules, nothing sent). */
function readMenuMedia(values: MenuFormValues): Partial<MenuBody> {
  const rules = values.mediaInput;
  const hasRules =
    rules.mimeTypes.length > 0 || rules.maxBytes !== null || rules.errorMessage.trim() !== '' || rules.sizeErrorMessage.trim() !== '';
  return (
    pickMenuMedia({
      inputKind: values.inputKind,
      mediaInput: hasRules ? rules : undefined,
      attachments: values.attachments.map(({ key: _key, ...a }) => a as Attachment),
      linkButton:
        values.linkText.trim() || values.linkUrl.trim() ? { text: values.linkText.trim(), url: values.linkUrl.trim() } : undefined,
      requestLocation: values.requestLocation && values.inputKind === 'location',
    }) ?? {}
  );
}

/** `{ fr: 'Au revoir' }`: the translations of the item at `index` of a by-index list (closing texts, error messages). */
function pickByIndex(menu: MenuDraft, list: 'closingTexts' | 'errorMessages', index: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, t] of Object.entries(menu.translations ?? {})) {
    const text = t[list]?.[index];
    if (text) out[code] = text;
  }
  return out;
}

function withTranslations<T extends object, K extends string>(item: T, key: K, texts: Record<string, string>): T {
  return Object.keys(texts).length > 0 ? { ...item, [key]: texts } : item;
}

/**
 * The menu's translations as saved: screen texts, and the closing texts and error messages by the position of their
 * rule and validation in the saved lists. Empty texts are left out, and a language with none at all.
 */
function readTranslations(values: MenuFormValues, savedRules: RuleDraft[]): Menu['translations'] | undefined {
  const codes = new Set(Object.keys(values.translations));
  for (const rule of savedRules) for (const code of Object.keys(rule.closingTranslations ?? {})) codes.add(code);
  for (const v of values.validations) for (const code of Object.keys(v.errorTranslations ?? {})) codes.add(code);
  const out: NonNullable<Menu['translations']> = {};
  for (const code of codes) {
    const t: MenuTranslation = {};
    for (const field of TRANSLATED_FIELDS) {
      const text = values.translations[code]?.[field];
      if (text?.trim()) t[field] = text;
    }
    const closing = savedRules.map((r) => (r.action === 'Terminate' ? (r.closingTranslations?.[code] ?? '') : ''));
    if (closing.some((c) => c.trim())) t.closingTexts = closing;
    const messages = values.validations.map((v) => v.errorTranslations?.[code] ?? '');
    if (messages.some((m) => m.trim())) t.errorMessages = messages;
    if (Object.keys(t).length > 0) out[code as LanguageCode] = t;
  }
  return Object.keys(out).length > 0 ? out : undefined;
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
  const savedRules: RuleDraft[] = [];
  let switchOperations: Menu['switchOperations'];
  if (values.alwaysGoto) {
    switchOperations = [
      {
        operator: ALWAYS_OPERATOR,
        compareVal: '',
        action: 'goto',
        actionParam: values.alwaysTarget,
        ...(values.alwaysLanguage ? { setLanguage: values.alwaysLanguage as LanguageCode } : {}),
      },
    ];
  } else {
    switchOperations = [];
    values.rules.forEach((rule, formIndex) => {
      if (rule.compareVal.trim() === '' && rule.action === '') return;
      if (rule.action === '') {
        errors.push({ field: `rules.${formIndex}.action`, message: FORM_MESSAGES.ruleActionRequired });
        return;
      }
      savedToForm.push(formIndex);
      savedRules.push(rule);
      switchOperations.push({
        ...(rule.subject?.trim() ? { subject: rule.subject.trim() } : {}),
        operator: rule.operator,
        compareVal: rule.compareVal,
        action: rule.action,
        actionParam: rule.actionParam,
        ...(rule.setLanguage ? { setLanguage: rule.setLanguage as LanguageCode } : {}),
        ...(rule.consent ? { consent: rule.consent } : {}),
        ...(rule.subflow && rule.action === 'goto' ? { subflow: rule.subflow } : {}),
        ...(rule.handoff
          ? {
              handoff: {
                reason: rule.handoff.reason.trim(),
                ...(rule.handoff.whatsappBotId ? { whatsappBotId: rule.handoff.whatsappBotId } : {}),
              },
            }
          : {}),
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
    ...(values.saveToContact.trim() ? { saveToContact: values.saveToContact.trim() } : {}),
    allowGoBack: values.allowGoBack,
    goBackInputIndicator: values.goBackInputIndicator,
    terminate: values.terminate,
    switchOperations,
    actions: values.actions.map(({ key, ...action }) => ({ ...action, id: action.id ?? key }) as Action),
    inputValidations: values.validations.map(({ key: _key, errorTranslations: _translations, ...v }) => v),
    ...readMenuMedia(values),
  };
  const translations = readTranslations(values, savedRules);
  if (translations) body.translations = translations;
  const toFormPath = (field: string) => {
    const match = /^switchOperations\.(\d+)(\..*)?$/.exec(field);
    if (field === 'linkButton.text') return 'linkText';
    if (field === 'linkButton.url') return 'linkUrl';
    if (!match) return field.startsWith('inputValidations.') ? field.replace('inputValidations.', 'validations.') : field;
    if (values.alwaysGoto) return 'alwaysTarget';
    return `rules.${savedToForm[Number(match[1])] ?? match[1]}${match[2] ?? ''}`;
  };
  return { body, errors, toFormPath };
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

export type MenuFormTab = 'menu' | 'navigation' | 'actions' | 'validation' | 'media';

const MEDIA_FIELDS = ['inputKind', 'mediaInput', 'attachments', 'linkButton', 'linkText', 'linkUrl', 'requestLocation'];

/** The tab a form path shows on: `rules.2.compareVal` is on Navigation, `actions.0.code` on Actions. */
export function getTabOfField(field: string): MenuFormTab {
  if (field.startsWith('rules.') || field === 'alwaysTarget' || field.startsWith('switchOperations')) return 'navigation';
  if (field.startsWith('actions')) return 'actions';
  if (MEDIA_FIELDS.some((f) => field === f || field.startsWith(`${f}.`))) return 'media';
  if (field.startsWith('validations') || field.startsWith('inputValidations')) return 'validation';
  return 'menu';
}

export function countErrorsByTab(errors: FormErrors): Record<MenuFormTab, number> {
  const counts: Record<MenuFormTab, number> = { menu: 0, navigation: 0, actions: 0, validation: 0, media: 0 };
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
