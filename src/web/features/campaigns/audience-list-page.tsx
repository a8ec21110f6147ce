import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { deleteAudience } from '../../../shared/api/campaigns.calls';
import type { Audience } from '../../../shared/api/campaigns.schema';
import { BackLink } from '../../components/back-link';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { type ListColumn, ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { call } from '../../lib/call';
import { formatDay } from '../../lib/format';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { AudienceFormDialog } from './audience-form-dialog';
import { AUDIENCES_KEY, CAMPAIGNS_PATH, NEW_AUDIENCE_PARAM, describeAudienceFilter, useAccountApps, useAudiences } from './campaigns.api';

/** Audiences (/campaigns/audiences): the account's saved segments of its contacts, each filter in words. */
export function AudienceListPage() {
  const [params, setParams] = useSearchParams();
  const audiences = useAudiences();
  const apps = useAccountApps();
  const [editing, setEditing] = useState<Audience | null>(null);
  const isCreating = params.get(NEW_AUDIENCE_PARAM) === '1';
  const setCreating = (on: boolean) => setParams(on ? { [NEW_AUDIENCE_PARAM]: '1' } : {}, { replace: true });
  const confirm = useConfirmedCall(AUDIENCES_KEY);
  const appNames = new Map((apps.data ?? []).map((a) => [a.appId, a.appName]));

  const remove = (audience: Audience) =>
    confirm({
      title: `Delete ${audience.name}`,
      question: 'Delete this audience? Campaigns made from it keep their own copy of its filter.',
      done: { title: 'Audience deleted', message: `${audience.name} is deleted.` },
      refused: { title: 'Audience not deleted', message: 'The audience could not be deleted.' },
      call: () => call(deleteAudience, { params: { audienceId: audience.audienceId } }),
    });

  const columns: ListColumn<Audience>[] = [
    {
      header: 'Name',
      render: (a) => (
        <>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {a.name}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
            {describeAudienceFilter(a.filter, appNames)}
          </Text>
        </>
      ),
    },
    {
      header: 'Who',
      visibleFrom: 'sm',
      render: (a) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="audience-filter-words">
          {describeAudienceFilter(a.filter, appNames)}
        </Text>
      ),
    },
    { header: 'Changed', visibleFrom: 'md', render: (a) => <Text size="sm">{formatDay(a.updatedAt)}</Text> },
    {
      header: 'Actions',
      align: 'right',
      render: (a) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <RowAction label="Edit" ariaLabel={`Edit ${a.name}`} icon={IconPencil} onClick={() => setEditing(a)} />
          <RowAction label="Delete" ariaLabel={`Delete ${a.name}`} icon={IconTrash} color="red" onClick={() => remove(a)} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <BackLink to={CAMPAIGNS_PATH} label="Campaigns" />
        <PageHeader
          title="Audiences"
          description="Saved groups of your contacts, by their fields, consent, the channels they were seen on and the sessions they had. A campaign sends to one."
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              New audience
            </Button>
          }
        />
      </Stack>
      <ListSection
        query={audiences}
        loadingLabel="Loading audiences"
        errorTitle="Audiences not loaded"
        errorTestId="audiences-error"
        empty={
          <EmptyPanel
            testId="audiences-empty"
            icon={<IconUsersGroup size={28} />}
            title="No audiences yet"
            description="An audience keeps the contacts a campaign is for: gold members, people who opted in to WhatsApp, callers who abandoned a session last week."
            action={<Button onClick={() => setCreating(true)}>New audience</Button>}
          />
        }
      >
        {(rows) => (
          <ListTable
            rows={rows}
            columns={columns}
            getRowKey={(a) => a.audienceId}
            getRowMark={(a) => a.name}
            label="Audiences"
            testId="audiences-table"
          />
        )}
      </ListSection>
      <AudienceFormDialog audience={null} opened={isCreating} onClose={() => setCreating(false)} />
      <AudienceFormDialog audience={editing} opened={editing !== null} onClose={() => setEditing(null)} />
    </Stack>
  );
}
