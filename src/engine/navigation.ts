/** Choosing where an accepted input leads. */
import type { CompiledMenu, CompiledRule } from './compile';
import { readContactField } from './contact';
import { emitEvent, type HopContext } from './context';

/**
 * The Always goto rule wins; otherwise the first rule whose comparison matches; null when none does.
 * A rule whose compare value is unusable (saved under older rules, e.g. a lookahead RE2 cannot run) never
 * matches, and each hop that passes it logs why, so the builder sees it in the logs as well as at deploy.
 * A rule on a contact field (`subject`) tests that field of the session's contact ('' when unknown) instead of the input.
 * @example rules [eq 1 -> buy, valueIn 2,3 -> help] with input "3" picks the second rule.
 */
export function pickRule(ctx: HopContext, menu: CompiledMenu, input: string): CompiledRule | null {
  if (menu.alwaysRule) return menu.alwaysRule;
  for (const rule of menu.rules) {
    if (rule.test === null) {
      emitEvent(ctx, 'error_logged', 'error', `Rule ${rule.index + 1} skipped: ${rule.error ?? 'unusable compare value'}`, { menu });
      continue;
    }
    if (rule.test(rule.contactField === null ? input : readContactField(ctx.state.contact, rule.contactField))) return rule;
  }
  return null;
}
