import { ActionIcon, Alert, Badge, Box, Button, Code, Group, Stack, Tooltip } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCopy,
  IconEye,
  IconEyeOff,
  IconKey,
  IconPlugConnected,
  IconPlus,
  IconShieldLock,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { type Provider, SHORTCODE_MESSAGES } from '../../../shared/api/shortcodes.schema';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { ShortcodeProviderCreateDialog } from './shortcode-provider-create-dialog';
import { ShortcodeProviderAccessDialog } from './shortcode-provider-access-dialog';
import { useDeleteProviderConfirm, useProviders, useRotateProviderKeyConfirm } from './use-shortcodes';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { NameText } from '../../components/name-text';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';
import { BUY_PATH } from './shortcodes.api';
import { copyToClipboard } from '../../components/copy-field';

/** The Provider Url, its key hidden until revealed (admins paste it into the aggregator's console); copy takes it whole. */
function ProviderUrl({ provider }: { provider: Provider }) {
  const [isRevealed, setRevealed] = useState(false);
  const shown = isRevealed ? provider.providerUrl : provider.providerUrl.replace(provider.gatewayKey, '•'.repeat(12));
  return (
    <Group gap={4} wrap="nowrap" align="center">
      <Code fz="xs" style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="provider-url">
        {shown}
      </Code>
      <Tooltip label={isRevealed ? 'Hide key' : 'Show key'} withArrow>
        <ActionIcon
          variant="subtle"
          size="lg"
          onClick={() => setRevealed((v) => !v)}
          aria-label={`${isRevealed ? 'Hide' : 'Show'} the key of ${provider.providerName}`}
          aria-pressed={isRevealed}
          style={{ flexShrink: 0 }}
        >
          {isRevealed ? <IconEyeOff size={16} /> : <IconEye size={16} />}
        </ActionIcon>
      </Tooltip>
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
export function ShortcodeProviderListPage() {
  return (
    <RoleGuard audience={['shortcode.manage']} redirectTo={BUY_PATH}>
      <ProviderList />
    </RoleGuard>
  );
}

function ProviderList() {
  const providersQuery = useProviders();
  const providers = providersQuery.data;
  const [isCreateOpen, setCreateOpen] = useState(false);
  const confirmDelete = useDeleteProviderConfirm();
  const confirmRotate = useRotateProviderKeyConfirm();
  const [accessOf, setAccessOf] = useState<Provider | null>(null);
  const legacy = providers?.filter((provider) => provider.acceptsUnauthenticated) ?? [];

  const columns: ListColumn<Provider>[] = [
    {
      header: 'Provider Name',
      cellProps: { style: { minWidth: 0 } },
      render: (provider) => (
        <>
          <NameText fw={600} size="sm" maw={280}>
            {provider.providerName}
          </NameText>
          {provider.acceptsUnauthenticated && (
            <Badge color="orange" variant="light" size="sm" mt={4} leftSection={<IconAlertTriangle size={12} />}>
              Legacy: no key needed
            </Badge>
          )}
          {provider.allowedSources.length > 0 && (
            <Badge color="gray" variant="light" size="sm" mt={4} ml={provider.acceptsUnauthenticated ? 4 : 0}>
              {provider.allowedSources.length === 1 ? '1 allowed source' : `${provider.allowedSources.length} allowed sources`}
            </Badge>
          )}
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
      header: 'Actions',
      align: 'right',
      width: 150,
      render: (provider) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <RowAction
            label="Access"
            ariaLabel={`Access settings of ${provider.providerName}`}
            icon={IconShieldLock}
            onClick={() => setAccessOf(provider)}
          />
          <RowAction
            label="New key"
            ariaLabel={`New key for ${provider.providerName}`}
            icon={IconKey}
            onClick={() => confirmRotate(provider)}
          />
          <RowAction
            label="Delete"
            ariaLabel={`Delete ${provider.providerName}`}
            icon={IconTrash}
            color="red"
            onClick={() => confirmDelete(provider)}
          />
        </Group>
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
        description="Aggregators and networks that forward a shared shortcode's sessions to Dialflow. Give each its Provider Url: the key at its end is what lets its traffic in."
        action={newButton}
      />
      {legacy.length > 0 && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Traffic without a key is still accepted"
          data-testid="legacy-providers"
        >
          {legacy.map((provider) => provider.providerName).join(', ')} {legacy.length === 1 ? 'accepts' : 'accept'} sessions on the Provider
          Url without its key, so anyone who knows the Provider Id can start sessions on their shortcodes' apps. Give each aggregator its
          Provider Url with the key, then turn off "Accept unauthenticated traffic" in Access.
        </Alert>
      )}

      <ListSection
        query={providersQuery}
        loadingLabel="Loading providers"
        errorTitle="Providers not loaded"
        errorTestId="shortcodes-error"
        empty={
          <EmptyPanel
            testId="providers-empty"
            icon={<IconPlugConnected size={28} />}
            title={SHORTCODE_MESSAGES.noProviders}
            description="Register the aggregator that forwards your shared shortcode, then give it the Provider Url shown here."
            action={newButton}
          />
        }
      >
        {(rows) => (
          <ListTable
            rows={rows}
            columns={columns}
            getRowKey={(provider) => provider.uuid}
            getRowMark={(provider) => provider.providerId}
            label="ShortCode Providers"
            testId="providers-table"
          />
        )}
      </ListSection>

      <ShortcodeProviderCreateDialog opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
      <ShortcodeProviderAccessDialog provider={accessOf} onClose={() => setAccessOf(null)} />
    </Stack>
  );
}
