/** The finished sessions' calls (the server's features/sessions): completed, uncompleted, search and its export. */
import type { z } from 'zod';
import type { flatSearchSchema, SearchBody, searchRowSchema, sessionRowSchema } from '../../../shared/api/monitoring.schema';
import { api, downloadFile } from '../../lib/api';

export type SessionRow = z.infer<typeof sessionRowSchema>;
export type SearchRow = z.infer<typeof searchRowSchema>;
export type FlatSearch = z.infer<typeof flatSearchSchema>;

const id = (appId: string) => encodeURIComponent(appId);

export const findCompletedSessions = (appId: string) => api<SessionRow[]>(`/dashboard/completedSessions/${id(appId)}`);

export const findUncompletedSessions = (appId: string) => api<SessionRow[]>(`/dashboard/uncompletedSessions/${id(appId)}`);

export const searchSessions = (request: SearchBody) => api<SearchRow[] | FlatSearch>('/dashboard/search', { body: request });
/** Every session the search matches (not only the loaded ones), as a file the server streams. */
export const exportSessions = (request: SearchBody, format: 'csv' | 'xls', fileName: string) =>
  downloadFile('/dashboard/search/export', { ...request, format }, `${fileName}.${format}`);
