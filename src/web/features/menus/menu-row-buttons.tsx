import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface MenuRowButtonProps {
  tooltip: string;
  /** The accessible name: what the button does to which row ('Move rule 2 up'). */
  label: string;
  /** Mantine's colour; the theme's primary when not given. */
  color?: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** One small icon button of a row in the menu form's lists (rules, actions, validations), with its tooltip. */
export function MenuRowButton({ tooltip, label, color, disabled, onClick, children }: MenuRowButtonProps) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon variant="subtle" color={color} aria-label={label} disabled={disabled} onClick={onClick}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

interface MenuRowMoveButtonsProps {
  /** The row as the labels name it: 'rule 2', 'validation 1', an action's name. */
  name: string;
  index: number;
  count: number;
  disabled?: boolean;
  onMove: (by: -1 | 1) => void;
}

/** Move up and Move down of one row; the first cannot go up, the last cannot go down. */
export function MenuRowMoveButtons({ name, index, count, disabled = false, onMove }: MenuRowMoveButtonsProps) {
  return (
    <>
      <MenuRowButton tooltip="Move up" label={`Move ${name} up`} color="gray" disabled={disabled || index === 0} onClick={() => onMove(-1)}>
        <IconArrowUp size={16} />
      </MenuRowButton>
      <MenuRowButton
        tooltip="Move down"
        label={`Move ${name} down`}
        color="gray"
        disabled={disabled || index === count - 1}
        onClick={() => onMove(1)}
      >
        <IconArrowDown size={16} />
      </MenuRowButton>
    </>
  );
}

/** The red trash button that takes a row out of its list. */
export function MenuRowRemoveButton({ tooltip, label, disabled, onClick }: Omit<MenuRowButtonProps, 'color' | 'children'>) {
  return (
    <MenuRowButton tooltip={tooltip} label={label} color="red" disabled={disabled} onClick={onClick}>
      <IconTrash size={16} />
    </MenuRowButton>
  );
}

interface MenuRowControlsProps {
  /** What a row is, 'rule' or 'validation': the buttons name the row by it and its number ('Remove rule 2'). */
  noun: string;
  index: number;
  count: number;
  /** Moving is off (the rules while Always goto is on); removing never is. */
  isMoveDisabled?: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/** Move up, Move down and Remove of a numbered row, beside its fields (a rule, a validation). */
export function MenuRowControls({ noun, index, count, isMoveDisabled, onMove, onRemove }: MenuRowControlsProps) {
  const name = `${noun} ${index + 1}`;
  return (
    <Group gap={2} mt={26} wrap="nowrap">
      <MenuRowMoveButtons name={name} index={index} count={count} disabled={isMoveDisabled} onMove={onMove} />
      <MenuRowRemoveButton tooltip={`Remove ${noun}`} label={`Remove ${name}`} onClick={onRemove} />
    </Group>
  );
}

/** The list with `patch` applied to `items[index]`. */
export function updateItem<T>(items: readonly T[], index: number, patch: Partial<T>): T[] {
  return items.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/** The list without `items[index]`. */
export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** The list with `items[index]` moved `by` places (-1 up, 1 down). */
export function moveItem<T>(items: readonly T[], index: number, by: number): T[] {
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(index + by, 0, item!);
  return next;
}
