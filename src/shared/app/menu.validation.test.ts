import { describe, expect, it } from 'vitest';
import { menuSchema, type Menu, type MenuInput } from './menu.schema';
import { ACTION_PLUGIN_ERRORS, MENU_MESSAGES, isJsonTemplate, validateMenu, type FieldError } from './menu.validation';
import { COMPARE_MESSAGES } from './operators';
import { REGEXP_MESSAGES } from './regexp';
import { checkJavascriptSyntax } from './javascript-syntax';

function buildMenu(overrides: Partial<MenuInput> = {}): Menu {
  return menuSchema.parse({ uniqueId: 'm1', appId: 'a1', userDefinedName: 'home', displayText: 'Hello', ...overrides });
}
const others = [
  { uniqueId: 'm2', userDefinedName: 'pay' },
  { uniqueId: 'm3', userDefinedName: 'Done' },
];
const messagesOf = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.message}`);

describe('validateMenu', () => {
  it('accepts a valid menu', () => {
    expect(validateMenu(buildMenu(), others)).toEqual([]);
  });

  it('checks the identifier with its messages and uniqueness within the app', () => {
    expect(messagesOf(validateMenu(buildMenu({ userDefinedName: '' }), others))).toEqual([
      `userDefinedName: ${MENU_MESSAGES.identifierRequired}`,
    ]);
    for (const bad of ['1abc', 'my menu', 'a-b', 'é']) {
      expect(validateMenu(buildMenu({ userDefinedName: bad }), others)[0].message).toBe(
        'Menu identifier cannot begin with a number, contain spaces or special characters',
      );
    }
    expect(validateMenu(buildMenu({ userDefinedName: 'done' }), others)[0].message).toBe(MENU_MESSAGES.identifierTaken);
    // Its own stored row is not a clash.
    expect(validateMenu(buildMenu({ uniqueId: 'm2', userDefinedName: 'pay' }), others)).toEqual([]);
    expect(validateMenu(buildMenu({ userDefinedName: '$_ok9' }), others)).toEqual([]);
  });

  it('needs menu text and a back indicator when Back Menu is on', () => {
    expect(messagesOf(validateMenu(buildMenu({ displayText: ' ', allowGoBack: true, goBackInputIndicator: '' }), others))).toEqual([
      'displayText: Menu Text cannot be empty.',
      'goBackInputIndicator: Indicator cannot be empty when Back Menu is checked.',
    ]);
    // A terminating menu takes no input, so it has no Back (the server saves it off): no indicator is asked for.
    expect(validateMenu(buildMenu({ terminate: true, allowGoBack: true, goBackInputIndicator: '' }), others)).toEqual([]);
  });

  it('checks compare values and goto targets', () => {
    const errors = validateMenu(
      buildMenu({
        switchOperations: [
          { operator: 'between', compareVal: '5', action: 'goto', actionParam: 'm2' },
          { operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: 'nope' },
          { operator: 'regexp', compareVal: '(x)\\1', action: 'Terminate', actionParam: '' },
          { operator: 'eq', compareVal: '1', action: 'goto', actionParam: '' },
          { operator: 'always', compareVal: '', action: 'goto', actionParam: 'm1' },
        ],
      }),
      others,
    );
    expect(messagesOf(errors)).toEqual([
      `switchOperations.0.compareVal: ${COMPARE_MESSAGES.range}`,
      `switchOperations.1.actionParam: ${MENU_MESSAGES.targetMissing}`,
      `switchOperations.2.compareVal: ${REGEXP_MESSAGES.backreference}`,
      `switchOperations.3.actionParam: ${MENU_MESSAGES.targetRequired}`,
    ]);
  });

  it('checks action names and javascript code with the parser message and position', () => {
    const errors = validateMenu(
      buildMenu({
        actions: [
          { actionName: '', actionType: 'pre', inheritsPlugin: 'javascript', code: '' },
          { actionName: 'class', actionType: 'post', inheritsPlugin: 'javascript', code: 'let x = 1;\nreturn x +;' },
          {
            actionName: 'ok',
            actionType: 'post',
            inheritsPlugin: 'javascript',
            code: 'const r = await fetchIt();\nreturn { goto: "pay" };',
          },
        ],
      }),
      others,
    );
    expect(errors).toEqual([
      { field: 'actions.0.actionName', message: 'Action name is required.' },
      { field: 'actions.0.code', message: 'Enter javascript code' },
      { field: 'actions.0', message: 'Validation failed in the Javascript action component.' },
      { field: 'actions.1.actionName', message: 'Action name must be a valid JavaScript identifier.' },
      { field: 'actions.1.code', message: 'Unexpected token (line 2, column 11)', line: 2, column: 11 },
      { field: 'actions.1', message: ACTION_PLUGIN_ERRORS.javascript },
    ]);
  });

  it('parses javascript as ECMAScript 2020, not later', () => {
    expect(checkJavascriptSyntax('return a?.b ?? 1').ok).toBe(true);
    // Logical assignment is ES2021.
    expect(checkJavascriptSyntax('a ||= 1').ok).toBe(false);
  });

  it('checks rest api actions with their messages', () => {
    const rest = (code: Record<string, unknown>) =>
      validateMenu(buildMenu({ actions: [{ actionName: 'call', actionType: 'post', inheritsPlugin: 'restapi', code } as never] }), others);
    expect(messagesOf(rest({ method: '', url: '' }))).toEqual([
      'actions.0.code.url: Request URL is required.',
      'actions.0.code.method: HTTP method is required.',
      'actions.0: Validation failed in the Rest API action component.',
    ]);
    expect(messagesOf(rest({ method: 'POST', url: 'https://x', payload: '' }))[0]).toBe(
      'actions.0.code.payload: Request body is required for non-GET methods.',
    );
    expect(messagesOf(rest({ method: 'PUT', url: 'https://x', payload: '{"a": 1' }))[0]).toBe(
      'actions.0.code.payload: Request body must be valid JSON.',
    );
    expect(rest({ method: 'GET', url: 'https://x' })).toEqual([]);
    expect(rest({ method: 'POST', url: 'https://x', contentType: 'text/xml', payload: '<a/>' })).toEqual([]);
    expect(
      rest({ method: 'POST', url: 'https://x', payload: '{"amount": {{ session.inputs.amount }}, "to": "{{ session.mobile }}"}' }),
    ).toEqual([]);
  });

  it('checks the other action kinds and duplicate names', () => {
    const errors = validateMenu(
      buildMenu({
        actions: [
          { actionName: 'db', inheritsPlugin: 'dbaccess', code: {} },
          { actionName: 'db', inheritsPlugin: 'sendsms', code: { mobile: 'x', smsMessage: 'y' } },
          { actionName: 'pay', inheritsPlugin: 'paymentprompt', code: { mobile: '{{ session.mobile }}' } },
          { actionName: 'fn', inheritsPlugin: 'customAction', code: {} },
        ],
      }),
      others,
    );
    expect(messagesOf(errors)).toEqual([
      `actions.0.code.dburl: ${MENU_MESSAGES.dbUrlRequired}`,
      `actions.0.code.query: ${MENU_MESSAGES.queryRequired}`,
      `actions.0: ${ACTION_PLUGIN_ERRORS.dbaccess}`,
      `actions.1.actionName: ${MENU_MESSAGES.actionNameTaken}`,
      `actions.1: ${ACTION_PLUGIN_ERRORS.sendsms}`,
      `actions.2.code.amount: ${MENU_MESSAGES.paymentAmountRequired}`,
      `actions.2: ${ACTION_PLUGIN_ERRORS.paymentprompt}`,
      `actions.3.code.uuid: ${MENU_MESSAGES.customActionRequired}`,
      `actions.3: ${ACTION_PLUGIN_ERRORS.customAction}`,
    ]);
  });

  it('checks validation compare values and javascript validation functions', () => {
    const errors = validateMenu(
      buildMenu({
        inputValidations: [
          { validationMethod: 'isNumeric' },
          { validationMethod: 'notBetween', compareValue: '1;2' },
          { validationMethod: 'javascript', validationFunction: '' },
          { validationMethod: 'javascript', validationFunction: 'return input.length == 4' },
          { validationMethod: 'regexp', compareValue: '^(?=.*\\d).{8,}$' },
        ],
      }),
      others,
    );
    expect(messagesOf(errors)).toEqual([
      `inputValidations.1.compareValue: ${COMPARE_MESSAGES.range}`,
      'inputValidations.2.validationFunction: Enter javascript code',
      `inputValidations.4.compareValue: ${REGEXP_MESSAGES.lookahead}`,
    ]);
  });

  it('gives the regular expressions of a menu one size budget, in the order the engine compiles them', () => {
    // About 440 steps each: each fits alone, the third does not fit beside the other two.
    const menu = buildMenu({
      switchOperations: [{ operator: 'regexp', compareVal: '^[a-z ]{1,220}$', action: 'goto', actionParam: 'm1' }],
      inputValidations: [
        { validationMethod: 'regexp', compareValue: '^[0-9]{1,220}$' },
        { validationMethod: 'notRegexp', compareValue: '^[0-9]{1,100}$' },
      ],
    });
    const errors = messagesOf(validateMenu(menu, others));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^inputValidations\.1\.compareValue: The regular expressions of this menu are too large together: about \d+ steps \(at most 1000\)/,
    );
  });
});

describe('isJsonTemplate', () => {
  it('accepts JSON with template expressions, refuses broken JSON', () => {
    expect(isJsonTemplate('{"a": {{ x }}, "b": "{{ y }}"{% if z %}, "c": 1{% endif %}}')).toBe(true);
    expect(isJsonTemplate('{"a": }')).toBe(false);
  });
});
