import { LOG_LEVEL_ORDER } from '../../../shared/api/monitoring.schema';
import type { LogEntry } from './logs.api';

/**
 * Log View: the lines as they happened, oldest first. Lines of the same millisecond keep the order they were
 * written in (their id), so a session's start always reads above its end.
 */
export function sortLogsByTime(logs: readonly LogEntry[]): LogEntry[] {
  return [...logs].sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.id - b.id);
}

/** Table View: by level ascending (system, debug, info, error), and by time within a level. */
export function sortLogsByLevel(logs: readonly LogEntry[]): LogEntry[] {
  return sortLogsByTime(logs).sort((a, b) => (LOG_LEVEL_ORDER[a.logLevel] ?? 9) - (LOG_LEVEL_ORDER[b.logLevel] ?? 9));
}
