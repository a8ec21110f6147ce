import { describe, expect, it } from 'vitest';
import { appVersionSchema, type AppVersion, type AppVersionInput } from './app-version.schema';
import { migrateDefinition, stampDefinition } from './spec-version';
import { describeSummary, diffVersions, showValue, summarizeDiff } from './version-diff';

/** A snapshot as a deploy stores it and a later read gets it back: stamped, through jsonb (keys reordered), migrated. */
function snapshot(input: AppVersionInput): AppVersion {
  const stored = JSON.parse(JSON.stringify(stampDefinition(appVersionSchema.parse(input))));
  const reordered = { ...stored, menus: stored.menus.map((m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).reverse())) };
  return migrateDefinition(reordered);
}

const home = {
  uniqueId: 'm-home',
  appId: 'app1',
  isFirst: true,
  userDefinedName: 'home',
  displayText: 'Welcome\n1. Balance\n2. Airtime',
  switchOperations: [
    { operator: 'eq' as const, compareVal: '1', action: 'goto' as const, actionParam: 'm-balance' },
    { operator: 'eq' as const, compareVal: '2', action: 'goto' as const, actionParam: 'm-airtime' },
  ],
  translations: { fr: { displayText: 'Bienvenue\n1. Solde\n2. Crédit' } },
};
const balance = {
  uniqueId: 'm-balance',
  appId: 'app1',
  userDefinedName: 'balance',
  displayText: 'Your balance is {{session.balance}}',
  terminate: true,
  actions: [{ actionName: 'lookup', inheritsPlugin: 'javascript' as const, code: 'return { balance: 10 };' }],
};
const airtime = { uniqueId: 'm-airtime', appId: 'app1', userDefinedName: 'airtime', displayText: 'Amount?' };
const v1 = snapshot({
  appId: 'app1',
  versionId: 'v1',
  appName: 'Bank',
  shortCode: '*920#',
  menus: [home, balance, airtime],
  languages: { defaultLanguage: 'en', otherLanguages: ['fr'] },
});

describe('diffVersions', () => {
  it("shows a sub-flow's new version and its menus' changes, named by the sub-flow", () => {
    const ask = { uniqueId: 'm-ask', appId: 'sf1', isFirst: true, userDefinedName: 'ask', displayText: 'Enter your PIN' };
    const subflow = (version: number, displayText: string) => ({
      id: 'sf1',
      name: 'PIN check',
      version,
      menus: [{ ...ask, displayText }],
    });
    const withPin = snapshot({ ...v1, versionId: 'v2', subflows: [subflow(1, 'Enter your PIN')] });
    const changed = snapshot({ ...v1, versionId: 'v3', subflows: [subflow(2, 'Enter your 4-digit PIN')] });
    const diff = diffVersions(withPin, changed);
    expect(diff.app).toEqual([
      {
        field: 'subflows',
        label: 'Sub-flows',
        kind: 'setting',
        before: '[\n  "PIN check, version 1"\n]',
        after: '[\n  "PIN check, version 2"\n]',
      },
    ]);
    expect(diff.menus).toEqual([
      {
        uniqueId: 'sf1/m-ask',
        name: 'PIN check › ask',
        status: 'changed',
        fields: [{ field: 'displayText', label: 'Menu text', kind: 'text', before: 'Enter your PIN', after: 'Enter your 4-digit PIN' }],
      },
    ]);
    expect(diffVersions(v1, withPin).menus.map((m) => [m.name, m.status])).toEqual([['PIN check › ask', 'added']]);
  });

  it('finds nothing between a version and its copy read back from storage, box positions aside', () => {
    const moved = snapshot({
      ...v1,
      versionId: 'v2',
      menus: v1.menus.map((m) => ({ ...m, mapPosition: { x: 5, y: 9, direction: 'TB' } })),
    });
    const diff = diffVersions(v1, moved);
    expect(diff).toEqual({ app: [], isReordered: false, menus: [] });
    expect(describeSummary(summarizeDiff(diff))).toBe('No changes');
  });

  it('lists every menu of a first version as added, with what each holds', () => {
    const diff = diffVersions(null, v1);
    expect(diff.menus.map((m) => [m.name, m.status])).toEqual([
      ['home', 'added'],
      ['balance', 'added'],
      ['airtime', 'added'],
    ]);
    expect(diff.menus[0]!.fields.find((f) => f.field === 'translations.fr.displayText')).toMatchObject({
      label: 'Menu text (fr)',
      before: null,
      after: 'Bienvenue\n1. Solde\n2. Crédit',
    });
    expect(describeSummary(summarizeDiff(diff))).toBe('3 menus added');
  });

  it('names added, removed and renamed menus and each changed text, translation, rule, action and setting, before and after', () => {
    const v2 = snapshot({
      ...v1,
      versionId: 'v2',
      appName: 'Bank GH',
      menus: [
        {
          ...home,
          displayText: 'Welcome\n1. Balance\n2. Airtime\n3. Help',
          switchOperations: [home.switchOperations[0]!, { ...home.switchOperations[1]!, compareVal: '22' }],
          translations: { fr: { displayText: 'Bienvenue !' } },
        },
        { ...balance, userDefinedName: 'my_balance', terminate: false, actions: [] },
        { uniqueId: 'm-help', appId: 'app1', userDefinedName: 'help', displayText: 'Call 100', terminate: true },
      ],
    });
    const diff = diffVersions(v1, v2);
    expect(diff.app).toEqual([{ field: 'appName', label: 'App name', kind: 'setting', before: 'Bank', after: 'Bank GH' }]);
    const [changedHome, changedBalance, added, removed] = diff.menus;
    expect(changedHome).toMatchObject({ name: 'home', status: 'changed' });
    expect(changedHome!.fields.map((f) => [f.label, f.kind])).toEqual([
      ['Menu text', 'text'],
      ['Menu text (fr)', 'text'],
      ['Rule 2', 'rule'],
    ]);
    expect(changedHome!.fields[0]).toMatchObject({
      before: 'Welcome\n1. Balance\n2. Airtime',
      after: 'Welcome\n1. Balance\n2. Airtime\n3. Help',
    });
    expect(JSON.parse(changedHome!.fields[2]!.before!)).toMatchObject({ compareVal: '2' });
    expect(JSON.parse(changedHome!.fields[2]!.after!)).toMatchObject({ compareVal: '22' });
    expect(changedBalance).toMatchObject({ name: 'my_balance', renamedFrom: 'balance', status: 'changed' });
    expect(changedBalance!.fields.map((f) => [f.label, f.before === null, f.after])).toEqual([
      ['Action 1', false, null],
      ['Terminate', false, 'No'],
    ]);
    expect(added).toMatchObject({ name: 'help', status: 'added' });
    expect(removed).toMatchObject({ name: 'airtime', status: 'removed' });
    expect(removed!.fields).toEqual([{ field: 'displayText', label: 'Menu text', kind: 'text', before: 'Amount?', after: null }]);
    expect(describeSummary(summarizeDiff(diff))).toBe(
      '1 menu added, 1 menu removed, 1 menu renamed, 2 texts changed, 1 rule changed, 1 action changed, 1 setting changed, 1 app setting changed',
    );
  });

  it('marks a new order of the menus both snapshots hold, and a validation added', () => {
    const v2 = snapshot({
      ...v1,
      versionId: 'v2',
      menus: [home, { ...airtime, inputValidations: [{ validationMethod: 'isNumeric', errorMessage: 'Digits only' }] }, balance],
    });
    const diff = diffVersions(v1, v2);
    expect(diff.isReordered).toBe(true);
    expect(diff.menus).toHaveLength(1);
    expect(diff.menus[0]!.fields).toMatchObject([{ field: 'inputValidations.0', kind: 'validation', before: null }]);
    expect(describeSummary(summarizeDiff(diff))).toBe('1 validation changed, menus reordered');
  });
});

describe('showValue', () => {
  it('shows nothing for empty values, words for booleans, and objects with sorted keys', () => {
    expect([showValue(''), showValue([]), showValue(undefined), showValue(null)]).toEqual([null, null, null, null]);
    expect([showValue(true), showValue(false), showValue(160)]).toEqual(['Yes', 'No', '160']);
    expect(showValue({ b: 1, a: { d: 2, c: 3 } })).toBe(JSON.stringify({ a: { c: 3, d: 2 }, b: 1 }, null, 2));
  });
});
