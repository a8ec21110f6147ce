import { z } from 'zod';
import { appIdParamsSchema, defineCall } from './contract';
import { envelopeSchema } from './envelope';
import {
  flatSearchSchema,
  searchBodySchema,
  searchRowSchema,
  sessionMessageSchema,
  sessionListQuerySchema,
  sessionMessagesQuerySchema,
  sessionRowSchema,
} from './monitoring.schema';

// The finished sessions' calls (src/shared/api/contract.ts): completed, uncompleted, search and its export.

/** GET /dashboard/completedSessions/:appId?cause=: the app's recent completed sessions (of one end cause). */
export const findCompletedSessions = defineCall({
  method: 'GET',
  path: '/dashboard/completedSessions/:appId',
  params: appIdParamsSchema,
  query: sessionListQuerySchema,
  reply: envelopeSchema(z.array(sessionRowSchema)),
  key: ['monitoring', 'completed', ':appId'],
});

/** GET /dashboard/uncompletedSessions/:appId?cause=: the app's recent abandoned sessions (of one end cause). */
export const findUncompletedSessions = defineCall({
  method: 'GET',
  path: '/dashboard/uncompletedSessions/:appId',
  params: appIdParamsSchema,
  query: sessionListQuerySchema,
  reply: envelopeSchema(z.array(sessionRowSchema)),
  key: ['monitoring', 'uncompleted', ':appId'],
});

/** POST /dashboard/search: the sessions a search matches, as rows or (flatResults) one table of inputs. */
export const searchSessions = defineCall({
  method: 'POST',
  path: '/dashboard/search',
  body: searchBodySchema,
  reply: envelopeSchema(z.union([z.array(searchRowSchema), flatSearchSchema])),
});

/** POST /dashboard/search/export: every session the search matches (not only the loaded ones), as a CSV or Excel file. */
export const exportSessions = defineCall({
  method: 'POST',
  path: '/dashboard/search/export',
  body: searchBodySchema.and(z.object({ format: z.enum(['csv', 'xls']).default('csv') })),
  reply: z.string().meta({ description: 'The file: CSV, or Excel (an HTML table)' }),
  file: true,
});

/** GET /api/dashboard/sessionMessages/:appId?sessionId=: a bot session's sent WhatsApp messages, in order, with their statuses. */
export const findSessionMessages = defineCall({
  method: 'GET',
  path: '/api/dashboard/sessionMessages/:appId',
  params: appIdParamsSchema,
  query: sessionMessagesQuerySchema,
  reply: envelopeSchema(z.array(sessionMessageSchema)),
  key: ['monitoring', 'session-messages', ':appId', ':sessionId'],
});
