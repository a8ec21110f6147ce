import { Badge, Text } from '@mantine/core';
import { IconShieldOff, IconTrash } from '@tabler/icons-react';
import type { MerchantUser } from '../../../shared/api/merchants.schema';
import { useDeleteMerchantUserConfirm } from './use-merchants';
import { RowAction } from '../../components/row-action';
import { type ListColumn, ListTable } from '../../components/list-table';
import { useCanResetTwoFactor, useTwoFactorResetConfirm } from '../auth/two-factor-reset-button';

/** A merchant's users: Full Name, Email, Mobile Number, Developer Yes/No, and delete for those who may. */
export function MerchantUserTable({ users, canDelete }: { users: MerchantUser[]; canDelete: boolean }) {
  const confirmDelete = useDeleteMerchantUserConfirm();
  const canResetTwoFactor = useCanResetTwoFactor();
  const confirmReset = useTwoFactorResetConfirm();
  const columns: ListColumn<MerchantUser>[] = [
    {
      header: 'Full Name',
      render: (u) => (
        <>
          <Text fw={600} size="sm">
            {u.fullName}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="md">
            {u.email} · {u.mobileNumber}
          </Text>
        </>
      ),
    },
    { header: 'Email', visibleFrom: 'md', render: (u) => <Text size="sm">{u.email}</Text> },
    { header: 'Mobile Number', visibleFrom: 'md', render: (u) => <Text size="sm">{u.mobileNumber}</Text> },
    {
      header: 'Developer',
      render: (u) => (
        <Badge color={u.isDeveloper ? 'teal' : 'gray'} variant="light" data-testid="developer-badge">
          {u.isDeveloper ? 'Yes' : 'No'}
        </Badge>
      ),
    },
    ...(canResetTwoFactor
      ? [
          {
            // Wide screens only: on a phone the row keeps its delete button in view.
            header: 'Two-factor',
            align: 'right' as const,
            width: 120,
            visibleFrom: 'sm' as const,
            render: (u: MerchantUser) => (
              <RowAction
                label="Reset"
                ariaLabel={`Reset ${u.fullName}'s two-factor sign-in`}
                icon={IconShieldOff}
                color="orange"
                onClick={() => confirmReset(u)}
              />
            ),
          },
        ]
      : []),
    ...(canDelete
      ? [
          {
            header: 'Delete',
            align: 'right' as const,
            width: 80,
            render: (u: MerchantUser) => (
              <RowAction label="Delete" ariaLabel={`Delete ${u.fullName}`} icon={IconTrash} color="red" onClick={() => confirmDelete(u)} />
            ),
          },
        ]
      : []),
  ];
  return (
    <ListTable
      rows={users}
      columns={columns}
      getRowKey={(u) => u.uuid}
      getRowMark={(u) => u.email}
      label="Merchant users"
      testId="merchant-users-table"
    />
  );
}
