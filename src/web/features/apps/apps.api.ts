import type { App, CloneAppBody, CreateAppBody } from '../../../shared/api/apps.schema';
import { api, type ApiReply } from '../../lib/api';

/** An empty reply is what the shared helper returns when the request never reached the server. */
export const isNetworkFailure = (reply: ApiReply) => reply.status === undefined;

/** The envelope's 'not found' status: another account's app, or one deleted since. */
export const isNotFound = (reply: ApiReply) => reply.status === '04';

export const APPS_QUERY_KEY = ['apps'] as const;
export const appQueryKey = (appId: string) => ['apps', appId] as const;

export const findApps = () => api<App[]>('/api/getAllApps');

export const getApp = (appId: string) => api<App>(`/api/getAppByAppId/${encodeURIComponent(appId)}`);

export const createApp = (body: CreateAppBody) => api<App>('/api/createApp', { body });

/** The spec sends the whole app object back with its edits. */
export const updateApp = (app: App) => api<App>('/api/updateApp', { body: app });

export const cloneApp = (body: CloneAppBody) => api<App>('/api/cloneApp', { body });

export const deleteApp = (appId: string) => api(`/deleteApp/${encodeURIComponent(appId)}`);

/** A merchant account an admin may clone an app into (spec: accounts come from the merchant list). */
export interface MerchantAccount {
  uuid: string;
  fullName?: string;
  companyName?: string;
  email?: string;
}

export const findMerchants = () => api<MerchantAccount[]>('/api/merchant/list');
