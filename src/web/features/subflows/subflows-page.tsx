import { Anchor, Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHierarchy2, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Subflow, SubflowUse } from '../../../shared/api/subflows.schema';
import { EmptyPanel } from '../../components/list-states';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { SubflowDialog } from './subflow-dialog';
import { removeSubflow, SUBFLOWS_KEY, subflowDesignPath, useSubflows } from './subflows.api';

/** Sub-flows (/subflows): the account's shared groups of menus, what each takes and gives back, and who uses which version. */
export function SubflowsPage() {
  const { data: subflows, error, isPending, refetch } = useSubflows();
  const [editing, setEditing] = useState<Subflow | null>(null);
  const [isDialogOpen, setDialogOpen] = useState(false);
  const navigate = useNavigate();
  const confirm = useConfirmedCall(SUBFLOWS_KEY);
  const openCreate = () => {
    setEditing(null);
    setDialogOpen(true);
  };
  const askDelete = (subflow: Subflow) =>
    confirm({
      title: `Delete ${subflow.name}`,
      question: 'The sub-flow and its menus are deleted. This cannot be undone.',
      done: { title: 'Deleted', message: `${subflow.name} was deleted.` },
      refused: { title: 'Not deleted', message: 'The sub-flow was not deleted.' },
      call: () => removeSubflow(subflow.id),
    });

  return (
    <Stack gap="xl">
      <PageHeader
        title="Sub-flows"
        description="Menus you build once and enter from many apps and bots: a PIN check, a payment confirmation, a language picker."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
            New sub-flow
          </Button>
        }
      />
      {isPending && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-busy="true" aria-label="Loading sub-flows">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} height={180} radius="lg" />
          ))}
        </SimpleGrid>
      )}
      {error && <LoadErrorAlert title="Sub-flows not loaded" message={error.message} onRetry={() => void refetch()} />}
      {subflows?.length === 0 && (
        <EmptyPanel
          testId="subflows-empty"
          icon={<IconHierarchy2 size={28} />}
          title="No sub-flows yet"
          description="Build a group of menus once, with the inputs it takes and the outputs it gives back; then any menu's rule can enter it and come back."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={openCreate}>
              Create your first sub-flow
            </Button>
          }
        />
      )}
      {subflows && subflows.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="subflow-cards">
          {subflows.map((subflow) => (
            <SubflowCard
              key={subflow.id}
              subflow={subflow}
              onEdit={() => {
                setEditing(subflow);
                setDialogOpen(true);
              }}
              onDelete={() => askDelete(subflow)}
            />
          ))}
        </SimpleGrid>
      )}
      <SubflowDialog
        subflow={editing}
        opened={isDialogOpen}
        onClose={() => setDialogOpen(false)}
        onCreated={(id) => void navigate(subflowDesignPath(id))}
      />
    </Stack>
  );
}

function SubflowCard({ subflow, onEdit, onDelete }: { subflow: Subflow; onEdit: () => void; onDelete: () => void }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="article" aria-label={subflow.name} data-subflow-id={subflow.id}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={36} radius="md" style={{ flexShrink: 0 }}>
          <IconHierarchy2 size={20} />
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {subflow.name}
          </Text>
          <Text size="xs" c="dimmed">
            {subflow.menus} menu{subflow.menus === 1 ? '' : 's'} ·{' '}
            {subflow.latestVersion === null ? 'no version yet' : `version ${subflow.latestVersion}`}
          </Text>
        </div>
      </Group>
      {subflow.description && (
        <Text size="sm" mt="sm" lineClamp={3}>
          {subflow.description}
        </Text>
      )}
      <Group gap={6} mt="sm" wrap="wrap">
        {subflow.inputs.map((input) => (
          <Badge key={`in-${input.name}`} variant="light" color="blue" tt="none" title={input.description || undefined}>
            in: {input.name}
          </Badge>
        ))}
        {subflow.outputs.map((output) => (
          <Badge key={`out-${output.name}`} variant="light" color="teal" tt="none" title={output.description || undefined}>
            out: {output.name}
          </Badge>
        ))}
      </Group>
      <UsedBy uses={subflow.usedBy} latest={subflow.latestVersion} />
      <Group justify="space-between" mt="md" gap="xs">
        <Group gap="xs">
          <Button
            component={Link}
            to={subflowDesignPath(subflow.id)}
            variant="light"
            size="xs"
            aria-label={`Design menus of ${subflow.name}`}
          >
            Design menus
          </Button>
          <Button variant="subtle" size="xs" leftSection={<IconPencil size={14} />} onClick={onEdit} aria-label={`Edit ${subflow.name}`}>
            Edit
          </Button>
        </Group>
        <RowAction label="Delete" ariaLabel={`Delete ${subflow.name}`} icon={IconTrash} color="red" onClick={onDelete} />
      </Group>
    </Card>
  );
}

/** Who enters the sub-flow: each app with the version its live version runs, marked when an older one. */
function UsedBy({ uses, latest }: { uses: SubflowUse[]; latest: number | null }) {
  if (uses.length === 0)
    return (
      <Text size="xs" c="dimmed" mt="sm">
        No app uses it yet.
      </Text>
    );
  return (
    <Stack gap={4} mt="sm" data-testid="subflow-used-by">
      <Text size="xs" fw={600}>
        Used by
      </Text>
      {uses.map((use) => {
        const isOlder = use.subflowVersion !== null && latest !== null && use.subflowVersion < latest;
        return (
          <Group key={use.appId} gap={6} wrap="nowrap">
            <Anchor
              component={Link}
              to={`${use.channel === 'whatsapp' ? '/whatsapp-bot/design' : '/app/design'}/${use.appId}`}
              size="sm"
              truncate
            >
              {use.appName}
            </Anchor>
            {use.subflowVersion !== null ? (
              <Badge size="xs" variant={isOlder ? 'filled' : 'light'} color={isOlder ? 'orange' : 'gray'} tt="none">
                {isOlder ? `runs version ${use.subflowVersion} (older)` : `runs version ${use.subflowVersion}`}
              </Badge>
            ) : (
              <Badge size="xs" variant="light" color="gray" tt="none">
                draft only
              </Badge>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
