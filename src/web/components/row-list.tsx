import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';

interface RowListProps {
  title: string;
  /** What the rows do, in one line under the title. */
  description: string;
  /** The add button's text: 'Add rule'. */
  addLabel: string;
  onAdd: () => void;
  isAddDisabled?: boolean;
  /** Said in place of the rows while there are none. */
  emptyText: string;
  isEmpty: boolean;
  style?: CSSProperties;
  /** The rows. */
  children: ReactNode;
}

/** An ordered list of a form's rows (a menu's rules, validations and actions; a sub-flow's inputs and outputs): its title, Add button, empty note and rows. */
export function RowList({ title, description, addLabel, onAdd, isAddDisabled, emptyText, isEmpty, style, children }: RowListProps) {
  return (
    <Stack gap="sm" style={style}>
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text fw={600} size="sm">
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        </div>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={onAdd}
          disabled={isAddDisabled}
          style={{ flexShrink: 0 }}
        >
          {addLabel}
        </Button>
      </Group>
      {isEmpty && (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {emptyText}
        </Text>
      )}
      {children}
    </Stack>
  );
}
