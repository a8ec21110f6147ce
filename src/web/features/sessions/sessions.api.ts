/** The finished sessions' types; their calls are declared in src/shared/api/sessions.calls.ts. */
import type { z } from 'zod';
import type { flatSearchSchema, searchRowSchema, sessionRowSchema } from '../../../shared/api/monitoring.schema';

export type SessionRow = z.infer<typeof sessionRowSchema>;
export type SearchRow = z.infer<typeof searchRowSchema>;
export type FlatSearch = z.infer<typeof flatSearchSchema>;
