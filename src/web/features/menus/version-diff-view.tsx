import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { describeSummary, summarizeDiff, type FieldChange, type MenuChange, type VersionDiff } from '../../../shared/app';
import classes from './menus.module.css';

const STATUS_BADGES: Record<MenuChange['status'], { label: string; color: string }> = {
  added: { label: 'Added', color: 'teal' },
  removed: { label: 'Removed', color: 'red' },
  changed: { label: 'Changed', color: 'blue' },
};

/** One side of a changed field: its value as text, or a dimmed "(none)" where the field did not exist or was empty. */
function ChangeSide({ label, value }: { label: 'Before' | 'After'; value: string | null }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      {value === null ? (
        <Text size="sm" c="dimmed" fs="italic">
          (none)
        </Text>
      ) : (
        <pre className={label === 'Before' ? classes.diffBefore : classes.diffAfter}>{value}</pre>
      )}
    </div>
  );
}

function FieldChangeRow({ change }: { change: FieldChange }) {
  return (
    <div data-testid="field-change" data-field={change.field}>
      <Text size="sm" fw={600}>
        {change.label}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt={4}>
        <ChangeSide label="Before" value={change.before} />
        <ChangeSide label="After" value={change.after} />
      </SimpleGrid>
    </div>
  );
}

/**
 * What changed between two snapshots, side by side: the app's settings, then each added, removed or changed menu
 * with every changed field's value before and after (docs/versions.md). `diffVersions` makes it (shared/app).
 */
export function VersionDiffView({ diff }: { diff: VersionDiff }) {
  const summary = describeSummary(summarizeDiff(diff));
  return (
    <Stack gap="md" data-testid="version-diff">
      <Text size="sm" fw={600} data-testid="version-diff-summary">
        {summary}
      </Text>
      {diff.app.length > 0 && (
        <Paper withBorder radius="md" p="md">
          <Text fw={700} mb="xs">
            App settings
          </Text>
          <Stack gap="sm">
            {diff.app.map((change) => (
              <FieldChangeRow key={change.field} change={change} />
            ))}
          </Stack>
        </Paper>
      )}
      {diff.menus.map((menu) => {
        const badge = STATUS_BADGES[menu.status];
        return (
          <Paper
            key={menu.uniqueId}
            withBorder
            radius="md"
            p="md"
            data-testid="menu-change"
            data-menu={menu.name}
            data-status={menu.status}
          >
            <Group gap={8} mb="xs">
              <Text fw={700} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {menu.name}
              </Text>
              <Badge color={badge.color} variant="light" size="sm">
                {badge.label}
              </Badge>
              {menu.renamedFrom !== undefined && (
                <Text size="xs" c="dimmed">
                  renamed from <code>{menu.renamedFrom}</code>
                </Text>
              )}
            </Group>
            <Stack gap="sm">
              {menu.fields.map((change) => (
                <FieldChangeRow key={change.field} change={change} />
              ))}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
