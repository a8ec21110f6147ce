import { useQuery } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import type { AppVersionInfo } from '../../../shared/api/menus.schema';
import type { Menu, MenuLite } from '../../../shared/app';
import { isOk, type ApiReply } from '../../lib/api';
import { appQueryKey, getApp, isNetworkFailure, isNotFound } from '../apps/apps.api';
import {
  CUSTOM_ACTIONS_QUERY_KEY,
  findAppVersions,
  findCustomActions,
  findMenus,
  findMenusLite,
  getJavascriptDocs,
  JAVASCRIPT_DOCS_QUERY_KEY,
  menusLiteQueryKey,
  menusQueryKey,
  versionsQueryKey,
  type CustomActionItem,
} from './designer.api';

export class AppNotFoundError extends Error {}

/** The reply's data, or an error carrying the server's message (or ours when the call never got there). */
function readData<T>(reply: ApiReply<T>, what: string): T {
  if (isOk(reply) && reply.data !== undefined) return reply.data;
  if (isNotFound(reply)) throw new AppNotFoundError(reply.message || 'App not found');
  throw new Error(isNetworkFailure(reply) ? `An error occurred while loading ${what}. Check your connection and try again.` : reply.message || `Failed to fetch ${what}`);
}

export function useDesignerApp(appId: string) {
  return useQuery({
    queryKey: appQueryKey(appId),
    queryFn: async (): Promise<App> => readData(await getApp(appId), 'the app'),
    retry: (count, err) => !(err instanceof AppNotFoundError) && count < 1,
  });
}

export function useMenus(appId: string) {
  return useQuery({ queryKey: menusQueryKey(appId), queryFn: async (): Promise<Menu[]> => readData(await findMenus(appId), 'menus') });
}

/** The lite list (uniqueId, displayText, userDefinedName): the target menus of navigation rules. */
export function useMenusLite(appId: string) {
  return useQuery({ queryKey: menusLiteQueryKey(appId), queryFn: async (): Promise<MenuLite[]> => readData(await findMenusLite(appId), 'menus') });
}

export function useAppVersions(appId: string, enabled: boolean) {
  return useQuery({
    queryKey: versionsQueryKey(appId),
    queryFn: async (): Promise<AppVersionInfo[]> => readData(await findAppVersions(appId), 'versions'),
    enabled,
  });
}

/**
 * GET /api/custom-actions. A server without the call yet ('04', no route) means there are none; any other
 * failure shows its message or the spec's 'Failed to fetch custom actions'.
 */
export function useCustomActions(enabled: boolean) {
  return useQuery({
    queryKey: CUSTOM_ACTIONS_QUERY_KEY,
    queryFn: async (): Promise<CustomActionItem[]> => {
      const reply = await findCustomActions();
      if (isOk(reply)) return Array.isArray(reply.data) ? reply.data : [];
      if (isNotFound(reply)) return [];
      throw new Error(reply.message || 'Failed to fetch custom actions');
    },
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

/** The default SDK text for an empty javascript editor; null when the server has none (the editor stays empty). */
export async function fetchJavascriptDocs(): Promise<string | null> {
  const reply = await getJavascriptDocs();
  if (!isOk(reply)) return null;
  const data = reply.data as unknown;
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object' && typeof (data as { text?: unknown }).text === 'string') return (data as { text: string }).text;
  return null;
}
export const javascriptDocsQuery = { queryKey: JAVASCRIPT_DOCS_QUERY_KEY, queryFn: fetchJavascriptDocs, staleTime: Infinity, retry: false } as const;
