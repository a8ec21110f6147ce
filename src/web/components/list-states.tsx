import { EmptyState, Paper, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Placeholder rows while a list loads (shortcodes, merchants, admins...); announced as busy with `label`. Its test id
 * is the one the browser tests wait on.
 */
export function ListSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <Paper withBorder radius="lg" p="md" role="status" aria-busy="true" aria-label={label} data-testid="shortcodes-loading">
      <Stack gap="md">
        <Skeleton height={14} width="40%" />
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} height={22} />
        ))}
      </Stack>
    </Paper>
  );
}

interface EmptyPanelProps {
  icon: ReactNode;
  title: string;
  description: string;
  /** The button that fills the list (New Provider, Buy an Extension, Add the first menu). */
  action?: ReactNode;
  testId: string;
}

/** An empty list or map: what would be here and how to add the first. */
export function EmptyPanel({ icon, title, description, action, testId }: EmptyPanelProps) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <EmptyState icon={icon} withIndicatorBackground title={title} description={description}>
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
