/**
 * Every call the monitoring screens make (spec 000 section 7): live data, application logs, the dashboard,
 * the finished-session lists and the session search. Each returns the spec's envelope untouched; the screens
 * decide what a non-'00' answer means (an empty list, a toast, reset fields).
 */
import type { z } from 'zod';
import type { dashboardSchema, flatSearchSchema, liveItemSchema, logEntrySchema, searchRowSchema, sessionRowSchema } from '../../../shared/api/monitoring.schema';
import type { MenuLite } from '../../../shared/app/menu.schema';
import { api, downloadFile, type ApiReply } from '../../lib/api';

export type LiveItem = z.infer<typeof liveItemSchema>;
export type LogEntry = z.infer<typeof logEntrySchema>;
export type DashboardData = z.infer<typeof dashboardSchema>;
export type SessionRow = z.infer<typeof sessionRowSchema>;
export type SearchRow = z.infer<typeof searchRowSchema>;
export type FlatSearch = z.infer<typeof flatSearchSchema>;

/** Action types the log filter offers (spec section 2). */
export const LOG_PLUGINS = ['javascript', 'restapi', 'dbaccess', 'sendsms', 'paymentprompt'] as const;

/** Log filter (spec section 3). */
export interface LogFilter {
  appId: string;
  filterByMenu: boolean;
  filterByLevel: boolean;
  filterByPlugin: boolean;
  level: string;
  menuId: string;
  plugin: string;
}

/** Search request (spec section 3); dates are 'YYYY-MM-DD' (the picker has no time). */
export interface SearchRequest {
  appId: string;
  startDate: string;
  endDate: string;
  searchBy: 'date' | 'word';
  searchQuery: string;
  flatResults: boolean;
}

/** The shared helper returns an empty object when the request never reached the server. */
export const isNetworkFailure = (reply: ApiReply) => Object.keys(reply).length === 0;

const id = (appId: string) => encodeURIComponent(appId);

export const findLiveItems = (appId: string) => api<LiveItem[]>(`/dashboard/liveView/${id(appId)}`);

/** The lite menu list: the log filter's menus and the uncompleted list's stop-menu names. */
export const findMenusLite = (appId: string) => api<MenuLite[]>(`/api/getAllMenusLite/${id(appId)}`);

export const searchLogs = (filter: LogFilter) => api<LogEntry[]>('/actionlogs/searchLogs', { body: filter });

export const clearLogs = (appId: string) => api('/actionlogs/clearLogs', { body: { appId } });

export const getDashboard = (appId: string) => api<DashboardData>(`/api/dashboard/appDashboard/${id(appId)}`);

export const findCompletedSessions = (appId: string) => api<SessionRow[]>(`/dashboard/completedSessions/${id(appId)}`);

export const findUncompletedSessions = (appId: string) => api<SessionRow[]>(`/dashboard/uncompletedSessions/${id(appId)}`);

export const searchSessions = (request: SearchRequest) => api<SearchRow[] | FlatSearch>('/dashboard/search', { body: request });
/** Every session the search matches (not only the loaded ones), as a file the server streams. */
export const exportSessions = (request: SearchRequest, format: 'csv' | 'xls', fileName: string) =>
  downloadFile('/dashboard/search/export', { ...request, format }, `${fileName}.${format}`);
