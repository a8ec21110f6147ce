import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { toMenuScreen, type FieldError, type Menu, type MenuBody } from '../../../shared/app';
import { failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useApp } from '../apps/use-apps';
import { createMenu, deleteMenu, findMenus, saveMenuOrder, updateMenu } from '../../../shared/api/menus.calls';
import { call } from '../../lib/call';
import { lintDraft, toDraftVersion, useMenus, useMenusLite } from './use-menus';
import { useSubflows } from '../subflows/subflows.api';

/** `replaced`: the menu as another tab (or teammate) had saved it since the form opened, which this save replaced. */
export type MenuSaveResult = { ok: true; uniqueId: string; replaced?: Menu } | { ok: false; errors?: FieldError[] };

/** A menu's saved content, comparable whatever the key order (the cache and the server build them differently). */
function menuContent(menu: Menu): string {
  const { uniqueId: _id, parentMenuId: _parent, isFirst: _first, ...content } = menu;
  const screen = toMenuScreen(content);
  return stableStringify({ ...content, ...screen, userDefinedName: content.userDefinedName.trim() });
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** The saved menu when it differs from the one a form opened: someone saved it in between. */
async function findChangedSince(opened: Menu): Promise<Menu | null> {
  const reply = await call(findMenus, { params: { appId: opened.appId } });
  const saved = isOk(reply) ? reply.data?.find((m) => m.uniqueId === opened.uniqueId) : undefined;
  return saved && menuContent(saved) !== menuContent(opened) ? saved : null;
}

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
  // The account's sub-flows, read when a rule enters one: the lint checks what such a rule passes.
  const entersSubflow = menus.some((m) => m.switchOperations.some((r) => r.subflow));
  const { data: subflows, isPending: isSubflowsPending } = useSubflows(entersSubflow);
  // The deploy checks on the draft, in the browser: a rule whose target was deleted is marked where it is.
  const lintIssues = useMemo(
    // Until the sub-flows are read, a rule into one is not taken for a rule into nothing.
    () => (entersSubflow && isSubflowsPending ? [] : lintDraft(toDraftVersion(appId, appQuery.data, menus, subflows))),
    [appId, appQuery.data, menus, subflows, entersSubflow, isSubflowsPending],
  );

  const refreshMenus = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.menus(appId), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.menusLite(appId) }),
      ]),
    [queryClient, appId],
  );

  /**
   * Creates or updates a menu and shows it at once in place (as the server put it), before the lists are read again.
   * `opened` is the menu as the form (or the map) read it: when the saved one differs, this later save still wins,
   * and a warning names what it replaced. `quiet`: no toast when it works (the flow map shows a drawn rule at once).
   */
  const saveMenu = async (body: MenuBody, opened?: Menu | null, { quiet = false } = {}): Promise<MenuSaveResult> => {
    const isNew = !body.uniqueId;
    const replaced = !isNew && opened ? await findChangedSince(opened) : null;
    const reply = await call(isNew ? createMenu : updateMenu, { body });
    if (!isOk(reply) || !reply.uniqueId) {
      showToast({ color: 'red', title: 'Menu not saved', message: failureText(reply, 'The menu could not be saved.') });
      const errors = Array.isArray(reply.errors)
        ? reply.errors
        : reply.field
          ? [{ field: reply.field, message: reply.message ?? '' }]
          : undefined;
      return { ok: false, errors };
    }
    if (!quiet) showToast({ color: 'teal', title: 'Saved', message: reply.message || 'Menu saved' });
    if (replaced)
      showToast({
        color: 'yellow',
        title: 'Changed elsewhere',
        message: `${replaced.userDefinedName || 'This menu'} had been changed in another tab or by a teammate since you opened it; your save replaced that change.`,
        autoClose: 10_000,
      });
    const uniqueId = reply.uniqueId;
    const saved = { ...body, uniqueId } as Menu;
    queryClient.setQueryData<Menu[]>(queryKeys.menus(appId), (old = []) => {
      if (!isNew) return old.map((m) => (m.uniqueId === uniqueId ? saved : m));
      const at = body.parentMenuId ? old.findIndex((m) => m.uniqueId === body.parentMenuId) + 1 : 0;
      return [...old.slice(0, at), saved, ...old.slice(at)];
    });
    return { ok: true, uniqueId, ...(replaced ? { replaced } : {}) };
  };

  /** POST /api/saveMenuOrder; a refusal is toasted. Returns the reply when the order was saved. */
  const callSaveOrder = async (order: string[]) => {
    const reply = await call(saveMenuOrder, { body: { appId, menuIds: order } });
    if (isOk(reply)) return reply;
    showToast({ color: 'red', title: 'Order not saved', message: failureText(reply, 'The menu order could not be saved.') });
    return null;
  };

  /** Save order: the whole list, toasted, then read again. */
  const saveOrder = async (order: string[]): Promise<boolean> => {
    setSavingOrder(true);
    const reply = await callSaveOrder(order);
    setSavingOrder(false);
    if (!reply) return false;
    showToast({ color: 'teal', title: 'Saved', message: reply.message || 'Menu order saved' });
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
    const reply = await call(deleteMenu, { params: { uniqueId } });
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Menu not deleted', message: failureText(reply, 'The menu could not be deleted.') });
      return false;
    }
    showToast({ color: 'yellow', title: 'Deleted', message: reply.message || 'Menu deleted' });
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
