import { Card, Group, Paper, Skeleton, Stack } from '@mantine/core';

/** Placeholder rows while the app list loads, shaped like the table (desktop) or the cards (phone). */
export function AppListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading apps" data-testid="apps-loading">
      <Paper withBorder radius="lg" p="md" visibleFrom="sm">
        <Stack gap="md">
          <Skeleton height={14} width="40%" />
          {Array.from({ length: rows }, (_, i) => (
            <Group key={i} justify="space-between" wrap="nowrap" gap="xl">
              <Skeleton height={18} width="30%" />
              <Skeleton height={18} width="18%" />
              <Skeleton height={18} width="8%" />
              <Skeleton height={28} width={140} />
            </Group>
          ))}
        </Stack>
      </Paper>
      <Stack gap="sm" hiddenFrom="sm">
        {Array.from({ length: rows }, (_, i) => (
          <Card key={i} withBorder radius="md" padding="md">
            <Skeleton height={16} width="60%" mb="sm" />
            <Skeleton height={12} width="40%" mb="md" />
            <Skeleton height={28} width={160} />
          </Card>
        ))}
      </Stack>
    </div>
  );
}
