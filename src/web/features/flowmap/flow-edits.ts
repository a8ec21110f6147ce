/**
 * The flow map's edits, pure: what a menu becomes when a rule is drawn, rewired or deleted on the map, and what
 * undoes a deleted menu. The page sends the results through the same calls as the menu list (createMenu,
 * updateMenu, deleteMenu, saveMenuOrder), so the server validates them the same way.
 */
import { ALWAYS_OPERATOR, type Menu, type MenuBody, type SwitchOperation } from '../../../shared/app';

/** The option a menu's text offers on a line: '1. Airtime', '2) Data', '3 - Bundles', '4: Help' give 1 to 4. */
const OPTION_LINE = /^\s*(\d{1,3})\s*[.):-]\s*(\S.*)$/;

/** The option numbers a text offers, in order, each once. */
export function findOptionNumbers(text: string): string[] {
  const numbers = text.split(/\r?\n/).flatMap((line) => {
    const match = OPTION_LINE.exec(line);
    return match ? [match[1]!] : [];
  });
  return [...new Set(numbers)];
}

/** The words of option `number` in a menu's text ('Balance' for '1. Balance'), or null when no line offers it. */
export function findOptionLabel(text: string, number: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const match = OPTION_LINE.exec(line);
    if (match?.[1] === number.trim()) return match[2]!.trim();
  }
  return null;
}

/** The option number of one screen line shown on the map, or null. */
export function findLineOption(line: string): string | null {
  return OPTION_LINE.exec(line)?.[1] ?? null;
}

export type RuleDraft = Pick<SwitchOperation, 'operator' | 'compareVal'>;

/**
 * What a rule drawn from a menu starts as: `= <option>` for the option it was drawn from, else `=` the first
 * option that no rule handles yet, else Always when the menu has no rules and no options (it takes free input).
 * @example suggestRule(home) // { operator: 'eq', compareVal: '2' } when option 1 already has a rule
 */
export function suggestRule(menu: Pick<Menu, 'displayText' | 'switchOperations'>, option?: string | null): RuleDraft {
  if (option) return { operator: 'eq', compareVal: option };
  const handled = new Set(menu.switchOperations.filter((r) => r.operator === 'eq').map((r) => r.compareVal.trim()));
  const free = findOptionNumbers(menu.displayText).find((n) => !handled.has(n));
  if (free) return { operator: 'eq', compareVal: free };
  const hasAlways = menu.switchOperations.some((r) => r.operator === ALWAYS_OPERATOR);
  return !hasAlways && menu.switchOperations.length === 0
    ? { operator: ALWAYS_OPERATOR, compareVal: '' }
    : { operator: 'eq', compareVal: '' };
}

/**
 * The menu with a goto rule added. Rules run in order and an Always rule takes any input, so a new conditional
 * rule goes before the first Always rule; a new Always rule goes last.
 */
export function withRule(menu: Menu, rule: RuleDraft, target: string): Menu {
  const added: SwitchOperation = { operator: rule.operator, compareVal: rule.compareVal.trim(), action: 'goto', actionParam: target };
  const rules = [...menu.switchOperations];
  const always = rules.findIndex((r) => r.operator === ALWAYS_OPERATOR);
  if (rule.operator === ALWAYS_OPERATOR || always < 0) rules.push(added);
  else rules.splice(always, 0, added);
  return { ...menu, switchOperations: rules };
}

/** The menu with rule `index` going to `target` instead. */
export function withRuleTarget(menu: Menu, index: number, target: string): Menu {
  return {
    ...menu,
    switchOperations: menu.switchOperations.map((r, i) => (i === index ? { ...r, action: 'goto' as const, actionParam: target } : r)),
  };
}

/** The menu without rule `index`. */
export function withoutRule(menu: Menu, index: number): Menu {
  return { ...menu, switchOperations: menu.switchOperations.filter((_, i) => i !== index) };
}

/** A rule edge's id on the map (`rule:<menu>:<index>`, see buildFlowGraph) back to its menu and index. */
export function parseRuleEdgeId(edgeId: string): { menuId: string; index: number } | null {
  const match = /^rule:(.+):(\d+)$/.exec(edgeId);
  return match ? { menuId: match[1]!, index: Number(match[2]) } : null;
}

/**
 * After a deleted menu is created again (under a new id), the menus whose gotos still name the old id, with
 * those gotos moved to the new one.
 */
export function repointRules(menus: readonly Menu[], fromId: string, toId: string): Menu[] {
  return menus.flatMap((m) => {
    if (!m.switchOperations.some((r) => r.action === 'goto' && r.actionParam === fromId)) return [];
    return [
      {
        ...m,
        switchOperations: m.switchOperations.map((r) =>
          r.action === 'goto' && r.actionParam === fromId ? { ...r, actionParam: toId } : r,
        ),
      },
    ];
  });
}

/** The body that creates a deleted menu again in its place: after the menu before it, or first. */
export function toRecreateBody(menu: Menu, order: readonly string[]): MenuBody {
  const { uniqueId: _old, ...rest } = menu;
  const at = order.indexOf(menu.uniqueId);
  const before = at > 0 ? order[at - 1]! : null;
  return { ...rest, parentMenuId: before, isFirst: at === 0 };
}

/** The order with `menuId` moved to the front: it becomes the first menu. */
export function orderWithFirst(order: readonly string[], menuId: string): string[] {
  return [menuId, ...order.filter((id) => id !== menuId)];
}
