import { ActionIcon, Box, Button, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { type Provider, SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { copyToClipboard } from '../apps/app-url-copy-field';
import { ShortCodeAdminGuard } from './shortcode-admin-guard';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { ShortCodeProviderCreateDialog } from './shortcode-provider-create-dialog';
import { type ShortCodeColumn, ShortCodeTable } from './shortcode-table';
import { useDeleteProviderConfirm, useProviders } from './use-shortcodes';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';

function ProviderUrl({ provider }: { provider: Provider }) {
  return (
    <Group gap={4} wrap="nowrap" align="center">
      <Code fz="xs" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="provider-url">
        {provider.providerUrl}
      </Code>
      <Tooltip label="Copy Provider Url" withArrow>
        <ActionIcon
          variant="subtle"
          size="lg"
          onClick={() => void copyToClipboard(provider.providerUrl)}
          aria-label={`Copy Provider Url of ${provider.providerName}`}
          style={{ flexShrink: 0 }}
        >
          <IconCopy size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** 'ShortCode Providers' (admins): the aggregators that forward shared shortcodes' traffic, and their Urls. */
export function ShortCodeProviderListPage() {
  return (
    <ShortCodeAdminGuard audiences={['shortcode.manage']}>
      <ProviderList />
    </ShortCodeAdminGuard>
  );
}

function ProviderList() {
  const { data: providers, error, isPending, refetch } = useProviders();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const confirmDelete = useDeleteProviderConfirm();

  const columns: ShortCodeColumn<Provider>[] = [
    {
      header: 'Provider Name',
      cellProps: { style: { minWidth: 0 } },
      render: (provider) => (
        <>
          <Text fw={600} size="sm">
            {provider.providerName}
          </Text>
          {/* On a phone the Id and the Url fold in here. */}
          <Box hiddenFrom="md" mt={4}>
            <Code fz="xs">{provider.providerId}</Code>
            <ProviderUrl provider={provider} />
          </Box>
        </>
      ),
    },
    { header: 'Provider ID', visibleFrom: 'md', render: (provider) => <Code fz="sm">{provider.providerId}</Code> },
    { header: 'Provider Url', visibleFrom: 'md', render: (provider) => <ProviderUrl provider={provider} /> },
    {
      header: 'Delete',
      align: 'right',
      width: 80,
      render: (provider) => (
        <RowAction
          label="Delete"
          ariaLabel={`Delete ${provider.providerName}`}
          icon={IconTrash}
          color="red"
          onClick={() => confirmDelete(provider)}
        />
      ),
    },
  ];

  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreateOpen(true)}>
      New Provider
    </Button>
  );

  return (
    <Stack gap="xl">
      <PageHeader
        title="ShortCode Providers"
        description="Aggregators and networks that forward a shared shortcode's sessions to Dialflow. Give each its Provider Url."
        action={newButton}
      />

      {isPending && <ListSkeleton label="Loading providers" />}
      {error && (
        <LoadErrorAlert testId="shortcodes-error" title="Providers not loaded" message={error.message} onRetry={() => void refetch()} />
      )}
      {providers?.length === 0 && (
        <EmptyPanel
          testId="providers-empty"
          icon={<IconPlugConnected size={28} />}
          title={SHORTCODE_MESSAGES.noProviders}
          description="Register the aggregator that forwards your shared shortcode, then give it the Provider Url shown here."
          action={newButton}
        />
      )}
      {providers && providers.length > 0 && (
        <ShortCodeTable
          rows={providers}
          columns={columns}
          getRowKey={(provider) => provider.uuid}
          getRowMark={(provider) => provider.providerId}
          label="ShortCode Providers"
          testId="providers-table"
        />
      )}

      <ShortCodeProviderCreateDialog opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
    </Stack>
  );
}
