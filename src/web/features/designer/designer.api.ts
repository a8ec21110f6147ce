import type { AppVersionInfo, LintIssueDto } from '../../../shared/api/menus.schema';
import type { Menu, MenuBody, MenuLite } from '../../../shared/app';
import type { FieldError } from '../../../shared/app';
import { api, type ApiReply } from '../../lib/api';

/** Query keys of the designer; the lite list is shared with other screens that pick a menu. */
export const menusQueryKey = (appId: string) => ['menus', appId] as const;
export const menusLiteQueryKey = (appId: string) => ['menus', appId, 'lite'] as const;
export const versionsQueryKey = (appId: string) => ['apps', appId, 'versions'] as const;
export const CUSTOM_ACTIONS_QUERY_KEY = ['custom-actions'] as const;
export const JAVASCRIPT_DOCS_QUERY_KEY = ['docs', 'javascript'] as const;

const id = encodeURIComponent;

export const findMenus = (appId: string) => api<Menu[]>(`/api/getAllMenus/${id(appId)}`);
export const findMenusLite = (appId: string) => api<MenuLite[]>(`/api/getAllMenusLite/${id(appId)}`);

/** Create and update answer `{ status, message, uniqueId }`; a refusal may name its field and list every error. */
export type MenuSaveReply = ApiReply & { uniqueId?: string; field?: string; errors?: FieldError[] };
export const createMenu = (menu: MenuBody) => api('/api/createMenu', { body: menu }) as Promise<MenuSaveReply>;
export const updateMenu = (menu: MenuBody) => api('/api/updateMenu', { body: menu }) as Promise<MenuSaveReply>;
export const deleteMenu = (uniqueId: string) => api(`/api/deleteMenu/${id(uniqueId)}`);
export const saveMenuOrder = (appId: string, menuIds: string[]) => api('/api/saveMenuOrder', { body: { appId, menuIds } });

/** '00' with the new version, or 400 '02' with the pre-deploy checks' errors and warnings. */
export type DeployReply = ApiReply<AppVersionInfo> & { errors?: LintIssueDto[]; warnings?: LintIssueDto[] };
export const deployChanges = (appId: string) => api<AppVersionInfo>(`/api/deployChanges/${id(appId)}`) as Promise<DeployReply>;
export const findAppVersions = (appId: string) => api<AppVersionInfo[]>(`/api/getAppVersions/${id(appId)}`);
export const rollbackVersion = (appId: string, version: number) => api<AppVersionInfo>('/api/rollbackVersion', { body: { appId, version } });

/** A saved custom function the 'My Custom Functions' action can run. */
export interface CustomActionItem {
  uuid: string;
  actionName: string;
  description: string;
}
export const findCustomActions = () => api<CustomActionItem[]>('/api/custom-actions');

/** The default SDK text an empty javascript editor starts with; `data` is the text. */
export const getJavascriptDocs = () => api<string>('/api/docs/javascript');
