import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { createMenuDraft, type Menu } from '../../../shared/app';
import { confirmDiscard } from '../../lib/confirm-discard';
import { DISCARD_QUESTION } from './menu-edit-form';
import type { MenuDraft, MenuFormTab } from './menu-form-state';
import { NEW_MENU_KEY } from './menu-list-order';
import type { NewMenuPlace } from './use-menu-list';

/** The menu list's section, where the focus goes when the form closes and its opener is gone. */
export const MENU_LIST_ID = 'menu-list';

export interface MenuEditing {
  key: string;
  tab: MenuFormTab;
  /** Opened from a deploy issue: show the menu's problems at once. */
  showProblems: boolean;
  /** A fresh form each time a menu is opened, even the same one. */
  nonce: number;
}

export interface MenuOpenOptions {
  tab?: MenuFormTab;
  showProblems?: boolean;
  /** For the new menu: the menu it follows (null: first). */
  afterKey?: string | null;
}

interface MenuEditorInput {
  appId: string;
  menus: Menu[];
  isPending: boolean;
  newMenu: NewMenuPlace | null;
  setNewMenu: (place: NewMenuPlace | null) => void;
}

/**
 * Which menu the form holds (a saved one or the new one) and whether it has unsaved changes. Opening another
 * menu asks first when it has; the flow map's `?menu=<uniqueId>[&tab=navigation]` link opens one.
 */
export function useMenuEditor({ appId, menus, isPending, newMenu, setNewMenu }: MenuEditorInput) {
  const [editing, setEditing] = useState<MenuEditing | null>(null);
  const [isDirty, setDirty] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  /** What had the focus when the form opened (an Edit or Add button): it gets it back when the form closes. */
  const openerRef = useRef<HTMLElement | null>(null);

  const editedMenu: MenuDraft | null = useMemo(() => {
    if (!editing) return null;
    if (editing.key === NEW_MENU_KEY) {
      return { ...createMenuDraft(appId), isFirst: newMenu?.afterKey === null, parentMenuId: newMenu?.afterKey ?? null };
    }
    return menus.find((m) => m.uniqueId === editing.key) ?? null;
  }, [editing, menus, newMenu, appId]);

  /** Opens a menu (or the new one) in the form, asking first when the open form has unsaved changes. */
  const open = (key: string, options: MenuOpenOptions = {}) =>
    confirmDiscard(
      isDirty,
      () => {
        const focused = document.activeElement;
        if (focused instanceof HTMLElement && !focused.closest('#menu-editor')) openerRef.current = focused;
        if (key === NEW_MENU_KEY) setNewMenu({ afterKey: options.afterKey ?? null });
        else if (editing?.key === NEW_MENU_KEY) setNewMenu(null);
        setDirty(false);
        setEditing({ key, tab: options.tab ?? 'menu', showProblems: !!options.showProblems, nonce: Date.now() });
        requestAnimationFrame(() => {
          const form = document.getElementById('menu-editor');
          // On a narrow screen the form sits above the list.
          form?.scrollIntoView({ behavior: 'smooth', block: 'start' });
          // The focus goes to the form's first field, so the keyboard carries on where the eyes go.
          const panel = [...(form?.querySelectorAll<HTMLElement>('[role="tabpanel"]') ?? [])].find((p) => p.checkVisibility());
          panel?.querySelector<HTMLElement>('input:not([type="hidden"]), textarea')?.focus({ preventScroll: true });
        });
      },
      DISCARD_QUESTION,
    );

  /**
   * Closes the form and gives the focus back to what opened it, or, when that is gone (the "Add the first menu"
   * button once a menu exists), to the menu list: never to the page, where the next Tab would start over.
   */
  const close = () => {
    if (editing?.key === NEW_MENU_KEY) setNewMenu(null);
    setEditing(null);
    setDirty(false);
    const opener = openerRef.current;
    openerRef.current = null;
    requestAnimationFrame(() => {
      if (opener?.isConnected) opener.focus();
      else document.getElementById(MENU_LIST_ID)?.focus();
    });
  };

  const menuParam = searchParams.get('menu');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the list has loaded for this link; open and the search params are read, not watched
  useEffect(() => {
    if (!menuParam || isPending) return;
    if (menus.some((m) => m.uniqueId === menuParam)) {
      const tab = searchParams.get('tab');
      open(menuParam, { tab: tab === 'navigation' || tab === 'actions' || tab === 'validation' ? tab : 'menu' });
    }
    setSearchParams({}, { replace: true });
    // Once per link: open and the lists are read from the render that sees the loaded menus.
  }, [menuParam, isPending]);

  return { editing, editedMenu, setDirty, open, close };
}
