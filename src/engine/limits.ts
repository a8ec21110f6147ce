import type { EngineLimits } from './types';

/** DESIGN section 5: a hop has 5 s, an action 3 s, a session 180 s of inactivity. */
export const DEFAULT_LIMITS: EngineLimits = {
  hopBudgetMs: 5000,
  actionBudgetMs: 3000,
  sessionTimeoutMs: 180_000,
  maxMenuEntriesPerHop: 20,
  maxInputLength: 512,
  maxDeepDialInputs: 10,
  maxHistory: 50,
};

export const UNAVAILABLE_TEXT = 'Service temporarily unavailable. Please try again.';
export const INVALID_CHOICE_TEXT = 'Invalid choice';
/** Closing text of a Terminate rule that has none of its own. */
export const DEFAULT_END_TEXT = 'Thank you.';

/** Resolved once per overrides object (a runtime passes the same one on every hop). */
const resolved = new WeakMap<Partial<EngineLimits>, EngineLimits>();

export function resolveLimits(overrides: Partial<EngineLimits> | undefined): EngineLimits {
  if (!overrides) return DEFAULT_LIMITS;
  let limits = resolved.get(overrides);
  if (!limits) resolved.set(overrides, (limits = { ...DEFAULT_LIMITS, ...overrides }));
  return limits;
}
