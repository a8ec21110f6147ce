import type { z } from 'zod';
import type {
  AppVersionInfo,
  LintIssueDto,
  rollbackBodySchema,
  saveMenuOrderBodySchema,
  saveMenuPositionsBodySchema,
} from '../../../shared/api/menus.schema';
import type { FieldError, Menu, MenuBody, MenuLite } from '../../../shared/app';
import { api, type ApiReply } from '../../lib/api';

type SaveMenuOrderBody = z.input<typeof saveMenuOrderBodySchema>;
type RollbackBody = z.input<typeof rollbackBodySchema>;
type SaveMenuPositionsBody = z.input<typeof saveMenuPositionsBodySchema>;

const id = encodeURIComponent;

export const findMenus = (appId: string) => api<Menu[]>(`/api/getAllMenus/${id(appId)}`);
export const findMenusLite = (appId: string) => api<MenuLite[]>(`/api/getAllMenusLite/${id(appId)}`);

/** Create and update answer `{ status, message, uniqueId }`; a refusal may name its field and list every error. */
export type MenuSaveReply = ApiReply & { uniqueId?: string; field?: string; errors?: FieldError[] };
export const createMenu = (menu: MenuBody) => api('/api/createMenu', { body: menu }) as Promise<MenuSaveReply>;
export const updateMenu = (menu: MenuBody) => api('/api/updateMenu', { body: menu }) as Promise<MenuSaveReply>;
export const deleteMenu = (uniqueId: string) => api(`/api/deleteMenu/${id(uniqueId)}`);
export const saveMenuOrder = (appId: string, menuIds: string[]) =>
  api('/api/saveMenuOrder', { body: { appId, menuIds } satisfies SaveMenuOrderBody });
/** The flow map's placed boxes; menus left out are laid out by the map again. */
export const saveMenuPositions = (body: SaveMenuPositionsBody) => api('/api/saveMenuPositions', { body });

/**
 * '00' with the new version; 400 '02' with the pre-deploy checks' errors and warnings; 409 '02' with
 * `unchangedSince` when the draft is the live version already.
 */
export type DeployReply = ApiReply<AppVersionInfo> & { errors?: LintIssueDto[]; warnings?: LintIssueDto[]; unchangedSince?: number };
export const deployChanges = (appId: string) => api<AppVersionInfo>(`/api/deployChanges/${id(appId)}`) as Promise<DeployReply>;
export const findAppVersions = (appId: string) => api<AppVersionInfo[]>(`/api/getAppVersions/${id(appId)}`);
export const rollbackVersion = (appId: string, version: number) =>
  api<AppVersionInfo>('/api/rollbackVersion', { body: { appId, version } satisfies RollbackBody });
