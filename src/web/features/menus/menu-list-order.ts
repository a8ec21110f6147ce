/**
 * The designer's list: the app's menus in their local order, plus at most one new menu not saved yet.
 * Pure helpers so the order rules (insert in place, keep an unsaved drag across a refetch, filter) are tested
 * without a browser.
 */
import type { LintIssue } from '../../../engine';
import { ALWAYS_OPERATOR, isBrokenTargetIssue, type Menu } from '../../../shared/app';

/** Menu search needs at least this many characters. */
export const FILTER_MIN_LENGTH = 3;
/** Delay before re-filtering while typing. */
export const FILTER_DEBOUNCE_MS = 300;

/** Why Save order is off while a filter is on (it saves the whole list, which the filter hides part of). */
export const SAVE_ORDER_FILTERED_HINT = 'Clear the filter to save the order: Save order saves the whole list.';

/** The key of the one unsaved new menu in the list. */
export const NEW_MENU_KEY = 'new-menu';

export interface MenuListItem {
  /** The menu's uniqueId, or NEW_MENU_KEY for the unsaved new menu. */
  key: string;
  uniqueId?: string;
  userDefinedName: string;
  displayText: string;
  isFirst: boolean;
  terminate: boolean;
  ruleCount: number;
  actionCount: number;
  validationCount: number;
  /** Rules whose goto leads nowhere (the deploy checks' missing_target and no_target). */
  brokenRules: BrokenRule[];
}

export interface BrokenRule {
  /** 'Rule 2' or 'Always goto', as the navigation tab numbers them. */
  rule: string;
  /** 'goes to a menu that no longer exists' or 'has no target menu'. */
  problem: string;
}

export function toListItem(menu: Menu, brokenRules: BrokenRule[] = []): MenuListItem {
  return {
    key: menu.uniqueId,
    uniqueId: menu.uniqueId,
    userDefinedName: menu.userDefinedName,
    displayText: menu.displayText,
    isFirst: menu.isFirst,
    terminate: menu.terminate,
    ruleCount: menu.switchOperations.length,
    actionCount: menu.actions.length,
    validationCount: menu.inputValidations.length,
    brokenRules,
  };
}

/** 'Rule 2' for the second rule, 'Always goto' for a menu's single always rule (the navigation tab's words). */
export function describeRule(menu: Pick<Menu, 'switchOperations'>, index: number): string {
  return menu.switchOperations[index]?.operator === ALWAYS_OPERATOR ? 'Always goto' : `Rule ${index + 1}`;
}

/**
 * The broken gotos the deploy checks found, by menu uniqueId, from lintApp's issues (by their codes).
 * @example findBrokenRules(menus, lintApp(draft)).get(homeId) // [{ rule: 'Rule 2', problem: 'goes to a menu that no longer exists' }]
 */
export function findBrokenRules(menus: readonly Menu[], issues: readonly LintIssue[]): Map<string, BrokenRule[]> {
  const byId = new Map(menus.map((m) => [m.uniqueId, m]));
  const found = new Map<string, BrokenRule[]>();
  for (const issue of issues) {
    const menu = issue.menuId ? byId.get(issue.menuId) : undefined;
    const index = /^switchOperations\.(\d+)\./.exec(issue.field ?? '')?.[1];
    if (!menu || index === undefined || !isBrokenTargetIssue(issue)) continue;
    const problem = issue.code === 'missing_target' ? 'goes to a menu that no longer exists' : 'has no target menu';
    found.set(menu.uniqueId, [...(found.get(menu.uniqueId) ?? []), { rule: describeRule(menu, Number(index)), problem }]);
  }
  return found;
}

/**
 * The other menus whose rules go to `uniqueId`, each with its rule names: what a delete would break.
 * @example findRulesLeadingTo(menus, balanceId) // [{ menu: 'home', rules: ['Rule 2'] }]
 */
export function findRulesLeadingTo(menus: readonly Menu[], uniqueId: string): { menu: string; rules: string[] }[] {
  return menus.flatMap((m) => {
    if (m.uniqueId === uniqueId) return [];
    const rules = m.switchOperations.flatMap((r, i) => (r.action === 'goto' && r.actionParam === uniqueId ? [describeRule(m, i)] : []));
    return rules.length > 0 ? [{ menu: m.userDefinedName || m.uniqueId, rules }] : [];
  });
}

/**
 * The server's menus in the local order when the builder has dragged without saving: ids the local order
 * knows keep their places, new ones go after their server predecessor, gone ones drop out.
 * @example mergeOrder(['a', 'b', 'c'], ['b', 'a']) // ['b', 'a', 'c']
 */
export function mergeOrder(serverIds: readonly string[], localIds: readonly string[] | null): string[] {
  if (!localIds) return [...serverIds];
  const known = new Set(serverIds);
  const result = localIds.filter((id) => known.has(id));
  const placed = new Set(result);
  serverIds.forEach((id, i) => {
    if (placed.has(id)) return;
    const before = serverIds
      .slice(0, i)
      .reverse()
      .find((prev) => placed.has(prev));
    result.splice(before === undefined ? 0 : result.indexOf(before) + 1, 0, id);
    placed.add(id);
  });
  return result;
}

/** Puts the new item right after `afterKey`, or at the top when there is none (the lone plus). */
export function insertAfter<T extends { key: string }>(items: readonly T[], afterKey: string | null, item: T): T[] {
  const rest = items.filter((i) => i.key !== item.key);
  const at = afterKey === null ? 0 : rest.findIndex((i) => i.key === afterKey) + 1;
  return [...rest.slice(0, at), item, ...rest.slice(at)];
}

/** True when the filter narrows the list: at least 3 characters after trimming. */
export function isFilterActive(query: string): boolean {
  return query.trim().length >= FILTER_MIN_LENGTH;
}

/** Identifier or display text, case-insensitive; under 3 characters the list is not narrowed. */
export function filterMenus<T extends Pick<MenuListItem, 'userDefinedName' | 'displayText'>>(items: readonly T[], query: string): T[] {
  if (!isFilterActive(query)) return [...items];
  const needle = query.trim().toLowerCase();
  return items.filter((i) => i.userDefinedName.toLowerCase().includes(needle) || i.displayText.toLowerCase().includes(needle));
}

/** Moves one key to another's place (a drop). */
export function moveKey(keys: readonly string[], from: string, to: string): string[] {
  const start = keys.indexOf(from);
  const end = keys.indexOf(to);
  if (start < 0 || end < 0 || start === end) return [...keys];
  const next = [...keys];
  next.splice(start, 1);
  next.splice(end, 0, from);
  return next;
}
