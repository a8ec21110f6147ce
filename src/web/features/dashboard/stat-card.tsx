import { Group, Paper, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One figure of the dashboard: its name, the number or a time written out (a skeleton while it loads), an icon, and
 * an optional line under it.
 */
export function StatCard({
  label,
  value,
  icon,
  color,
  hint,
}: {
  label: string;
  value: number | string | undefined;
  icon: ReactNode;
  color: string;
  hint?: string;
}) {
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="dashboard-card" role="group" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton h={32} w={60} mt={6} />
          ) : (
            <Text fz={32} fw={700} lh={1.2} mt={4} style={{ whiteSpace: 'nowrap' }} data-testid="dashboard-card-value">
              {value.toLocaleString()}
            </Text>
          )}
          {hint && value !== undefined ? (
            <Text size="xs" c="dimmed" data-testid="dashboard-card-hint">
              {hint}
            </Text>
          ) : null}
        </div>
        <ThemeIcon variant="light" color={color} size={44} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
    </Paper>
  );
}
