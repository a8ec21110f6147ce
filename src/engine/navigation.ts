/** Choosing where an accepted input leads. */
import type { CompiledMenu, CompiledRule } from './compile';
import { readContactField } from './contact';
import { emitEvent, type HopContext } from './context';

/** What a rule tests: the input, a contact field, or a field of a received file or location ('' when unknown). */
function readSubject(ctx: HopContext, rule: CompiledRule, input: string): string {
  if (rule.contactField !== null) return readContactField(ctx.state.contact, rule.contactField);
  if (rule.mediaSubject === null) return input;
  const [identifier, field] = rule.mediaSubject;
  const received = ctx.state.media?.[identifier] as Record<string, unknown> | undefined;
  const value = received && Object.hasOwn(received, field) ? received[field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * The Always goto rule wins; otherwise the first rule whose comparison matches; null when none does.
 * A rule whose compare value is unusable (saved under older rules, e.g. a lookahead RE2 cannot run) never
 * matches, and each hop that passes it logs why, so the builder sees it in the logs as well as at deploy.
 * A rule on a contact field (`subject`) tests that field of the session's contact ('' when unknown) instead of the input;
 * one on `session.media.<menu>.<field>` that field of the file or location the menu received.
 * @example rules [eq 1 -> buy, valueIn 2,3 -> help] with input "3" picks the second rule.
 */
export function pickRule(ctx: HopContext, menu: CompiledMenu, input: string): CompiledRule | null {
  if (menu.alwaysRule) return menu.alwaysRule;
  for (const rule of menu.rules) {
    if (rule.test === null) {
      emitEvent(ctx, 'error_logged', 'error', `Rule ${rule.index + 1} skipped: ${rule.error ?? 'unusable compare value'}`, { menu });
      continue;
    }
    if (rule.test(readSubject(ctx, rule, input))) return rule;
  }
  return null;
}
