import { EmptyState, Paper, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** Placeholder rows while a shortcode list loads; announced as busy with `label`. */
export function ShortCodeListSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
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

interface ShortCodeListEmptyProps {
  icon: ReactNode;
  title: string;
  description: string;
  /** The button that fills the list (New Provider, Buy an Extension). */
  action?: ReactNode;
  testId: string;
}

/** An empty list: what would be here and how to add the first. */
export function ShortCodeListEmpty({ icon, title, description, action, testId }: ShortCodeListEmptyProps) {
  return (
    <Paper withBorder radius="lg" p="xl" data-testid={testId}>
      <EmptyState icon={icon} withIndicatorBackground title={title} description={description}>
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
