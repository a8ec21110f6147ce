import { DEFAULT_ENGINE_LABELS } from '../shared/app';
import type { EngineLimits } from './types';

/** A hop has 5 s, an action 3 s, a session 180 s of inactivity; Liquid 20 ms of a hop (docs/runtime.md). */
export const DEFAULT_LIMITS: EngineLimits = {
  hopBudgetMs: 5000,
  actionBudgetMs: 3000,
  sessionTimeoutMs: 180_000,
  maxMenuEntriesPerHop: 20,
  maxInputLength: 512,
  maxDeepDialInputs: 10,
  maxHistory: 50,
  renderBudgetMs: 20,
};

/** The engine's English words; an app with languages may give its own (CompiledApp.labels). */
export const UNAVAILABLE_TEXT = DEFAULT_ENGINE_LABELS.unavailable;
/** Closing text when a rule or a script leads to a menu the app no longer has (a draft after a delete). */
export const MISSING_MENU_TEXT = 'This option leads to a menu that no longer exists.';
export const INVALID_CHOICE_TEXT = DEFAULT_ENGINE_LABELS.invalidChoice;
/** Closing text of a Terminate rule that has none of its own. */
export const DEFAULT_END_TEXT = DEFAULT_ENGINE_LABELS.thankYou;
/** Closing text of a session the runtime no longer has, when starting it over would run an action (resumeLostSession). */
export const SESSION_LOST_TEXT = 'Your session has ended. Please dial again.';

/** Resolved once per overrides object (a runtime passes the same one on every hop). */
const resolved = new WeakMap<Partial<EngineLimits>, EngineLimits>();

export function resolveLimits(overrides: Partial<EngineLimits> | undefined): EngineLimits {
  if (!overrides) return DEFAULT_LIMITS;
  let limits = resolved.get(overrides);
  if (!limits) {
    limits = { ...DEFAULT_LIMITS, ...overrides };
    resolved.set(overrides, limits);
  }
  return limits;
}

/**
 * Resume on redial: the screen offered to a dialler whose previous session dropped (offerResume), and the inputs
 * that answer it. Short enough for the smallest screen (60) with `Invalid choice` above it.
 */
export const RESUME_OFFER_TEXT = '1. Continue where you left off\n2. Start again';
export const RESUME_CONTINUE_INPUT = '1';
export const RESUME_START_AGAIN_INPUT = '2';
