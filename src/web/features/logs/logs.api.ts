/** The logs area's types; its calls are declared in src/shared/api/logs.calls.ts. */
import type { z } from 'zod';
import type { logEntrySchema, searchLogsBodySchema } from '../../../shared/api/monitoring.schema';

export type LogEntry = z.infer<typeof logEntrySchema>;

/** Action types the log filter offers. */
export const LOG_PLUGINS = ['javascript', 'restapi', 'dbaccess', 'sendsms', 'paymentprompt'] as const;

export type LogFilter = z.infer<typeof searchLogsBodySchema>;
