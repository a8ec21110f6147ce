import { z } from 'zod';
import { defineCall } from './contract';
import { envelopeSchema, messageSchema } from './envelope';
import {
  actionResultEntrySchema,
  debugBodySchema,
  logEntrySchema,
  searchLogsBodySchema,
  sessionPathSchema,
  streamLogEntrySchema,
  streamLogsBodySchema,
  userInputEntrySchema,
} from './monitoring.schema';

// The calls of an app's logs and sessions' debug data (src/shared/api/contract.ts): Application Logs, the
// emulator's panels and the flow map's session path. The emulator's debug lists sit below ['emulator', appId],
// each under its session.

/** POST /streamLogs: the log lines after a cursor, for the emulator's log panel. */
export const findStreamLogs = defineCall({
  method: 'POST',
  path: '/streamLogs',
  body: streamLogsBodySchema,
  reply: envelopeSchema(z.array(streamLogEntrySchema)),
});

/** POST /actionlogs/searchLogs: Application Logs' lines that match the filter. */
export const searchLogs = defineCall({
  method: 'POST',
  path: '/actionlogs/searchLogs',
  body: searchLogsBodySchema,
  reply: envelopeSchema(z.array(logEntrySchema)),
});

/** POST /actionlogs/clearLogs: deletes every log line of the app. */
export const clearLogs = defineCall({
  method: 'POST',
  path: '/actionlogs/clearLogs',
  body: z.object({ appId: z.string().min(1).max(64) }),
  reply: messageSchema,
});

/** POST /debug/userInputs: what an emulator session typed, by field (the debug panel polls it). */
export const findUserInputs = defineCall({
  method: 'POST',
  path: '/debug/userInputs',
  body: debugBodySchema,
  reply: envelopeSchema(z.array(userInputEntrySchema)),
  key: ['emulator', ':appId', 'userInputs', ':sessionId'],
});

/** POST /debug/sessionPath: the menus a session was shown and the rules it took (the flow map's "Show path"). */
export const findSessionPath = defineCall({
  method: 'POST',
  path: '/debug/sessionPath',
  body: debugBodySchema,
  reply: envelopeSchema(sessionPathSchema),
  key: ['monitoring', 'path', ':appId', ':sessionId'],
});

/** POST /debug/actionResults: what an emulator session's actions returned (the debug panel polls it). */
export const findActionResults = defineCall({
  method: 'POST',
  path: '/debug/actionResults',
  body: debugBodySchema,
  reply: envelopeSchema(z.array(actionResultEntrySchema)),
  key: ['emulator', ':appId', 'actionResults', ':sessionId'],
});
