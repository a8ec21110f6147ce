import { describe, expect, it } from 'vitest';
import { createActionDraft } from './actions.schema';
import { appVersionSchema } from './app-version.schema';
import { createValidationDraft } from './input-validation.schema';
import { createMenuDraft, getShortText, menuBodySchema, menuSchema } from './menu.schema';

describe('menu schema', () => {
  it('fills defaults and keeps the API field names', () => {
    const menu = menuSchema.parse({ uniqueId: 'u', appId: 'a' });
    expect(Object.keys(menu).sort()).toEqual(
      [
        'uniqueId',
        'appId',
        'isFirst',
        'displayText',
        'headerText',
        'footerText',
        'userDefinedName',
        'inputHolder',
        'allowGoBack',
        'goBackInputIndicator',
        'terminate',
        'parentMenuId',
        'switchOperations',
        'actions',
        'inputValidations',
      ].sort(),
    );
    expect(menuBodySchema.parse({ appId: 'a' }).uniqueId).toBeUndefined();
  });

  it('types action code per kind', () => {
    const parsed = menuSchema.parse({
      uniqueId: 'u',
      appId: 'a',
      actions: [
        { actionName: 'x', actionType: 'pre', inheritsPlugin: 'javascript', code: 'return 1' },
        { actionName: 'y', inheritsPlugin: 'dbaccess', code: { query: 'select 1' } },
      ],
    });
    expect(parsed.actions[1]).toMatchObject({ actionType: 'post', code: { dialect: 'postgres', dataSourceType: 'remote' } });
    expect(() =>
      menuSchema.parse({ uniqueId: 'u', appId: 'a', actions: [{ actionName: 'x', inheritsPlugin: 'javascript', code: {} }] }),
    ).toThrow();
    expect(() =>
      menuSchema.parse({ uniqueId: 'u', appId: 'a', actions: [{ actionName: 'x', inheritsPlugin: 'ftp', code: {} }] }),
    ).toThrow();
  });

  it('has the defaults for new menus, actions and validations', () => {
    expect(createMenuDraft('a')).toMatchObject({ allowGoBack: true, goBackInputIndicator: '0', switchOperations: [], actions: [] });
    expect(createActionDraft()).toMatchObject({
      actionType: 'post',
      inheritsPlugin: 'restapi',
      code: { method: 'POST', contentType: 'application/json' },
    });
    expect(createValidationDraft().validationMethod).toBe('isNumeric');
    expect(getShortText('x'.repeat(100))).toBe(`${'x'.repeat(95)}...`);
  });

  it('bounds the screen limit of an app version', () => {
    expect(appVersionSchema.parse({ appId: 'a', menus: [] }).screenLimit).toBe(160);
    expect(() => appVersionSchema.parse({ appId: 'a', screenLimit: 183, menus: [] })).toThrow();
  });
});
