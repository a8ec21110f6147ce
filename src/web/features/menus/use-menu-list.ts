import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import type { LintIssue } from '../../../engine';
import type { Menu } from '../../../shared/app';
import {
  FILTER_DEBOUNCE_MS,
  filterMenus,
  findBrokenRules,
  insertAfter,
  isFilterActive,
  mergeOrder,
  moveKey,
  NEW_MENU_KEY,
  toListItem,
  type MenuListItem,
} from './menu-list-order';

/** Where the one unsaved new menu sits: after `afterKey`, or first when null. */
export type NewMenuPlace = { afterKey: string | null };

/**
 * The designer's list as the builder sees it: the saved menus in the local (maybe unsaved) order, the new menu's
 * card in its place, and the filter.
 */
export function useMenuList(menus: Menu[], lintIssues: LintIssue[]) {
  const [localOrder, setLocalOrder] = useState<string[] | null>(null);
  const [newMenu, setNewMenu] = useState<NewMenuPlace | null>(null);
  const [query, setQuery] = useState('');
  const [debouncedQuery] = useDebouncedValue(query, FILTER_DEBOUNCE_MS);

  const serverIds = useMemo(() => menus.map((m) => m.uniqueId), [menus]);
  const orderIds = useMemo(() => mergeOrder(serverIds, localOrder), [serverIds, localOrder]);
  const items = useMemo(() => {
    const byId = new Map(menus.map((m) => [m.uniqueId, m]));
    const broken = findBrokenRules(menus, lintIssues);
    const list = orderIds.map((id) => toListItem(byId.get(id)!, broken.get(id)));
    if (!newMenu) return list;
    const draftItem: MenuListItem = {
      key: NEW_MENU_KEY,
      userDefinedName: '',
      displayText: '',
      isFirst: newMenu.afterKey === null,
      terminate: false,
      ruleCount: 0,
      actionCount: 0,
      validationCount: 0,
      brokenRules: [],
    };
    return insertAfter(list, newMenu.afterKey, draftItem);
  }, [menus, orderIds, newMenu, lintIssues]);
  const visibleItems = useMemo(() => filterMenus(items, debouncedQuery), [items, debouncedQuery]);

  return {
    items,
    visibleItems,
    orderIds,
    isOrderChanged: orderIds.join() !== serverIds.join(),
    query,
    setQuery,
    debouncedQuery,
    isFiltering: isFilterActive(debouncedQuery),
    newMenu,
    setNewMenu,
    /** A drag: `from` now stands where `to` stood (kept until saved, across refetches). */
    moveMenu: (from: string, to: string) => setLocalOrder(moveKey(orderIds, from, to)),
    /** The saved order is the server's now. */
    resetOrder: () => setLocalOrder(null),
    /** A deleted menu leaves the local order. */
    dropFromOrder: (uniqueId: string) => setLocalOrder((o) => o?.filter((id) => id !== uniqueId) ?? null),
  };
}
