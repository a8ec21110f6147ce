import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconBuildingStore, IconEdit, IconPlus, IconReceipt, IconSettings, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Merchant, MerchantBody } from '../../../shared/api/merchants.schema';
import { getPermissionScope, isInAudience, type Permission } from '../../../shared/roles';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { MerchantForm } from './merchant-form';
import { updateMerchant } from '../../../shared/api/merchants.calls';
import { call } from '../../lib/call';
import { merchantTransactionsPath, REGISTER_MERCHANT_PATH } from './merchants.api';
import { MERCHANTS_KEY, useDeleteMerchantConfirm, useMerchants } from './use-merchants';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { BusinessCategoryBadge } from './business-category-badge';
import { merchantProfilePath } from '../../lib/paths';
import { useCurrentUser } from '../../lib/use-current-user';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

/** All Merchants (`mine` false) and My Merchants: the same table, My Merchants without Full Name. */
export function MerchantListPage({ mine = false }: { mine?: boolean }) {
  return (
    <RoleGuard audience="merchant.read">
      <MerchantList mine={mine} />
    </RoleGuard>
  );
}

function MerchantList({ mine }: { mine: boolean }) {
  const merchantsQuery = useMerchants(mine);
  const [editing, setEditing] = useState<Merchant | null>(null);
  const confirmDelete = useDeleteMerchantConfirm();
  const user = useCurrentUser();
  // The buttons are those the role table gives (src/shared/roles.ts): a SUPPORT admin sees no edit or delete.
  const can = (permission: Permission) => !!user && isInAudience(permission, user);
  // MERCHANT, DEVELOPER and SUPPORT admins read only the merchants assigned to them, here too.
  const readsAll = !!user && getPermissionScope(user, 'merchant.read') === 'all';
  const title = mine ? 'My Merchants' : 'All Merchants';

  const actions = (merchant: Merchant) => (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      <RowAction label="Manage" ariaLabel={`Manage ${merchant.companyName}`} icon={IconSettings} to={merchantProfilePath(merchant.uuid)} />
      {can('merchant.update') && (
        <RowAction label="Edit" ariaLabel={`Edit ${merchant.companyName}`} icon={IconEdit} onClick={() => setEditing(merchant)} />
      )}
      {can('transaction.read') && (
        <RowAction
          label="Transactions"
          ariaLabel={`Transactions of ${merchant.companyName}`}
          icon={IconReceipt}
          to={merchantTransactionsPath(merchant.uuid)}
        />
      )}
      {can('merchant.delete') && (
        <RowAction
          label="Delete"
          ariaLabel={`Delete ${merchant.companyName}`}
          icon={IconTrash}
          color="red"
          onClick={() => confirmDelete(merchant)}
        />
      )}
    </Group>
  );

  const columns: ListColumn<Merchant>[] = [
    ...(mine
      ? []
      : [
          {
            header: 'Full Name',
            render: (m: Merchant) => (
              <>
                <Text fw={600} size="sm">
                  {m.fullName}
                </Text>
                <Text size="xs" c="gray.7" hiddenFrom="md">
                  {m.companyName} · {m.email}
                </Text>
              </>
            ),
          },
        ]),
    { header: 'Email', visibleFrom: 'md', render: (m) => <Text size="sm">{m.email}</Text> },
    { header: 'Mobile Number', visibleFrom: 'md', render: (m) => <Text size="sm">{m.mobileNumber}</Text> },
    {
      header: 'Company Name',
      visibleFrom: mine ? undefined : 'md',
      render: (m) => (
        <Text size="sm" fw={mine ? 600 : undefined}>
          {m.companyName}
        </Text>
      ),
    },
    {
      header: 'Business Category',
      visibleFrom: 'md',
      render: (m) => <BusinessCategoryBadge category={m.businessCategory} />,
    },
    { header: 'Actions', align: 'right', render: actions },
  ];

  const newLink = can('merchant.register') && (
    <Button component={Link} to={REGISTER_MERCHANT_PATH} leftSection={<IconPlus size={18} />}>
      New Merchant
    </Button>
  );

  return (
    <Stack gap="xl">
      <PageHeader
        title={title}
        description={
          mine
            ? 'The merchants assigned to you: their users, apps and transactions.'
            : 'Enterprise customers: companies that own apps, collect payments through them and have their own users.'
        }
        action={newLink || undefined}
      />
      <ListSection
        query={merchantsQuery}
        loadingLabel="Loading merchants"
        errorTitle="Merchants not loaded"
        errorTestId="merchants-error"
        empty={
          <EmptyPanel
            testId="merchants-empty"
            icon={<IconBuildingStore size={28} />}
            title={mine || !readsAll ? 'No merchants are assigned to you' : 'There are no merchants yet'}
            description={mine || !readsAll ? 'A super admin assigns merchants on Manage Admin.' : 'Register the first enterprise customer.'}
            action={mine || !newLink ? undefined : newLink}
          />
        }
      >
        {(merchants) => (
          <ListTable
            rows={merchants}
            columns={columns}
            getRowKey={(m) => m.uuid}
            getRowMark={(m) => m.email}
            label={title}
            testId="merchants-table"
          />
        )}
      </ListSection>
      <MerchantEditDialog merchant={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}

/** The edit modal of the merchant lists and the profile. */
export function MerchantEditDialog({ merchant, onClose }: { merchant: Merchant | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  return (
    <Modal opened={!!merchant} onClose={onClose} title={merchant ? `Edit ${merchant.companyName}` : 'Edit merchant'} size="lg" centered>
      {merchant && (
        <MerchantForm
          key={merchant.uuid}
          initialValues={{
            fullName: merchant.fullName,
            email: merchant.email,
            mobileNumber: merchant.mobileNumber,
            companyName: merchant.companyName,
            businessCategory: merchant.businessCategory as MerchantBody['businessCategory'],
            isDeveloper: merchant.isDeveloper,
          }}
          submitLabel="Save Changes"
          failure="Failed to update merchant"
          onSubmit={(values) => call(updateMerchant, { body: { ...values, uuid: merchant.uuid } })}
          onDone={async (reply) => {
            showToast({ color: 'teal', title: 'Merchant updated', message: reply.message || merchant.companyName });
            await queryClient.invalidateQueries({ queryKey: MERCHANTS_KEY });
            onClose();
          }}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}
