import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconListNumbers, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { buildDialPattern, type Extension } from '../../../shared/api/shortcodes.schema';
import { ShortcodeExtensionCreateDialog } from './shortcode-extension-create-dialog';
import { ShortcodeExtensionProvisionDialog } from './shortcode-extension-provision-dialog';
import { formatMonthlyPrice } from './shortcode-format';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { useCatalogue, useDeleteExtensionConfirm } from './use-shortcodes';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { WHOLE_BADGE_STYLES } from '../../lib/format';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';
import { BUY_PATH } from './shortcodes.api';

function StatusBadge({ extension }: { extension: Extension }) {
  return extension.status === 'taken' ? (
    <Badge color="gray" variant="dot" styles={WHOLE_BADGE_STYLES}>
      Taken
    </Badge>
  ) : (
    <Badge color="teal" variant="dot" styles={WHOLE_BADGE_STYLES}>
      Available
    </Badge>
  );
}

function MethodBadge({ extension }: { extension: Extension }) {
  return (
    <Badge variant="outline" color="gray" radius="sm" styles={WHOLE_BADGE_STYLES}>
      {extension.requestMethod}
    </Badge>
  );
}

/** 'Available USSD Extensions' (admins, /provision-shortcode): the catalogue buyers choose from, and provisioning. */
export function ShortcodeExtensionListPage() {
  return (
    <RoleGuard audience={['shortcode.manage', 'shortcode.provision']} redirectTo={BUY_PATH}>
      <ExtensionList />
    </RoleGuard>
  );
}

function ExtensionList() {
  const extensionsQuery = useCatalogue();
  const [isCreateOpen, setCreateOpen] = useState(false);
  const [provisioned, setProvisioned] = useState<Extension | null>(null);
  const confirmDelete = useDeleteExtensionConfirm();

  const columns: ListColumn<Extension>[] = [
    {
      header: 'Short Code',
      render: (extension) => (
        <>
          <Code fz="sm" fw={600}>
            {buildDialPattern(extension)}
          </Code>
          <Text size="xs" c="gray.7" mt={4}>
            {extension.country} · {formatMonthlyPrice(extension.price, extension.currency)}
            {extension.extLength > 0 && ` · buyer chooses ${extension.extLength} digits`}
          </Text>
          {/* On a phone the provider, method and status fold in here. */}
          <Group hiddenFrom="md" gap={6} mt={6}>
            <Text size="xs">{extension.providerName}</Text>
            <MethodBadge extension={extension} />
            <StatusBadge extension={extension} />
          </Group>
        </>
      ),
    },
    {
      header: 'Provider',
      visibleFrom: 'md',
      render: (extension) => (
        <>
          <Text size="sm">{extension.providerName}</Text>
          <Code fz="xs">{extension.provider}</Code>
        </>
      ),
    },
    { header: 'Http Method', visibleFrom: 'md', render: (extension) => <MethodBadge extension={extension} /> },
    { header: 'Status', visibleFrom: 'md', render: (extension) => <StatusBadge extension={extension} /> },
    {
      header: 'Provision',
      align: 'right',
      // A taken fixed extension has nothing left to provision until its purchase ends.
      render: (extension) =>
        extension.status === 'taken' ? (
          <Text size="xs" c="gray.7" data-testid="provision-taken">
            Held by an account
          </Text>
        ) : (
          <Button
            size="xs"
            variant="outline"
            onClick={() => setProvisioned(extension)}
            aria-label={`Provision ${buildDialPattern(extension)}`}
          >
            Provision
          </Button>
        ),
    },
    {
      header: 'Delete',
      align: 'right',
      width: 72,
      render: (extension) => (
        <RowAction
          label="Delete"
          ariaLabel={`Delete ${buildDialPattern(extension)}`}
          icon={IconTrash}
          color="red"
          onClick={() => confirmDelete(extension)}
        />
      ),
    },
  ];

  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreateOpen(true)}>
      New Extension
    </Button>
  );

  return (
    <Stack gap="xl">
      <PageHeader
        title="Available USSD Extensions"
        description="The extensions buyers can rent, by country. Provision one to give it to an account without payment."
        action={newButton}
      />

      <ListSection
        query={extensionsQuery}
        loadingLabel="Loading extensions"
        errorTitle="Extensions not loaded"
        errorTestId="shortcodes-error"
        empty={
          <EmptyPanel
            testId="extensions-empty"
            icon={<IconListNumbers size={28} />}
            title="There are no USSD extensions"
            description="Add an extension of a shared shortcode, such as *920*34#, with its provider and price per month."
            action={newButton}
          />
        }
      >
        {(extensions) => (
          <ListTable
            rows={extensions}
            columns={columns}
            getRowKey={(extension) => extension.uuid}
            getRowMark={(extension) => buildDialPattern(extension)}
            label="Available USSD Extensions"
            testId="extensions-table"
          />
        )}
      </ListSection>

      <ShortcodeExtensionCreateDialog opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
      <ShortcodeExtensionProvisionDialog extension={provisioned} onClose={() => setProvisioned(null)} />
    </Stack>
  );
}
