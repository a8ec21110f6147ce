import { Button, Group, Select, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconLayoutDistributeHorizontal, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import type { Menu } from '../../../../shared/app';
import { countOf } from '../flow-graph';
import type { FlowCounts } from '../hooks/use-flow-layout';

interface FlowMapToolbarProps {
  isEditable: boolean;
  /** The panel holds a new menu already: Add menu waits. */
  isAdding: boolean;
  onAdd: () => void;
  /** What Undo would take back ('Add rule = 2 from home'), or null. */
  lastChange: string | null;
  isBusy: boolean;
  onUndo: () => void;
  hasMoved: boolean;
  onTidyUp: () => void;
  counts: FlowCounts;
  menus: Menu[];
  foundId: string | null;
  onFind: (menuId: string | null) => void;
}

/** The row over the map: Add menu, Undo, Tidy up, what the map holds, and Find a menu. */
export function FlowMapToolbar(props: FlowMapToolbarProps) {
  const { isEditable, lastChange, counts, menus } = props;
  const menuChoices = useMemo(
    () => menus.map((m) => ({ value: m.uniqueId, label: m.userDefinedName || m.uniqueId })).sort((a, b) => a.label.localeCompare(b.label)),
    [menus],
  );
  return (
    <Group justify="space-between" gap="xs">
      <Group gap="xs">
        {isEditable && (
          <>
            <Button size="xs" leftSection={<IconPlus size={16} />} onClick={props.onAdd} disabled={props.isAdding}>
              Add menu
            </Button>
            <Tooltip label={lastChange ? `Undo: ${lastChange} (Ctrl+Z)` : 'Nothing to undo'}>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconArrowBackUp size={16} />}
                onClick={props.onUndo}
                disabled={!lastChange || props.isBusy}
                aria-label={lastChange ? `Undo: ${lastChange}` : 'Undo'}
                data-testid="flow-undo"
              >
                Undo
              </Button>
            </Tooltip>
          </>
        )}
        {(isEditable || props.hasMoved) && (
          <Tooltip label="Lay the map out again (boxes you dragged go back in place)">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconLayoutDistributeHorizontal size={16} />}
              onClick={props.onTidyUp}
              disabled={!props.hasMoved}
            >
              Tidy up
            </Button>
          </Tooltip>
        )}
        <Text size="sm" c="dimmed" data-testid="flow-summary">
          {countOf(counts.menus, 'menu')} · {countOf(counts.rules, 'rule')} · {countOf(counts.back, 'back link')}
          {counts.unreachable > 0 && ` · ${counts.unreachable} unreachable`}
          {counts.broken > 0 && ` · ${counts.broken} with a broken target`}
        </Text>
      </Group>
      <Group gap="sm">
        <Text size="xs" c="dimmed">
          {isEditable ? 'Click a menu to edit it; drag a blue dot to a menu to add a rule.' : 'Scroll or pinch to zoom, drag to pan.'}
        </Text>
        <Select
          aria-label="Find a menu"
          placeholder="Find a menu"
          size="xs"
          w={200}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the menu search' }}
          nothingFoundMessage="No menu by that name"
          leftSection={<IconSearch size={14} />}
          data={menuChoices}
          value={props.foundId}
          onChange={props.onFind}
          data-testid="flow-find"
        />
      </Group>
    </Group>
  );
}
