import { useQuery } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import type { AppVersionInfo, VersionDetails } from '../../../shared/api/menus.schema';
import type { Subflow } from '../../../shared/api/subflows.schema';
import { lintApp, type LintIssue } from '../../../engine';
import { DEFAULT_SCREEN_LIMIT, type AppVersion, type Menu, type MenuLite } from '../../../shared/app';
import { type ApiReply, isNetworkFailure, isNotFound, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { AppNotFoundError } from '../apps/use-apps';
import { findAppVersion, findAppVersions, findMenus, findMenusLite } from '../../../shared/api/menus.calls';
import { call, queryKey } from '../../lib/call';

/** The reply's data, or an error carrying the server's message (or ours when the call never got there). */
function readData<T>(reply: ApiReply<T>, what: string): T {
  if (isOk(reply) && reply.data !== undefined) return reply.data;
  if (isNotFound(reply)) throw new AppNotFoundError(reply.message || 'App not found');
  throw new Error(
    isNetworkFailure(reply)
      ? `An error occurred while loading ${what}. Check your connection and try again.`
      : reply.message || `Failed to fetch ${what}`,
  );
}

/** The draft as the engine runs it (the emulator, the test URL), from the designer's queries. */
export function toDraftVersion(appId: string, app: App | undefined, menus: Menu[], subflows?: readonly Subflow[]): AppVersion {
  return {
    appId,
    versionId: 'draft',
    appName: app?.appName ?? '',
    shortCode: app?.shortCode ?? '',
    useTemplateTag: app?.useTemplateTag ?? false,
    screenLimit: app?.screenLimit ?? DEFAULT_SCREEN_LIMIT,
    channel: app?.channel ?? 'ussd',
    menus,
    // As the server's draft: the lint holds screens to the strictest connected gateway (getScreenLimit).
    ...(app?.gatewayConnections.length ? { gatewayConnections: app.gatewayConnections } : {}),
    // A sub-flow's own designer: its menus may Return, and its inputs and outputs are session variables.
    ...(app?.isSubflow ? { subflowInterface: app.subflowInterface ?? { inputs: [], outputs: [] } } : {}),
    // An app's: the account's sub-flows by their inputs and outputs (their menus are their own designers' to check).
    ...(subflows?.length
      ? { subflows: subflows.map((sf) => ({ id: sf.id, name: sf.name, version: 0, inputs: sf.inputs, outputs: sf.outputs, menus: [] })) }
      : {}),
  };
}

/** The deploy checks (lintApp) on the draft, for marks in the designer and the flow map; none when it cannot compile. */
export function lintDraft(version: AppVersion): LintIssue[] {
  if (version.menus.length === 0) return [];
  try {
    return lintApp(version, undefined, { hasSubflowMenus: false });
  } catch {
    return [];
  }
}

export function useMenus(appId: string) {
  return useQuery({
    queryKey: queryKeys.menus(appId),
    queryFn: async (): Promise<Menu[]> => readData(await call(findMenus, { params: { appId } }), 'menus'),
  });
}

/**
 * The lite list (uniqueId, displayText, userDefinedName): the target menus of navigation rules, the log filter's
 * menus and the uncompleted sessions' stop menus.
 */
export function useMenusLite(appId: string, options: { enabled?: boolean; retry?: false } = {}) {
  return useQuery({
    queryKey: queryKeys.menusLite(appId),
    queryFn: async (): Promise<MenuLite[]> => readData(await call(findMenusLite, { params: { appId } }), 'menus'),
    ...options,
  });
}

export function useAppVersions(appId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.appVersions(appId),
    queryFn: async (): Promise<AppVersionInfo[]> => readData(await call(findAppVersions, { params: { appId } }), 'versions'),
    enabled,
  });
}

/** One deployed version: its menus and what changed since the one before it (or since `against`). */
export function useAppVersion(appId: string, version: number, against?: number | 'draft', enabled = true) {
  const input = { params: { appId, version }, query: against === undefined ? {} : { against } };
  return useQuery({
    queryKey: queryKey(findAppVersion, input),
    queryFn: async (): Promise<VersionDetails> => readData(await call(findAppVersion, input), `version ${version}`),
    enabled,
  });
}
