import { describe, expect, it } from 'vitest';
import { filterMenus, insertAfter, mergeOrder, moveKey } from './menu-list-order';

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
