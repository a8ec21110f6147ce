import { describe, expect, it } from 'vitest';
import { CONTACT_FIELD_MESSAGE, createMenuDraft, MENU_MESSAGES, RULE_SUBJECT_MESSAGE } from '../../../shared/app';
import { moveItem } from './menu-row-buttons';
import {
  checkMenuForm,
  countErrorsByTab,
  createActionId,
  createRuleDraft,
  FORM_MESSAGES,
  loadMenuForm,
  readMenuForm,
  toggleTerminate,
} from './menu-form-state';

const others = [
  { uniqueId: 'm1', userDefinedName: 'home' },
  { uniqueId: 'm2', userDefinedName: 'pay' },
];

function form(overrides: Partial<ReturnType<typeof createMenuDraft>> = {}) {
  return loadMenuForm({ ...createMenuDraft('app1'), userDefinedName: 'amount', displayText: 'Enter amount', ...overrides });
}

describe('menu form load and read rules', () => {
  it('a new menu starts with Back Menu on, indicator 0 and empty lists', () => {
    const values = loadMenuForm(createMenuDraft('app1'));
    expect(values.allowGoBack).toBe(true);
    expect(values.goBackInputIndicator).toBe('0');
    expect(values.rules).toEqual([]);
    expect(values.alwaysGoto).toBe(false);
  });

  it('a terminating menu has no Back: Terminate turns it off, and a stored one loads with it off', () => {
    expect(toggleTerminate({ goBackInputIndicator: '0' }, true)).toEqual({ terminate: true, allowGoBack: false });
    // Off again: a new menu's default, with an indicator to go with it.
    expect(toggleTerminate({ goBackInputIndicator: '' }, false)).toEqual({
      terminate: false,
      allowGoBack: true,
      goBackInputIndicator: '0',
    });
    expect(form({ terminate: true, allowGoBack: true }).allowGoBack).toBe(false);
    expect(form({ terminate: false, allowGoBack: true }).allowGoBack).toBe(true);
  });

  it('a single stored always rule turns the checkbox on and leaves the list empty', () => {
    const values = form({ switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: 'm2' }] });
    expect(values.alwaysGoto).toBe(true);
    expect(values.alwaysTarget).toBe('m2');
    expect(values.rules).toEqual([]);
  });

  it('an active Always goto saves only that rule', () => {
    const values = {
      ...form(),
      alwaysGoto: true,
      alwaysTarget: 'm1',
      rules: [{ ...createRuleDraft(), compareVal: '1', action: 'goto' as const, actionParam: 'm2' }],
    };
    expect(readMenuForm(values).body.switchOperations).toEqual([{ operator: 'always', compareVal: '', action: 'goto', actionParam: 'm1' }]);
  });

  it('drops rules with an empty compare value and no action, reports a value without an action', () => {
    const values = {
      ...form(),
      rules: [
        createRuleDraft(),
        { ...createRuleDraft(), compareVal: '1' },
        { ...createRuleDraft(), compareVal: '2', action: 'Terminate' as const, actionParam: 'Bye' },
      ],
    };
    const read = readMenuForm(values);
    expect(read.body.switchOperations).toEqual([{ operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: 'Bye' }]);
    expect(read.errors).toEqual([{ field: 'rules.1.action', message: FORM_MESSAGES.ruleActionRequired }]);
    expect(read.toFormPath('switchOperations.0.compareVal')).toBe('rules.2.compareVal');
  });

  it('maps validateMenu errors to form paths and counts them per tab', () => {
    const values = {
      ...form({ userDefinedName: '1abc', displayText: ' ' }),
      rules: [
        createRuleDraft(),
        { ...createRuleDraft(), operator: 'between' as const, compareVal: '5', action: 'goto' as const, actionParam: 'm1' },
      ],
      validations: [{ key: 'v', validationMethod: 'valueIn' as const, compareValue: '', errorMessage: '', validationFunction: '' }],
    };
    const { errors } = checkMenuForm(values, others);
    expect(errors.userDefinedName?.message).toBe(MENU_MESSAGES.identifierInvalid);
    expect(errors.displayText?.message).toBe(MENU_MESSAGES.textRequired);
    expect(errors['rules.1.compareVal']).toBeDefined();
    expect(errors['validations.0.compareValue']).toBeDefined();
    expect(countErrorsByTab(errors)).toEqual({ menu: 2, navigation: 1, actions: 0, validation: 1, media: 0 });
  });

  it('an action id is two digits then the time in milliseconds', () => {
    expect(createActionId(1_718_000_000_123)).toMatch(/^[1-9]\d1718000000123$/);
  });
});

describe('menu form translations', () => {
  const stored = form({
    displayText: 'Pick\n1. Bye\n2. Ciao',
    inputValidations: [
      { validationMethod: 'isNumeric', compareValue: '', errorMessage: 'Numbers only', validationFunction: '' },
      { validationMethod: 'isAlpha', compareValue: '', errorMessage: '', validationFunction: '' },
    ],
    switchOperations: [
      { operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: 'Bye', setLanguage: 'fr' },
      { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: 'Ciao' },
    ],
    translations: { fr: { displayText: 'Choisir', errorMessages: ['Chiffres', ''], closingTexts: ['Au revoir', 'Salut'] } },
  });

  it('loads and reads back unchanged: screen texts, closing texts, error messages and a rule language', () => {
    const { body } = readMenuForm(stored);
    expect(body.translations).toEqual({
      fr: { displayText: 'Choisir', closingTexts: ['Au revoir', 'Salut'], errorMessages: ['Chiffres', ''] },
    });
    expect(body.switchOperations[0]).toMatchObject({ setLanguage: 'fr' });
    expect(body.switchOperations[1]).not.toHaveProperty('setLanguage');
  });

  it('keeps each closing text with its rule when rules move or go, and leaves out emptied texts', () => {
    const moved = { ...stored, rules: moveItem(stored.rules, 1, -1) };
    expect(readMenuForm(moved).body.translations?.fr?.closingTexts).toEqual(['Salut', 'Au revoir']);
    const emptied = { ...stored, rules: [], validations: [], translations: { fr: { displayText: ' ' } } };
    expect(readMenuForm(emptied).body).not.toHaveProperty('translations');
  });

  it("keeps an Always goto rule's language", () => {
    const values = form({
      switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: 'm2', setLanguage: 'sw' }],
    });
    expect(values.alwaysLanguage).toBe('sw');
    expect(readMenuForm(values).body.switchOperations).toEqual([
      { operator: 'always', compareVal: '', action: 'goto', actionParam: 'm2', setLanguage: 'sw' },
    ]);
  });
});

describe('contact fields in the form', () => {
  it('loads and saves save-to-contact and a rule on a contact field; none leaves them out', () => {
    const values = form({
      saveToContact: 'city',
      switchOperations: [{ subject: 'contact.tier', operator: 'isSet', compareVal: '', action: 'Terminate', actionParam: '' }],
    });
    expect(values.saveToContact).toBe('city');
    expect(readMenuForm(values).body).toMatchObject({
      saveToContact: 'city',
      switchOperations: [{ subject: 'contact.tier', operator: 'isSet', action: 'Terminate' }],
    });
    const none = readMenuForm({ ...values, saveToContact: ' ', rules: values.rules.map((r) => ({ ...r, subject: '' })) }).body;
    expect(none).not.toHaveProperty('saveToContact');
    expect(none.switchOperations[0]).not.toHaveProperty('subject');
  });

  it("marks a bad field with the schema's messages", () => {
    const values = form({ switchOperations: [{ operator: 'eq', compareVal: '1', action: 'Terminate', actionParam: '' }] });
    const bad = { ...values, saveToContact: 'language', rules: values.rules.map((r) => ({ ...r, subject: 'contact.my city' })) };
    const { errors } = checkMenuForm(bad, others);
    expect(errors.saveToContact?.message).toBe(CONTACT_FIELD_MESSAGE);
    expect(errors['rules.0.subject']?.message).toBe(RULE_SUBJECT_MESSAGE);
  });
});

describe('menu form: a rule that hands to a person', () => {
  it('loads and saves a handoff and its reason, and a rule without one saves none', () => {
    const values = form({
      switchOperations: [
        { operator: 'eq', compareVal: '2', action: 'Terminate', actionParam: '', handoff: { reason: 'asked for a person' } },
        { operator: 'eq', compareVal: '3', action: 'Terminate', actionParam: 'Bye' },
      ],
    });
    expect(values.rules[0]!.handoff).toEqual({ reason: 'asked for a person' });
    const saved = readMenuForm({ ...values, rules: [{ ...values.rules[0]!, handoff: { reason: '  a dispute ' } }, values.rules[1]!] }).body;
    expect(saved.switchOperations[0]).toMatchObject({ action: 'Terminate', handoff: { reason: 'a dispute' } });
    expect(saved.switchOperations[1]).not.toHaveProperty('handoff');
  });

  it("refuses a handoff on a goto rule with the menu check's message, on the rule's action", () => {
    const values = form({
      switchOperations: [{ operator: 'eq', compareVal: '2', action: 'goto', actionParam: 'm2', handoff: { reason: '' } }],
    });
    expect(checkMenuForm(values, others).errors['rules.0.action']?.message).toBe(MENU_MESSAGES.handoffNeedsTerminate);
  });
});

describe('menu form: a bot menu media', () => {
  it('loads and reads back an input kind, its rules, attachments, a link button and a location request', () => {
    const media = {
      inputKind: 'location' as const,
      mediaInput: { mimeTypes: [], maxBytes: null, errorMessage: 'Share where you are', sizeErrorMessage: '' },
      attachments: [
        {
          type: 'file' as const,
          kind: 'document' as const,
          source: 'url' as const,
          value: 'https://x.example.com/a.pdf',
          caption: 'Menu',
          fileName: '',
        },
        { type: 'contact' as const, name: 'Desk', phones: ['+233302000000'] },
      ],
      linkButton: { text: 'Open', url: 'https://x.example.com' },
      requestLocation: true,
    };
    const values = form(media);
    expect(values.inputKind).toBe('location');
    expect(values.linkText).toBe('Open');
    const { body } = readMenuForm(values);
    expect(body).toMatchObject(media);
    // A text menu with nothing to send saves no media fields at all.
    const plain = readMenuForm(form()).body;
    for (const key of ['inputKind', 'mediaInput', 'attachments', 'linkButton', 'requestLocation']) expect(plain).not.toHaveProperty(key);
    // A location request is dropped when the menu no longer asks for a location.
    expect(readMenuForm({ ...values, inputKind: 'text' }).body).not.toHaveProperty('requestLocation');
  });

  it('marks media problems on the Media tab, the link button at its own fields', () => {
    const values = { ...form(), inputKind: 'image' as const, linkText: 'Go', linkUrl: 'http://plain' };
    values.attachments = [{ type: 'file', kind: 'image', source: 'upload', value: '', caption: '', fileName: '', key: 'a1' }];
    const { errors } = checkMenuForm(values, others);
    expect(Object.keys(errors)).toEqual(['attachments.0.value', 'linkUrl']);
    expect(countErrorsByTab(errors).media).toBe(2);
  });
});
