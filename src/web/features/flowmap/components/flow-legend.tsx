import { Group, Text } from '@mantine/core';
import { EDGE_COLORS } from './flow-node';

/** What the colours and lines mean; the sub-flow box's only when the map has one. */
export function FlowLegend({ isEditable, hasSubflows = false }: { isEditable: boolean; hasSubflows?: boolean }) {
  const swatch = (border: string, background = 'var(--mantine-color-body)', dashed = false) => (
    <span
      style={{
        display: 'inline-block',
        width: 18,
        height: 12,
        borderRadius: 3,
        border: `2px ${dashed ? 'dashed' : 'solid'} ${border}`,
        background,
      }}
    />
  );
  const line = (color: string, dashed = false) => (
    <span style={{ display: 'inline-block', width: 24, borderTop: `2px ${dashed ? 'dashed' : 'solid'} ${color}` }} />
  );
  const dot = (
    <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: 'var(--mantine-color-blue-6)' }} />
  );
  const items: [React.ReactNode, string][] = [
    [swatch('var(--mantine-color-teal-6)'), 'First menu'],
    [swatch('var(--mantine-color-default-border)'), 'Menu (click to edit)'],
    [swatch('var(--mantine-color-yellow-6)', 'var(--mantine-color-yellow-light)', true), 'Unreachable'],
    [swatch('var(--mantine-color-red-6)'), 'Broken target'],
    [swatch('var(--mantine-color-red-6)', 'var(--mantine-color-red-light)', true), 'Missing menu'],
    [swatch('var(--mantine-color-grape-5)', 'var(--mantine-color-grape-light)', true), 'End (Terminate)'],
    ...(hasSubflows
      ? ([[swatch('var(--mantine-color-indigo-5)', 'var(--mantine-color-indigo-light)', true), 'Sub-flow (click to open its map)']] as [
          React.ReactNode,
          string,
        ][])
      : []),
    [line(EDGE_COLORS.rule), 'Rule: condition'],
    [line(EDGE_COLORS.back, true), 'Back'],
    ...(isEditable ? ([[dot, 'Drag a dot to a menu: a new rule']] as [React.ReactNode, string][]) : []),
  ];
  return (
    <Group gap="md" data-testid="flow-legend" aria-label="Legend" role="list">
      {items.map(([icon, label]) => (
        <Group key={label} gap={6} wrap="nowrap" role="listitem">
          {icon}
          <Text size="xs" c="dimmed">
            {label}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
