import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCode, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyPanel } from '../../components/list-states';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PageHeader } from '../../components/page-header';
import { CustomActionCreateDialog } from './custom-action-create-dialog';
import { customActionPath, type CustomActionListItem } from './custom-actions.api';
import { useCustomActions, useDeleteCustomActionConfirm } from './use-custom-actions';
import { RowAction } from '../../components/row-action';

const formatUpdated = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : `Updated ${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`;
};

/** 'My Custom Actions' (/custom-functions): the account's JavaScript functions as cards. */
export function CustomActionListPage() {
  const { data: actions, error, isPending, refetch } = useCustomActions();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const confirmDelete = useDeleteCustomActionConfirm();
  const openCreate = () => setCreateOpen(true);

  return (
    <Stack gap="xl">
      <PageHeader
        title="My Custom Actions"
        description="JavaScript functions your menus can run: compute values, check input, read earlier actions' results."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
            New Action
          </Button>
        }
      />

      {isPending && <CustomActionListSkeleton />}
      {error && <LoadErrorAlert title="Custom actions not loaded" message={error.message} onRetry={() => void refetch()} />}
      {actions?.length === 0 && (
        <EmptyPanel
          testId="custom-actions-empty"
          icon={<IconCode size={28} />}
          title="No custom actions yet"
          description="Write a function once, test it here with sample session values, then use it from any menu."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
              Create your first action
            </Button>
          }
        />
      )}
      {actions && actions.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="custom-action-cards">
          {actions.map((action) => (
            <CustomActionCard key={action.uuid} action={action} onDelete={confirmDelete} />
          ))}
        </SimpleGrid>
      )}

      <CustomActionCreateDialog opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
    </Stack>
  );
}

function CustomActionCard({ action, onDelete }: { action: CustomActionListItem; onDelete: (action: CustomActionListItem) => void }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="article" aria-label={action.actionName} data-uuid={action.uuid}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={36} radius="md" style={{ flexShrink: 0 }}>
          <IconCode size={20} />
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {action.actionName}
          </Text>
          <Text size="xs" c="dimmed">
            {formatUpdated(action.updatedAt)}
          </Text>
        </div>
      </Group>
      <Text
        size="sm"
        c={action.description ? undefined : 'dimmed'}
        fs={action.description ? undefined : 'italic'}
        mt="sm"
        lineClamp={3}
        style={{ flexGrow: 1 }}
      >
        {action.description || 'No description'}
      </Text>
      <Group justify="space-between" mt="md" gap="xs">
        <Button
          component={Link}
          to={customActionPath(action.uuid)}
          variant="light"
          size="xs"
          leftSection={<IconPencil size={14} />}
          aria-label={`Edit ${action.actionName}`}
        >
          Edit
        </Button>
        <RowAction label="Delete" ariaLabel={`Delete ${action.actionName}`} icon={IconTrash} color="red" onClick={() => onDelete(action)} />
      </Group>
    </Card>
  );
}

function CustomActionListSkeleton() {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 3 }}
      spacing="md"
      aria-busy="true"
      aria-label="Loading custom actions"
      data-testid="custom-actions-loading"
    >
      {Array.from({ length: 6 }, (_, i) => (
        <Card key={i} withBorder radius="lg" padding="lg">
          <Group gap="sm" wrap="nowrap">
            <Skeleton height={36} width={36} radius="md" />
            <Stack gap={6} style={{ flexGrow: 1 }}>
              <Skeleton height={14} width="55%" />
              <Skeleton height={10} width="35%" />
            </Stack>
          </Group>
          <Skeleton height={10} mt="md" />
          <Skeleton height={10} mt={8} width="80%" />
          <Group justify="space-between" mt="lg">
            <Skeleton height={28} width={70} />
            <Skeleton height={28} width={28} />
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
