import { EmptyState, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A shortcode screen's title, what it is for, and its main button or link. */
export function ShortCodePageHeader({ title, description, action }: { title: string; description: string; action?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" gap="md">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          {title}
        </Title>
        <Text c="gray.7" mt={6} maw={640}>
          {description}
        </Text>
      </div>
      {action}
    </Group>
  );
}

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
