import { COMPLETING_CAUSES, END_CAUSE_LABELS, type EndCause } from '../../shared/session-ends';
import { monitoringPath } from './paths';

/** How the console names why a session ended; records kept from before causes were recorded have none. */
export const causeLabel = (cause: EndCause | null) => (cause ? END_CAUSE_LABELS[cause] : 'Not recorded');

/** One colour per cause on every chart and bar: completions green and blue, the caller's and the network's ends warm, faults red. */
export const CAUSE_COLOURS: Record<EndCause | 'none', string> = {
  completed: 'teal.6',
  terminated: 'cyan.6',
  user_cancelled: 'yellow.6',
  gateway_ended: 'orange.6',
  timed_out: 'indigo.4',
  network_error: 'red.7',
  app_error: 'grape.6',
  budget_exceeded: 'pink.6',
  none: 'gray.5',
};

export const causeColour = (cause: EndCause | null) => CAUSE_COLOURS[cause ?? 'none'];

/**
 * The causes whose records the completed list holds: the app closed those sessions (shared/session-ends.ts: a
 * record's status stays `completed` for an app error's unavailable screen too); the others are uncompleted.
 */
const CLOSED_BY_APP: readonly EndCause[] = [...COMPLETING_CAUSES, 'app_error'];

/** The session list of one cause, filtered by it. */
export const causeListPath = (appId: string, cause: EndCause) =>
  `${monitoringPath(CLOSED_BY_APP.includes(cause) ? 'completed' : 'uncompleted', appId)}?cause=${cause}`;
