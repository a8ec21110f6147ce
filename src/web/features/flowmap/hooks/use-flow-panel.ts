import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { createMenuDraft, type Menu, type MenuBody } from '../../../../shared/app';
import { confirmDiscard } from '../../../lib/confirm-discard';
import { confirmMenuDelete } from '../../menus/menu-delete-confirm';
import { DISCARD_QUESTION, type MenuSubmitResult } from '../../menus/menu-edit-form';
import { asSavedMenu, type MenuDraft, type MenuFormTab } from '../../menus/menu-form-state';
import { findRulesLeadingTo } from '../../menus/menu-list-order';
import type { FlowPanelState } from '../components/flow-menu-panel';
import { designMenuPath } from '../../../lib/paths';
import type { MapNode } from '../components/flow-node';
import type { useFlowEditor } from './use-flow-editor';
import { centreOnNode, type FlowInstance } from './use-flow-viewport';

type FlowEditor = ReturnType<typeof useFlowEditor>;

interface FlowPanelOptions {
  appId: string;
  menus: Menu[];
  menuById: Map<string, Menu>;
  editor: FlowEditor;
  isEditable: boolean;
  flow: FlowInstance | null;
  /** Called as a menu opens in the panel: the rule selected on the map is let go. */
  onOpen: () => void;
}

/**
 * The side panel beside the map: which menu is open in it (or a new one), on which tab, whether its form has
 * unsaved changes; opening, saving, closing and deleting its menu. On a narrow screen a box opens the menu list.
 */
export function useFlowPanel({ appId, menus, menuById, editor, isEditable, flow, onOpen }: FlowPanelOptions) {
  const navigate = useNavigate();
  const [panel, setPanel] = useState<FlowPanelState | null>(null);
  const [isDirty, setDirty] = useState(false);

  /** Opens a menu (or a new one) in the side panel, asking first when the open form has unsaved changes. */
  const openPanel = (menuId: string | null, tab: MenuFormTab = 'menu') =>
    confirmDiscard(
      isDirty,
      () => {
        setDirty(false);
        onOpen();
        setPanel({ menuId, tab, nonce: Date.now() });
      },
      DISCARD_QUESTION,
    );
  const closePanel = () => {
    setDirty(false);
    setPanel(null);
  };

  /** A box clicked: its menu in the panel (an End box on the Navigation tab), or in the menu list on a narrow screen. */
  const openNode = (node: MapNode) => {
    // A sub-flow's box opens the sub-flow's own map (docs/sub-flows.md).
    if (node.data.kind === 'subflow' && node.data.subflowId) return void navigate(`/app/design/${node.data.subflowId}/flow`);
    const tab = node.data.kind === 'menu' ? undefined : 'navigation';
    if (!isEditable) return void navigate(designMenuPath(appId, node.data.menuId, tab));
    openPanel(node.data.menuId, tab ?? 'menu');
    // The map narrows for the panel: the box clicked stays in view, at the same zoom.
    requestAnimationFrame(() => {
      if (flow) void centreOnNode(flow, node, flow.getZoom(), 200);
    });
  };

  const panelMenu: MenuDraft | null = useMemo(() => {
    if (!panel) return null;
    if (panel.menuId === null) return { ...createMenuDraft(appId), isFirst: menus.length === 0 };
    return menuById.get(panel.menuId) ?? null;
  }, [panel, menuById, appId, menus.length]);

  const submitPanel = async (body: MenuBody, opened: MenuDraft): Promise<MenuSubmitResult> => {
    const saved = await editor.saveMenu(body, asSavedMenu(opened));
    if (saved.ok) closePanel();
    return saved;
  };

  const deleteMenu = (menu: Menu) =>
    confirmMenuDelete({
      name: menu.userDefinedName || 'this menu',
      leadingHere: findRulesLeadingTo(menus, menu.uniqueId),
      onConfirm: async () => {
        if (await editor.deleteMenu(menu)) {
          if (panel?.menuId === menu.uniqueId) closePanel();
        }
      },
    });

  return { panel, panelMenu, setDirty, openPanel, closePanel, openNode, submitPanel, deleteMenu };
}
