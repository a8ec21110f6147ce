import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconSettings, IconTrash, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Admin } from '../../../shared/api/admins.schema';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { ADMIN_CREATE_PATH, adminManagePath } from './admins.api';
import { useAdmins, useDeleteAdminConfirm } from './use-admins';
import { PageHeader } from '../../components/page-header';
import { RowAction } from '../../components/row-action';
import { useCurrentUser } from '../../lib/use-current-user';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

export function RoleBadges({ roles }: { roles: string[] }) {
  if (roles.length === 0)
    return (
      <Text size="xs" c="gray.7">
        No roles yet
      </Text>
    );
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant="outline" color={role === 'super_admin' ? 'grape' : 'gray'} radius="sm">
          {role === 'super_admin' ? 'Super admin' : role}
        </Badge>
      ))}
    </Group>
  );
}

/** System Users (super admins): every admin, always Active; manage and delete. */
export function AdminListPage() {
  return (
    <RoleGuard audience="admin.manage">
      <AdminList />
    </RoleGuard>
  );
}

function AdminList() {
  const adminsQuery = useAdmins();
  const me = useCurrentUser();
  const confirmDelete = useDeleteAdminConfirm();
  const columns: ListColumn<Admin>[] = [
    {
      header: 'Full Name',
      render: (a) => (
        <>
          <Text fw={600} size="sm">
            {a.fullName}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="md">
            {a.email}
          </Text>
        </>
      ),
    },
    { header: 'Email', visibleFrom: 'md', render: (a) => <Text size="sm">{a.email}</Text> },
    { header: 'Mobile Number', visibleFrom: 'lg', render: (a) => <Text size="sm">{a.mobileNumber}</Text> },
    { header: 'Roles', visibleFrom: 'sm', render: (a) => <RoleBadges roles={a.roles} /> },
    {
      header: 'Status',
      render: () => (
        <Badge color="teal" variant="light">
          Active
        </Badge>
      ),
    },
    {
      header: 'Actions',
      align: 'right',
      render: (a) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <RowAction label="Manage" ariaLabel={`Manage ${a.fullName}`} icon={IconSettings} to={adminManagePath(a.uuid)} />
          {a.uuid !== me?.uuid && (
            <RowAction label="Delete" ariaLabel={`Delete ${a.fullName}`} icon={IconTrash} color="red" onClick={() => confirmDelete(a)} />
          )}
        </Group>
      ),
    },
  ];
  const newLink = (
    <Button component={Link} to={ADMIN_CREATE_PATH} leftSection={<IconPlus size={18} />}>
      Create Admin
    </Button>
  );
  return (
    <Stack gap="xl">
      <PageHeader title="System Users" description="The platform's admins and their roles. Only super admins see this." action={newLink} />
      <ListSection
        query={adminsQuery}
        loadingLabel="Loading admins"
        errorTitle="Admins not loaded"
        empty={
          <EmptyPanel
            testId="admins-empty"
            icon={<IconUsers size={28} />}
            title="No admins"
            description="Create the first admin."
            action={newLink}
          />
        }
      >
        {(admins) => (
          <ListTable
            rows={admins}
            columns={columns}
            getRowKey={(a) => a.uuid}
            getRowMark={(a) => a.email}
            label="System Users"
            testId="admins-table"
          />
        )}
      </ListSection>
    </Stack>
  );
}
