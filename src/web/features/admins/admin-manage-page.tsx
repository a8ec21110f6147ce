import { Anchor, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { IconBuildingStore, IconLinkOff, IconPlus, IconUserCog } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { assignMerchant, updateAdminProfile } from '../../../shared/api/admins.calls';
import { type AdminProfile, updateAdminBodySchema } from '../../../shared/api/admins.schema';
import type { Merchant } from '../../../shared/api/merchants.schema';
import { BackLink } from '../../components/back-link';
import { FormSubmitRow } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { MERCHANTS_KEY, useMerchants } from '../merchants/use-merchants';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { AdminRoleCheckboxes } from './admin-role-checkboxes';
import { RoleBadges } from './admin-list-page';
import { ADMIN_LIST_PATH } from './admins.api';
import { AdminNotFoundError, ADMINS_KEY, useAdminProfile, useRoleTypes, useUnassignMerchantConfirm } from './use-admins';
import { RowAction } from '../../components/row-action';
import { BusinessCategoryBadge } from '../merchants/business-category-badge';
import { merchantProfilePath } from '../../lib/paths';
import { useCurrentUser } from '../../lib/use-current-user';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';
import { TwoFactorResetButton } from '../auth/two-factor-reset-button';

/** Manage Admin (super admins): Profile Details (roles from the server's role types) and Assigned Merchants. */
export function AdminManagePage() {
  return (
    <RoleGuard audience="admin.manage">
      <AdminManage />
    </RoleGuard>
  );
}

function AdminManage() {
  const { adminUuid = '' } = useParams();
  const profile = useAdminProfile(adminUuid);
  const currentUser = useCurrentUser();
  if (profile.isPending) return <ListSkeleton label="Loading admin" />;
  if (profile.error instanceof AdminNotFoundError)
    return (
      <EmptyPanel
        testId="admin-not-found"
        icon={<IconUserCog size={28} />}
        title="Admin not found"
        description="This admin does not exist or was deleted."
        action={
          <Button component={Link} to={ADMIN_LIST_PATH} variant="default">
            Back to System Users
          </Button>
        }
      />
    );
  if (profile.error)
    return <LoadErrorAlert title="Admin not loaded" message={profile.error.message} onRetry={() => void profile.refetch()} />;
  const admin = profile.data!;
  return (
    <Stack gap="xl">
      <div>
        <BackLink to={ADMIN_LIST_PATH} label="System Users" />
        <Group justify="space-between" align="flex-end" mt="xs">
          <div>
            <Title order={1} fz={{ base: 26, sm: 32 }}>
              {admin.fullName}
            </Title>
            <Text c="gray.7" mt={6}>
              {admin.email}
            </Text>
          </div>
          <Group gap="sm">
            <RoleBadges roles={admin.roles} />
            {admin.uuid !== currentUser?.uuid && <TwoFactorResetButton userUuid={admin.uuid} name={admin.fullName} />}
          </Group>
        </Group>
      </div>
      <Tabs defaultValue="profile" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="profile">Profile Details</Tabs.Tab>
          <Tabs.Tab value="merchants">Assigned Merchants</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile" pt="lg">
          <ProfileForm key={`${admin.uuid}-${admin.roles.join()}`} admin={admin} />
        </Tabs.Panel>
        <Tabs.Panel value="merchants" pt="lg">
          <AssignedMerchants admin={admin} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function ProfileForm({ admin }: { admin: AdminProfile }) {
  const queryClient = useQueryClient();
  const roleTypes = useRoleTypes();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { fullName: admin.fullName, email: admin.email, mobileNumber: admin.mobileNumber, roles: admin.roles },
  });
  const handleSubmit = form.onSubmit(async (values) => {
    const parsed = updateAdminBodySchema.safeParse({ ...values, adminUuid: admin.uuid });
    if (!parsed.success) return setMessage(parsed.error.issues[0]?.message ?? null);
    setMessage(null);
    setSubmitting(true);
    const reply = await call(updateAdminProfile, { body: parsed.data });
    setSubmitting(false);
    if (!isOk(reply)) return setMessage(failureText(reply, 'Failed to update profile'));
    showToast({ color: 'teal', title: 'Profile updated', message: reply.message || admin.fullName });
    await queryClient.invalidateQueries({ queryKey: ADMINS_KEY });
  });
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={820}>
      <form onSubmit={handleSubmit} noValidate aria-label="Profile Details">
        <Stack gap="md">
          <FormAlert message={message} onClose={() => setMessage(null)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput label="Full Name" withAsterisk maxLength={120} {...form.getInputProps('fullName')} />
            <TextInput label="Email" type="email" withAsterisk maxLength={254} {...form.getInputProps('email')} />
            <TextInput label="Mobile Number" type="tel" withAsterisk maxLength={32} {...form.getInputProps('mobileNumber')} />
          </SimpleGrid>
          {roleTypes.error && (
            <LoadErrorAlert title="Failed to fetch role types" message={roleTypes.error.message} onRetry={() => void roleTypes.refetch()} />
          )}
          {roleTypes.data && (
            <AdminRoleCheckboxes
              roles={roleTypes.data}
              value={form.values.roles}
              onChange={(roles) => form.setFieldValue('roles', roles)}
            />
          )}
          <FormSubmitRow label="Save Profile" isSubmitting={isSubmitting} />
        </Stack>
      </form>
    </Paper>
  );
}

function AssignedMerchants({ admin }: { admin: AdminProfile }) {
  const [isAssignOpen, setAssignOpen] = useState(false);
  const confirmUnassign = useUnassignMerchantConfirm(admin.uuid);
  const columns: ListColumn<Merchant>[] = [
    {
      header: 'Company Name',
      render: (m) => (
        <>
          <Anchor fw={600} size="sm" component={Link} to={merchantProfilePath(m.uuid)}>
            {m.companyName}
          </Anchor>
          <Text size="xs" c="gray.7" hiddenFrom="md">
            {m.email}
          </Text>
        </>
      ),
    },
    { header: 'Email', visibleFrom: 'md', render: (m) => <Text size="sm">{m.email}</Text> },
    {
      header: 'Business Category',
      visibleFrom: 'md',
      render: (m) => <BusinessCategoryBadge category={m.businessCategory} />,
    },
    {
      header: 'Unassign',
      align: 'right',
      width: 90,
      render: (m) => (
        <RowAction
          label="Unassign"
          ariaLabel={`Unassign ${m.companyName}`}
          icon={IconLinkOff}
          color="red"
          onClick={() => confirmUnassign(m)}
        />
      ),
    },
  ];
  const assignButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setAssignOpen(true)}>
      Assign Merchant
    </Button>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="gray.7" size="sm" maw={560}>
          These merchants are in {admin.fullName}'s My Merchants; their roles say what they may do with them.
        </Text>
        {assignButton}
      </Group>
      {admin.assignedMerchants.length === 0 ? (
        <EmptyPanel
          testId="assigned-empty"
          icon={<IconBuildingStore size={28} />}
          title="No merchants assigned"
          description="Assign the merchants this admin looks after."
        />
      ) : (
        <ListTable
          rows={admin.assignedMerchants}
          columns={columns}
          getRowKey={(m) => m.uuid}
          getRowMark={(m) => m.email}
          label="Assigned Merchants"
          testId="assigned-merchants-table"
        />
      )}
      <AssignMerchantDialog admin={admin} opened={isAssignOpen} onClose={() => setAssignOpen(false)} />
    </Stack>
  );
}

function AssignMerchantDialog({ admin, opened, onClose }: { admin: AdminProfile; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const merchants = useMerchants(false);
  const [merchantUuid, setMerchantUuid] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const assigned = new Set(admin.assignedMerchants.map((m) => m.uuid));
  const choices = (merchants.data ?? [])
    .filter((m) => !assigned.has(m.uuid))
    .map((m) => ({ value: m.uuid, label: `${m.companyName} (${m.email})` }));

  async function assign() {
    if (!merchantUuid) return;
    setSubmitting(true);
    const reply = await call(assignMerchant, { body: { adminUuid: admin.uuid, merchantUuid } });
    setSubmitting(false);
    if (!isOk(reply)) return setMessage(failureText(reply, 'Failed to assign merchant'));
    showToast({ color: 'teal', title: 'Merchant assigned', message: reply.message || 'Assigned' });
    await queryClient.invalidateQueries({ queryKey: ADMINS_KEY });
    await queryClient.invalidateQueries({ queryKey: MERCHANTS_KEY });
    setMerchantUuid(null);
    onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Assign Merchant" centered size="md">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        {merchants.error && <FormAlert message="Failed to fetch available merchants" onClose={() => void merchants.refetch()} />}
        <Select
          label="Merchant"
          placeholder="Search merchants"
          searchable
          clearable
          nothingFoundMessage="No merchant matches"
          data={choices}
          value={merchantUuid}
          onChange={setMerchantUuid}
          data-autofocus
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void assign()} loading={isSubmitting} disabled={!merchantUuid}>
            Assign
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
