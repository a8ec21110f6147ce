import type { AppExport, ImportAppBody } from '../../../shared/api/app-transfer.schema';
import type { App, CloneAppBody, CreateAppBody } from '../../../shared/api/apps.schema';
import { api } from '../../lib/api';

/** The redirect after creating an app or saving its settings. */
export const SAVE_REDIRECT_MS = 1000;

export const findApps = () => api<App[]>('/api/getAllApps');

export const getApp = (appId: string) => api<App>(`/api/getAppByAppId/${encodeURIComponent(appId)}`);

export const createApp = (body: CreateAppBody) => api<App>('/api/createApp', { body });

/** Sends the whole app object back with its edits (the call's contract). */
export const updateApp = (app: App) => api<App>('/api/updateApp', { body: app });

/** Turns the app's gateway key on with a new one, or replaces it (the old key is refused at once). */
export const rotateAppGatewayKey = (appId: string) => api<App>(`/api/rotateAppGatewayKey/${encodeURIComponent(appId)}`, { body: {} });

/** Turns the app's gateway key off: its bare URLs are served again. */
export const removeAppGatewayKey = (appId: string) => api<App>(`/api/removeAppGatewayKey/${encodeURIComponent(appId)}`, { body: {} });

export const cloneApp = (body: CloneAppBody) => api<App>('/api/cloneApp', { body });

export const deleteApp = (appId: string) => api(`/deleteApp/${encodeURIComponent(appId)}`);

/** GET /api/exportApp/{appId}: the app as one file (settings and menus, secrets left out). */
export const exportApp = (appId: string) => api<AppExport>(`/api/exportApp/${encodeURIComponent(appId)}`);

/** POST /api/importApp: a new app from a file; a refusal carries `errors` ({ field, message }), a success `warnings`. */
export const importApp = (body: ImportAppBody) => api<App>('/api/importApp', { body });
