import {
  type Announcements,
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  type ScreenReaderInstructions,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Anchor, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconGripVertical, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { getShortText } from '../../../shared/app';
import classes from './menus.module.css';
import { NEW_MENU_KEY, type MenuListItem } from './menu-list-order';

interface MenuCardListProps {
  items: MenuListItem[];
  activeKey: string | null;
  /** Dragging is off while a filter narrows the list (the order of a subset is ambiguous). */
  canDrag: boolean;
  onMove: (fromKey: string, toKey: string) => void;
  onEdit: (item: MenuListItem) => void;
  onDelete: (item: MenuListItem) => void;
  /** Opens the menu on its Navigation tab, its broken rules marked. */
  onFixRules: (item: MenuListItem) => void;
  onAddAfter: (item: MenuListItem | null) => void;
}

const REORDER_INSTRUCTIONS: ScreenReaderInstructions = {
  draggable: 'To move this menu, press Space, then the up and down arrows; Space again drops it, Escape puts it back.',
};

/** What a screen reader says while a menu is moved: the menus by their identifiers, not dnd-kit's ids. */
function describeMoves(items: MenuListItem[]): Announcements {
  const nameOf = (id: string | number) => items.find((i) => i.key === id)?.userDefinedName || 'the new menu';
  return {
    onDragStart: ({ active }) => `Picked up menu ${nameOf(active.id)}.`,
    // Over itself (where every move starts) says nothing: the pick-up sentence stays.
    onDragOver: ({ active, over }) =>
      over && over.id !== active.id ? `Menu ${nameOf(active.id)} is now at the place of ${nameOf(over.id)}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id
        ? `Menu ${nameOf(active.id)} was dropped at the place of ${nameOf(over.id)}. Save order keeps it.`
        : `Menu ${nameOf(active.id)} was dropped at its place.`,
    onDragCancel: ({ active }) => `Moving menu ${nameOf(active.id)} was cancelled; it is back at its place.`,
  };
}

/** The draggable menu cards (dnd-kit, pointer and keyboard), each followed by its plus button. */
export function MenuCardList({ items, activeKey, canDrag, onMove, onEdit, onDelete, onFixRules, onAddAfter }: MenuCardListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements: describeMoves(items), screenReaderInstructions: REORDER_INSTRUCTIONS }}
    >
      <SortableContext items={items.map((i) => i.key)} strategy={verticalListSortingStrategy}>
        <Stack gap={0} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Menus" data-testid="menu-list">
          {items.map((item) => (
            <li key={item.key}>
              <MenuCard
                item={item}
                isActive={item.key === activeKey}
                canDrag={canDrag && item.key !== NEW_MENU_KEY}
                onEdit={onEdit}
                onDelete={onDelete}
                onFixRules={onFixRules}
              />
              {item.key !== NEW_MENU_KEY && (
                <MenuAddButton label={`Add a menu after ${item.userDefinedName || 'this menu'}`} onClick={() => onAddAfter(item)} />
              )}
            </li>
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

export function MenuAddButton({ label, onClick, isAlone = false }: { label: string; onClick: () => void; isAlone?: boolean }) {
  return (
    <div className={isAlone ? undefined : classes.plusRow}>
      <Tooltip label={label} withArrow>
        <ActionIcon
          variant={isAlone ? 'filled' : 'default'}
          radius="xl"
          size={isAlone ? 'xl' : 'md'}
          aria-label={label}
          onClick={onClick}
          style={{ position: 'relative', zIndex: 1 }}
          data-testid="menu-add-button"
        >
          <IconPlus size={isAlone ? 22 : 14} />
        </ActionIcon>
      </Tooltip>
    </div>
  );
}

interface MenuCardProps {
  item: MenuListItem;
  isActive: boolean;
  canDrag: boolean;
  onEdit: (item: MenuListItem) => void;
  onDelete: (item: MenuListItem) => void;
  onFixRules: (item: MenuListItem) => void;
}

function MenuCard({ item, isActive, canDrag, onEdit, onDelete, onFixRules }: MenuCardProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.key,
    disabled: !canDrag,
  });
  const isNew = item.key === NEW_MENU_KEY;
  const name = item.userDefinedName || 'New menu';
  const isBroken = item.brokenRules.length > 0;
  const className = [
    classes.card,
    isActive && classes.cardActive,
    isNew && classes.cardNew,
    isBroken && classes.cardBroken,
    isDragging && classes.cardDragging,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      ref={setNodeRef}
      className={className}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="menu-card"
      data-menu={item.userDefinedName}
      data-key={item.key}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className={`${classes.handle} ${canDrag ? '' : classes.handleDisabled}`}
        aria-label={`Drag ${name} to reorder`}
        title={canDrag ? 'Drag to reorder' : isNew ? 'Save the menu to move it' : 'Clear the filter to reorder'}
        disabled={!canDrag}
        {...attributes}
        {...listeners}
      >
        <IconGripVertical size={18} />
      </button>
      <div className={classes.cardBody}>
        <Group gap={6} wrap="wrap">
          <Text fw={700} size="sm" style={{ overflowWrap: 'break-word', minWidth: 0 }}>
            {name}
          </Text>
          {item.isFirst && (
            <Badge size="xs" variant="light" color="teal">
              First
            </Badge>
          )}
          {item.terminate && (
            <Badge size="xs" variant="light" color="gray">
              Ends
            </Badge>
          )}
          {isNew && (
            <Badge size="xs" variant="light" color="yellow">
              Not saved
            </Badge>
          )}
          {isBroken && (
            <Badge size="xs" variant="light" color="red" leftSection={<IconAlertTriangle size={11} />}>
              Broken rule
            </Badge>
          )}
        </Group>
        <Text size="sm" c={item.displayText ? 'gray.7' : 'dimmed'} className={classes.shortText} mt={2} data-testid="menu-short-text">
          {item.displayText ? getShortText(item.displayText) : isNew ? 'Fill in the form to create this menu.' : '(no text)'}
        </Text>
        {(item.ruleCount > 0 || item.actionCount > 0 || item.validationCount > 0) && (
          <Text size="xs" c="dimmed" mt={4}>
            {[
              item.ruleCount && `${item.ruleCount} rule${item.ruleCount > 1 ? 's' : ''}`,
              item.actionCount && `${item.actionCount} action${item.actionCount > 1 ? 's' : ''}`,
              item.validationCount && `${item.validationCount} validation${item.validationCount > 1 ? 's' : ''}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
        {isBroken && (
          <Stack gap={0} mt={4} data-testid="menu-broken-rules">
            {item.brokenRules.map((b) => (
              <Text key={b.rule} size="xs" c="red.8">
                {b.rule} {b.problem}.
              </Text>
            ))}
            <Anchor
              component="button"
              type="button"
              size="xs"
              fw={600}
              c="red.8"
              ta="left"
              onClick={() => onFixRules(item)}
              aria-label={`Fix the rules of ${name}`}
            >
              Fix in Navigation
            </Anchor>
          </Stack>
        )}
      </div>
      <Group gap={0} wrap="nowrap">
        <Tooltip label="Edit" withArrow>
          <ActionIcon variant="subtle" aria-label={`Edit ${name}`} onClick={() => onEdit(item)}>
            <IconPencil size={17} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Delete" withArrow>
          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${name}`} onClick={() => onDelete(item)}>
            <IconTrash size={17} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </div>
  );
}
