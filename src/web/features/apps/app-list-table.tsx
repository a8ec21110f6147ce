import { Card, Code, Group, Paper, Stack, Table, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';
import type { App } from '../../../shared/api/apps.schema';
import { type AppReach, AppRowActions } from './app-row-actions';

export interface AppListColumn {
  header: string;
  align?: 'center' | 'right';
  cellProps?: TableTdProps;
  render: (app: App) => ReactNode;
}

interface AppListTableProps {
  apps: App[];
  /** The table's accessible name. */
  label: string;
  /** The columns before Actions. */
  columns: AppListColumn[];
  /** Wide tables scroll sideways below this width instead of squeezing. */
  minWidth?: number;
  /** A phone's card shows this above the shortcode and the actions. */
  renderCard: (app: App) => ReactNode;
  onClone: (app: App) => void;
  onDelete: (app: App) => void;
  /** What the user may do with each app; absent: everything (their own apps). */
  getReach?: (app: App) => AppReach;
}

/** An app list: a table with each app's actions on wide screens, cards with the shortcode and actions on a phone. */
export function AppListTable({ apps, label, columns, minWidth, renderCard, onClone, onDelete, getReach }: AppListTableProps) {
  const table = (
    <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover aria-label={label} data-testid="app-table">
      <Table.Thead bg="gray.0">
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} ta={column.align}>
              {column.header}
            </Table.Th>
          ))}
          <Table.Th ta="right">Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {apps.map((app) => (
          <Table.Tr key={app.appId} data-app-id={app.appId}>
            {columns.map((column) => (
              <Table.Td key={column.header} {...column.cellProps}>
                {column.render(app)}
              </Table.Td>
            ))}
            <Table.Td>
              <AppRowActions app={app} onClone={onClone} onDelete={onDelete} reach={getReach?.(app)} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <>
      <Paper withBorder radius="lg" visibleFrom="sm" style={{ overflow: 'hidden' }}>
        {minWidth ? <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer> : table}
      </Paper>

      <Stack gap="sm" hiddenFrom="sm" data-testid="app-cards">
        {apps.map((app) => (
          <Card key={app.appId} withBorder radius="md" padding="md">
            {renderCard(app)}
            <Group justify="space-between" mt="sm" gap="xs">
              <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {app.shortCode}
              </Code>
              <AppRowActions app={app} onClone={onClone} onDelete={onDelete} reach={getReach?.(app)} />
            </Group>
          </Card>
        ))}
      </Stack>
    </>
  );
}
