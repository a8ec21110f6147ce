/** The logs area's types; its calls are declared in src/shared/api/logs.calls.ts. */
import type { z } from 'zod';
import {
  findActionResults as findActionResultsCall,
  findStreamLogs as findStreamLogsCall,
  findUserInputs as findUserInputsCall,
} from '../../../shared/api/logs.calls';
import type { debugBodySchema, logEntrySchema, searchLogsBodySchema, streamLogsBodySchema } from '../../../shared/api/monitoring.schema';
import { call } from '../../lib/call';

export type LogEntry = z.infer<typeof logEntrySchema>;

/** Action types the log filter offers. */
export const LOG_PLUGINS = ['javascript', 'restapi', 'dbaccess', 'sendsms', 'paymentprompt'] as const;

export type LogFilter = z.infer<typeof searchLogsBodySchema>;

// The emulator's three debug calls, until the emulator calls its declarations itself (its own conversion).
export const findStreamLogs = (body: z.input<typeof streamLogsBodySchema>) => call(findStreamLogsCall, { body });
export const findUserInputs = (body: z.infer<typeof debugBodySchema>) => call(findUserInputsCall, { body });
export const findActionResults = (body: z.infer<typeof debugBodySchema>) => call(findActionResultsCall, { body });
