/**
 * Why a session ended (docs/runtime.md, "Why a session ended"), kept on its record with what the gateway said about
 * it where it says anything (duration, cost, the network's words).
 *
 * - `completed`: the app closed it on a closing menu (one marked to end the session) or handed it to a person;
 * - `terminated`: a menu's Terminate rule or a script's `{ end }` closed it;
 * - `user_cancelled`: the caller ended it (Hubtel's and Emergent's Release, the emulator's Cancel, a chat's restart
 *   word);
 * - `gateway_ended`: the gateway ended it without saying why (Beem's terminate, Mobiverse's abort);
 * - `timed_out`: the caller stopped answering (the gateway's Timeout, Africa's Talking's `Incomplete`, our own
 *   inactivity limit, a session the store no longer had);
 * - `network_error`: the gateway or network failed it (Africa's Talking's `Failed`, with its error message);
 * - `app_error`: the app could not answer (an authoring fault, a failed step: the unavailable screen);
 * - `budget_exceeded`: the answer would have reached the gateway after its response budget, so the gateway's end
 *   screen was answered in time instead.
 */
export const END_CAUSES = [
  'completed',
  'terminated',
  'user_cancelled',
  'gateway_ended',
  'timed_out',
  'network_error',
  'app_error',
  'budget_exceeded',
] as const;
export type EndCause = (typeof END_CAUSES)[number];

export const END_CAUSE_LABELS: Record<EndCause, string> = {
  completed: 'Completed',
  terminated: 'Terminated by a menu',
  user_cancelled: 'Cancelled by the user',
  gateway_ended: 'Ended by the gateway',
  timed_out: 'Timed out',
  network_error: 'Network error',
  app_error: 'App error',
  budget_exceeded: 'Budget exceeded',
};

/**
 * The causes a completion rate counts as completions. A record's status stays what it was (`completed` when the app
 * closed the session, an app error's unavailable screen included; `abandoned` otherwise); its cause says more.
 */
export const COMPLETING_CAUSES: readonly EndCause[] = ['completed', 'terminated'];

export function isEndCause(value: string): value is EndCause {
  return (END_CAUSES as readonly string[]).includes(value);
}

/**
 * What a gateway says about a session's end, read by its adapter off the end notice: the cause it names and, where
 * it gives them, the session's duration by its clock, its cost (as the gateway writes it, `KES 0.0500`) and the
 * network's words (an error message). Lengths are bounded by the adapter.
 */
export interface GatewayEnding {
  cause: EndCause;
  durationMs?: number;
  cost?: string;
  words?: string;
}
