import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBuildingStore, IconEdit, IconReceipt, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { MERCHANT_MESSAGES, type Merchant } from '../../../shared/api/merchants.schema';
import { getPermissionScope } from '../../../shared/roles';
import { BackLink } from '../../components/back-link';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { MerchantEditDialog } from './merchant-list-page';
import { MerchantUserCreateDialog } from './merchant-user-create-dialog';
import { MerchantUserTable } from './merchant-user-table';
import { ALL_MERCHANTS_PATH, merchantTransactionsPath, merchantUsersPath, OWN_TRANSACTIONS_PATH } from './merchants.api';
import { MerchantNotFoundError, useMerchant, useMerchantUsers } from './use-merchants';
import { BusinessCategoryBadge } from './business-category-badge';
import { merchantProfilePath } from '../../lib/paths';
import { useCurrentUser } from '../../lib/use-current-user';
import { RoleGuard } from '../../components/role-guard';

type View = 'profile' | 'users' | 'own';

/**
 * One merchant: `/merchant/profile/{uuid}` (its details and users), `/merchant/list-users/{uuid}` (its users)
 * for admins, and `/merchant/manage-account`, the signed-in merchant user's own company.
 */
export function MerchantProfilePage({ view }: { view: View }) {
  return (
    <RoleGuard audience={view === 'own' ? 'merchant' : 'merchant.read'}>
      <MerchantProfile view={view} />
    </RoleGuard>
  );
}

function MerchantProfile({ view }: { view: View }) {
  const { merchantUuid } = useParams();
  const user = useCurrentUser();
  const merchant = useMerchant(view === 'own' ? undefined : merchantUuid);
  const users = useMerchantUsers(merchant.data?.uuid);
  const [isEditOpen, setEditOpen] = useState(false);
  const [isCreateOpen, setCreateOpen] = useState(false);
  const canManageUsers = view !== 'own' && !!user && !!getPermissionScope(user, 'merchantUser.manage');
  const canEdit = view === 'profile' && !!user && !!getPermissionScope(user, 'merchant.update');
  const canReadTransactions = !!user && !!getPermissionScope(user, 'transaction.read');

  if (merchant.isPending) return <ListSkeleton label="Loading merchant" />;
  if (merchant.error instanceof MerchantNotFoundError)
    return (
      <EmptyPanel
        testId="merchant-not-found"
        icon={<IconBuildingStore size={28} />}
        title={view === 'own' ? MERCHANT_MESSAGES.noMerchant : MERCHANT_MESSAGES.merchantNotFound}
        description={
          view === 'own'
            ? 'This sign-in is not tied to a merchant account. Ask your administrator.'
            : 'This merchant does not exist, was deleted, or is not one of yours.'
        }
        action={
          view === 'own' ? undefined : (
            <Button component={Link} to={ALL_MERCHANTS_PATH} variant="default">
              Back to All Merchants
            </Button>
          )
        }
      />
    );
  if (merchant.error)
    return <LoadErrorAlert title="Merchant not loaded" message={merchant.error.message} onRetry={() => void merchant.refetch()} />;
  const m = merchant.data!;

  return (
    <Stack gap="xl">
      <div>
        {view !== 'own' && <BackLink to={ALL_MERCHANTS_PATH} label="All Merchants" />}
        <Group justify="space-between" align="flex-end" mt={view === 'own' ? 0 : 'xs'}>
          <div>
            <Title order={1} fz={{ base: 26, sm: 32 }}>
              {view === 'own' ? 'Manage Merchant Account' : m.companyName}
            </Title>
            <Text c="gray.7" mt={6}>
              {view === 'users'
                ? 'Users of this merchant: they sign in at Login As Merchant.'
                : `${m.companyName}: the company's profile and its users.`}
            </Text>
          </div>
          <Group gap="sm">
            {view === 'users' && (
              <Button component={Link} to={merchantProfilePath(m.uuid)} variant="default">
                Profile
              </Button>
            )}
            {canReadTransactions && (
              <Button
                component={Link}
                to={view === 'own' ? OWN_TRANSACTIONS_PATH : merchantTransactionsPath(m.uuid)}
                variant="default"
                leftSection={<IconReceipt size={18} />}
              >
                Transactions
              </Button>
            )}
          </Group>
        </Group>
      </div>

      {view !== 'users' && <MerchantDetails merchant={m} onEdit={canEdit ? () => setEditOpen(true) : undefined} />}

      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            Users
          </Title>
          <Group gap="sm">
            {view === 'profile' && (
              <Button component={Link} to={merchantUsersPath(m.uuid)} variant="subtle" leftSection={<IconUsers size={18} />}>
                All users
              </Button>
            )}
            {canManageUsers && (
              <Button leftSection={<IconUserPlus size={18} />} onClick={() => setCreateOpen(true)}>
                Create New User
              </Button>
            )}
          </Group>
        </Group>
        {users.isPending && <ListSkeleton label="Loading users" rows={2} />}
        {users.error && <LoadErrorAlert title="Users not loaded" message={users.error.message} onRetry={() => void users.refetch()} />}
        {users.data?.length === 0 && (
          <EmptyPanel
            testId="merchant-users-empty"
            icon={<IconUsers size={28} />}
            title="No users yet"
            description="Create the merchant's first user: they sign in at Login As Merchant and see its transactions."
          />
        )}
        {users.data && users.data.length > 0 && <MerchantUserTable users={users.data} canDelete={canManageUsers} />}
      </Stack>

      {canManageUsers && <MerchantUserCreateDialog merchantUuid={m.uuid} opened={isCreateOpen} onClose={() => setCreateOpen(false)} />}
      <MerchantEditDialog merchant={isEditOpen ? m : null} onClose={() => setEditOpen(false)} />
    </Stack>
  );
}

function MerchantDetails({ merchant, onEdit }: { merchant: Merchant; onEdit?: () => void }) {
  const fields: Array<[string, string]> = [
    ['Full Name', merchant.fullName],
    ['Company Name', merchant.companyName],
    ['Email', merchant.email],
    ['Mobile Number', merchant.mobileNumber],
  ];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="merchant-details">
      <Group justify="space-between" mb="md">
        <Title order={2} fz="lg">
          Profile Details
        </Title>
        {onEdit && (
          <Button variant="default" leftSection={<IconEdit size={16} />} onClick={onEdit}>
            Edit
          </Button>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {fields.map(([label, value]) => (
          <div key={label}>
            <Text size="xs" c="gray.7" fw={600} tt="uppercase">
              {label}
            </Text>
            <Text style={{ overflowWrap: 'anywhere' }}>{value}</Text>
          </div>
        ))}
        <div>
          <Text size="xs" c="gray.7" fw={600} tt="uppercase">
            Business Category
          </Text>
          <BusinessCategoryBadge category={merchant.businessCategory} mt={4} />
        </div>
        <div>
          <Text size="xs" c="gray.7" fw={600} tt="uppercase">
            Developer
          </Text>
          <Badge variant="light" color={merchant.isDeveloper ? 'teal' : 'gray'} mt={4}>
            {merchant.isDeveloper ? 'Yes' : 'No'}
          </Badge>
        </div>
      </SimpleGrid>
    </Paper>
  );
}
