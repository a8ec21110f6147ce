/** The logs area's calls (the server's features/logs): the application logs, and the emulator's log stream and debug lists. */
import type { z } from 'zod';
import type {
  actionResultEntrySchema,
  debugBodySchema,
  logEntrySchema,
  searchLogsBodySchema,
  streamLogEntrySchema,
  streamLogsBodySchema,
  userInputEntrySchema,
} from '../../../shared/api/monitoring.schema';
import { api } from '../../lib/api';

export type LogEntry = z.infer<typeof logEntrySchema>;

/** Action types the log filter offers. */
export const LOG_PLUGINS = ['javascript', 'restapi', 'dbaccess', 'sendsms', 'paymentprompt'] as const;

export type LogFilter = z.infer<typeof searchLogsBodySchema>;

export const searchLogs = (filter: LogFilter) => api<LogEntry[]>('/actionlogs/searchLogs', { body: filter });

export const clearLogs = (appId: string) => api('/actionlogs/clearLogs', { body: { appId } });

/** POST /streamLogs: the lines after a cursor, for the emulator's log panel. */
export const findStreamLogs = (body: z.input<typeof streamLogsBodySchema>) =>
  api<z.infer<typeof streamLogEntrySchema>[]>('/streamLogs', { body });

/** POST /debug/userInputs: what an emulator session typed, by field. */
export const findUserInputs = (body: z.infer<typeof debugBodySchema>) =>
  api<z.infer<typeof userInputEntrySchema>[]>('/debug/userInputs', { body });

/** POST /debug/actionResults: what an emulator session's actions returned. */
export const findActionResults = (body: z.infer<typeof debugBodySchema>) =>
  api<z.infer<typeof actionResultEntrySchema>[]>('/debug/actionResults', { body });
