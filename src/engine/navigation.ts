/** Choosing where an accepted input leads. */
import type { CompiledMenu, CompiledRule } from './compile';

/**
 * The Always goto rule wins; otherwise the first rule whose comparison matches; null when none does.
 * @example rules [eq 1 -> buy, valueIn 2,3 -> help] with input "3" picks the second rule.
 */
export function pickRule(menu: CompiledMenu, input: string): CompiledRule | null {
  if (menu.alwaysRule) return menu.alwaysRule;
  for (const rule of menu.rules) if (rule.test !== null && rule.test(input)) return rule;
  return null;
}
