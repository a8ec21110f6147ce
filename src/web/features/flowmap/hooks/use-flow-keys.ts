import { useHotkeys } from '@mantine/hooks';
import type { Edge } from '@xyflow/react';
import type { Menu } from '../../../../shared/app';
import type { MapNode } from '../components/flow-node';
import type { useFlowEditor } from './use-flow-editor';
import type { SelectedRule } from './use-flow-rules';

interface FlowKeysOptions {
  isEditable: boolean;
  editor: ReturnType<typeof useFlowEditor>;
  menuById: Map<string, Menu>;
  selectedRule: SelectedRule | null;
  deleteSelectedRule: () => Promise<void>;
  deleteMenu: (menu: Menu) => void;
}

/** The map's keys, on a wide screen only: Ctrl+Z / Cmd+Z undoes, Delete or Backspace deletes what is selected. */
export function useFlowKeys({ isEditable, editor, menuById, selectedRule, deleteSelectedRule, deleteMenu }: FlowKeysOptions) {
  const undo = () => void editor.undo();
  useHotkeys([['mod+Z', () => isEditable && undo()]]);

  /** Delete or Backspace on the map: the selected rule, or the selected menu after the usual question. */
  const onBeforeDelete = async ({ nodes: gone }: { nodes: MapNode[]; edges: Edge[] }) => {
    if (!isEditable) return false;
    const menu = gone.length > 0 ? menuById.get(gone[0]!.id) : undefined;
    if (menu) deleteMenu(menu);
    else if (selectedRule) await deleteSelectedRule();
    return false;
  };

  return { undo, onBeforeDelete };
}
