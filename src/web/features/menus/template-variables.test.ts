import { describe, expect, it } from 'vitest';
import { filterVariables, findTypedVariable, insertVariable, listFormVariables } from './template-variables';

describe('template variable suggestions', () => {
  it('finds the variable typed at the caret, and none once its tag is closed or outside one', () => {
    expect(findTypedVariable('Hi {{ session.in', 16)).toEqual({ start: 3, query: 'session.in' });
    expect(findTypedVariable('Hi {{', 5)).toEqual({ start: 3, query: '' });
    expect(findTypedVariable('Hi {{- ses', 10)).toEqual({ start: 3, query: 'ses' });
    expect(findTypedVariable('Hi {{ a }} b', 12)).toBeNull();
    expect(findTypedVariable('Hi {{ a | up', 12)).toBeNull();
    expect(findTypedVariable('Hi {', 4)).toBeNull();
  });

  it('puts the picked variable in a closed tag, replacing the rest of a tag already there, the caret after it', () => {
    expect(insertVariable('Hi {{ ses!', 9, { start: 3, query: 'ses' }, 'session.mobile')).toEqual({
      value: 'Hi {{ session.mobile }}!',
      caret: 23,
    });
    expect(insertVariable('Hi {{ ses }}!', 9, { start: 3, query: 'ses' }, 'session.mobile').value).toBe('Hi {{ session.mobile }}!');
    expect(insertVariable('{{- x', 5, { start: 0, query: 'x' }, 'app.name').value).toBe('{{- app.name }}');
  });

  it("offers the app's variables with the open form's identifier and actions in place of the saved ones", () => {
    const app = {
      shortCode: '*920*77#',
      menus: [
        { uniqueId: 'm1', userDefinedName: 'welcome', actions: [] },
        { uniqueId: 'm2', userDefinedName: 'bye', actions: [{ actionName: 'sms', inheritsPlugin: 'sendsms' as const }] },
      ],
    };
    const variables = listFormVariables(app, { uniqueId: 'm1', userDefinedName: 'name', actions: [] });
    const paths = variables.map((v) => v.path);
    expect(paths).toContain('session.inputs.name');
    expect(paths).not.toContain('session.inputs.welcome');
    expect(paths).toContain('actions.sms');
    expect(filterVariables(variables, 'inputs.n').map((v) => v.path)).toEqual(['session.inputs.name', 'session.inputs.nameLabel']);
    expect(filterVariables(variables, 'app').map((v) => v.path)).toEqual(['app.name', 'app.shortCode']);
    // A new menu (no uniqueId yet) counts as well.
    expect(listFormVariables(app, { userDefinedName: 'amount', actions: [] }).map((v) => v.path)).toContain('session.inputs.amount');
  });
});

describe('listFormVariables: a bot menu media', () => {
  it('offers session.media of the edited menu once it asks for a photo', () => {
    const app = { shortCode: '', menus: [] };
    const edited = { userDefinedName: 'photo', actions: [] };
    expect(listFormVariables(app, edited).map((v) => v.path)).not.toContain('session.media.photo.url');
    expect(listFormVariables(app, { ...edited, inputKind: 'image' }).map((v) => v.path)).toContain('session.media.photo.url');
  });
});
