import { describe, expect, it } from 'vitest';
import { createMenuDraft, type Menu, type SwitchOperation } from '../../../shared/app';
import {
  findLineOption,
  findOptionNumbers,
  orderWithFirst,
  parseRuleEdgeId,
  repointRules,
  suggestRule,
  toRecreateBody,
  withoutRule,
  withRule,
  withRuleTarget,
} from './flow-edits';

const goto = (target: string, compareVal = '1', operator: SwitchOperation['operator'] = 'eq'): SwitchOperation => ({
  operator,
  compareVal,
  action: 'goto',
  actionParam: target,
});
const always = (target: string) => goto(target, '', 'always');

function menu(id: string, overrides: Partial<Menu> = {}): Menu {
  return { ...createMenuDraft('app1'), uniqueId: id, userDefinedName: id, displayText: `${id} screen`, ...overrides };
}

describe('flow map edits', () => {
  it('reads the options a text offers, each once, in the usual numberings', () => {
    expect(findOptionNumbers('Welcome\n1. Airtime\n2) Data\n 3 - Bundles\n4: Help\n1. Again\n10.Ten\n2024 was a year')).toEqual([
      '1',
      '2',
      '3',
      '4',
      '10',
    ]);
    expect(findOptionNumbers('Enter your name')).toEqual([]);
    expect(findLineOption('2. Data')).toBe('2');
    expect(findLineOption('Pay 2 cedis')).toBeNull();
  });

  it('prefills a drawn rule from its option, else the first unhandled option, else Always on a free-input menu', () => {
    const home = menu('home', { displayText: 'Hi\n1. Airtime\n2. Data\n3. Help', switchOperations: [goto('a', '1')] });
    expect(suggestRule(home, '3')).toEqual({ operator: 'eq', compareVal: '3' });
    expect(suggestRule(home)).toEqual({ operator: 'eq', compareVal: '2' });
    expect(suggestRule(menu('name', { displayText: 'Your name?' }))).toEqual({ operator: 'always', compareVal: '' });
    expect(suggestRule(menu('name', { displayText: 'Your name?', switchOperations: [always('x')] }))).toEqual({
      operator: 'eq',
      compareVal: '',
    });
    const allHandled = menu('m', { displayText: '1. A\n2. B', switchOperations: [goto('a', '1'), goto('b', '2')] });
    expect(suggestRule(allHandled)).toEqual({ operator: 'eq', compareVal: '' });
  });

  it('adds a conditional rule before an Always rule, and an Always rule last', () => {
    const home = menu('home', { switchOperations: [goto('a', '1'), always('z')] });
    expect(withRule(home, { operator: 'eq', compareVal: ' 2 ' }, 'b').switchOperations).toEqual([
      goto('a', '1'),
      goto('b', '2'),
      always('z'),
    ]);
    expect(withRule(menu('m'), { operator: 'always', compareVal: '' }, 'b').switchOperations).toEqual([always('b')]);
    expect(withRule(menu('m', { switchOperations: [goto('a')] }), { operator: 'eq', compareVal: '2' }, 'b').switchOperations).toEqual([
      goto('a'),
      goto('b', '2'),
    ]);
  });

  it('rewires and removes one rule, leaving the others and the menu unchanged', () => {
    const home = menu('home', { switchOperations: [goto('a', '1'), goto('b', '2')] });
    expect(withRuleTarget(home, 1, 'c').switchOperations).toEqual([goto('a', '1'), goto('c', '2')]);
    expect(withoutRule(home, 0).switchOperations).toEqual([goto('b', '2')]);
    expect(home.switchOperations).toHaveLength(2);
    expect(parseRuleEdgeId('rule:0b4e-11:12')).toEqual({ menuId: '0b4e-11', index: 12 });
    expect(parseRuleEdgeId('back:a:b')).toBeNull();
  });

  it('undoes a delete: the menu comes back in its place and the gotos that named it follow it', () => {
    const gone = menu('b', { switchOperations: [goto('c')] });
    expect(toRecreateBody(gone, ['a', 'b', 'c'])).toMatchObject({ parentMenuId: 'a', isFirst: false, userDefinedName: 'b' });
    expect(toRecreateBody(gone, ['a', 'b', 'c'])).not.toHaveProperty('uniqueId');
    expect(toRecreateBody(gone, ['b', 'c'])).toMatchObject({ parentMenuId: null, isFirst: true });
    const menus = [menu('a', { switchOperations: [goto('b', '1'), goto('c', '2')] }), menu('c', { switchOperations: [goto('c')] })];
    expect(repointRules(menus, 'b', 'b2')).toEqual([menu('a', { switchOperations: [goto('b2', '1'), goto('c', '2')] })]);
    expect(orderWithFirst(['a', 'b', 'c'], 'c')).toEqual(['c', 'a', 'b']);
  });
});
