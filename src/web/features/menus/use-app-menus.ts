import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { FieldError, Menu, MenuBody } from '../../../shared/app';
import { failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useApp } from '../apps/use-apps';
import { createMenu, deleteMenu, saveMenuOrder, updateMenu } from './menus.api';
import { lintDraft, toDraftVersion, useMenus, useMenusLite } from './use-menus';

export type MenuSaveResult = { ok: true; uniqueId: string } | { ok: false; errors?: FieldError[] };

/**
 * The designer's data: the app, its menus (whole and lite), the deploy checks on the draft, and the calls that
 * change menus. Each call toasts its outcome and updates the cached lists; the screen decides what to close.
 */
export function useAppMenus(appId: string) {
  const queryClient = useQueryClient();
  const [isSavingOrder, setSavingOrder] = useState(false);
  const appQuery = useApp(appId);
  const menusQuery = useMenus(appId);
  const liteQuery = useMenusLite(appId);
  const menus = useMemo(() => menusQuery.data ?? [], [menusQuery.data]);
  // The deploy checks on the draft, in the browser: a rule whose target was deleted is marked where it is.
  const lintIssues = useMemo(() => lintDraft(toDraftVersion(appId, appQuery.data, menus)), [appId, appQuery.data, menus]);

  const refreshMenus = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.menus(appId), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.menusLite(appId) }),
      ]),
    [queryClient, appId],
  );

  /** Creates or updates a menu and shows it at once in place (as the server put it), before the lists are read again. */
  const saveMenu = async (body: MenuBody): Promise<MenuSaveResult> => {
    const isNew = !body.uniqueId;
    const reply = isNew ? await createMenu(body) : await updateMenu(body);
    if (!isOk(reply) || !reply.uniqueId) {
      notifications.show({ color: 'red', title: 'Menu not saved', message: failureText(reply, 'The menu could not be saved.') });
      const errors = Array.isArray(reply.errors)
        ? reply.errors
        : reply.field
          ? [{ field: reply.field, message: reply.message ?? '' }]
          : undefined;
      return { ok: false, errors };
    }
    notifications.show({ color: 'teal', title: 'Saved', message: reply.message || 'Menu saved' });
    const uniqueId = reply.uniqueId;
    const saved = { ...body, uniqueId } as Menu;
    queryClient.setQueryData<Menu[]>(queryKeys.menus(appId), (old = []) => {
      if (!isNew) return old.map((m) => (m.uniqueId === uniqueId ? saved : m));
      const at = body.parentMenuId ? old.findIndex((m) => m.uniqueId === body.parentMenuId) + 1 : 0;
      return [...old.slice(0, at), saved, ...old.slice(at)];
    });
    return { ok: true, uniqueId };
  };

  /** POST /api/saveMenuOrder; a refusal is toasted. Returns the reply when the order was saved. */
  const callSaveOrder = async (order: string[]) => {
    const reply = await saveMenuOrder(appId, order);
    if (isOk(reply)) return reply;
    notifications.show({ color: 'red', title: 'Order not saved', message: failureText(reply, 'The menu order could not be saved.') });
    return null;
  };

  /** Save order: the whole list, toasted, then read again. */
  const saveOrder = async (order: string[]): Promise<boolean> => {
    setSavingOrder(true);
    const reply = await callSaveOrder(order);
    setSavingOrder(false);
    if (!reply) return false;
    notifications.show({ color: 'teal', title: 'Saved', message: reply.message || 'Menu order saved' });
    await refreshMenus();
    return true;
  };

  /** The order saved after a menu's save: silent when it works, the cached list put in that order. */
  const saveOrderQuietly = async (order: string[]): Promise<boolean> => {
    if (!(await callSaveOrder(order))) return false;
    queryClient.setQueryData<Menu[]>(queryKeys.menus(appId), (old = []) => {
      const byId = new Map(old.map((m) => [m.uniqueId, m]));
      return order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    });
    return true;
  };

  /** GET /api/deleteMenu/{uniqueId}, toasted. */
  const removeMenu = async (uniqueId: string): Promise<boolean> => {
    const reply = await deleteMenu(uniqueId);
    if (!isOk(reply)) {
      notifications.show({ color: 'red', title: 'Menu not deleted', message: failureText(reply, 'The menu could not be deleted.') });
      return false;
    }
    notifications.show({ color: 'yellow', title: 'Deleted', message: reply.message || 'Menu deleted' });
    return true;
  };

  return {
    app: appQuery.data,
    menus,
    liteMenus: liteQuery.data ?? [],
    isPending: menusQuery.isPending,
    loadError: appQuery.error ?? menusQuery.error,
    retry: () => Promise.all([appQuery.refetch(), menusQuery.refetch()]),
    lintIssues,
    refreshMenus,
    saveMenu,
    saveOrder,
    isSavingOrder,
    saveOrderQuietly,
    removeMenu,
  };
}
