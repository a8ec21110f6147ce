import { describe, expect, it } from 'vitest';
import { lintApp } from '../../../engine';
import { createMenuDraft, type Menu, type SwitchOperation } from '../../../shared/app';
import { filterMenus, findBrokenRules, findRulesLeadingTo, insertAfter, mergeOrder, moveKey } from './menu-list-order';

const items = [
  { key: 'a', userDefinedName: 'home', displayText: 'Welcome\n1. Pay' },
  { key: 'b', userDefinedName: 'payAmount', displayText: 'Enter amount' },
  { key: 'c', userDefinedName: 'done', displayText: 'Thank you' },
];

describe('menu list order', () => {
  it('keeps an unsaved local order across a refetch and places new menus after their predecessor', () => {
    expect(mergeOrder(['a', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['c', 'a', 'b']);
    expect(mergeOrder(['a', 'x', 'b', 'c'], ['c', 'a', 'b'])).toEqual(['c', 'a', 'x', 'b']);
    expect(mergeOrder(['a', 'c'], ['c', 'b', 'a'])).toEqual(['c', 'a']);
    expect(mergeOrder(['a', 'b'], null)).toEqual(['a', 'b']);
  });

  it('inserts after the pressed plus, or at the top', () => {
    expect(insertAfter(items, 'a', { ...items[2]!, key: 'n' }).map((i) => i.key)).toEqual(['a', 'n', 'b', 'c']);
    expect(insertAfter(items, null, { ...items[2]!, key: 'n' }).map((i) => i.key)).toEqual(['n', 'a', 'b', 'c']);
  });

  it('filters by identifier or text, case-insensitive, from 3 characters', () => {
    expect(filterMenus(items, 'PA')).toHaveLength(3);
    expect(filterMenus(items, 'PAY').map((i) => i.key)).toEqual(['a', 'b']);
    expect(filterMenus(items, ' thank ').map((i) => i.key)).toEqual(['c']);
  });

  it('moves a key to another place', () => {
    expect(moveKey(['a', 'b', 'c'], 'a', 'c')).toEqual(['b', 'c', 'a']);
    expect(moveKey(['a', 'b', 'c'], 'c', 'a')).toEqual(['c', 'a', 'b']);
  });
});

describe('broken rules', () => {
  const goto = (target: string, operator: SwitchOperation['operator'] = 'eq', compareVal = '1'): SwitchOperation => ({
    operator,
    compareVal,
    action: 'goto',
    actionParam: target,
  });
  const menu = (id: string, overrides: Partial<Menu> = {}): Menu => ({
    ...createMenuDraft('app1'),
    uniqueId: id,
    userDefinedName: id,
    displayText: id,
    ...overrides,
  });
  const menus = [
    menu('home', {
      isFirst: true,
      switchOperations: [
        goto('pay'),
        goto('gone', 'eq', '2'),
        { operator: 'eq', compareVal: '3', action: 'Terminate', actionParam: 'Bye' },
      ],
    }),
    menu('pay', { switchOperations: [goto('gone', 'always', '')] }),
    menu('done', { terminate: true, switchOperations: [goto('pay', 'eq', '1'), goto('pay', 'eq', '2')] }),
  ];

  it('finds the gotos the deploy checks call broken, named as the navigation tab names them', () => {
    const broken = findBrokenRules(
      menus,
      lintApp({
        appId: 'app1',
        versionId: 'draft',
        appName: 'A',
        shortCode: '*1#',
        useTemplateTag: false,
        screenLimit: 160,
        channel: 'ussd',
        menus,
      }),
    );
    expect(Object.fromEntries(broken)).toEqual({
      home: [{ rule: 'Rule 2', problem: 'goes to a menu that no longer exists' }],
      pay: [{ rule: 'Always goto', problem: 'goes to a menu that no longer exists' }],
    });
  });

  it('lists the menus whose rules a delete would break', () => {
    expect(findRulesLeadingTo(menus, 'pay')).toEqual([
      { menu: 'home', rules: ['Rule 1'] },
      { menu: 'done', rules: ['Rule 1', 'Rule 2'] },
    ]);
    expect(findRulesLeadingTo(menus, 'home')).toEqual([]);
  });
});
