import { Paper, Stack } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ADMIN_ROLE_CHOICES } from '../../../shared/roles';
import { createAdmin, updateAdminProfile } from '../../../shared/api/admins.calls';
import type { AdminRoleType } from '../../../shared/api/admins.schema';
import { MERCHANT_MESSAGES } from '../../../shared/api/merchants.schema';
import { BackLink } from '../../components/back-link';
import { FormSubmitRow } from '../../components/dialog-actions';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { AccountFields } from '../merchants/account-fields';
import { useAccountForm } from '../merchants/use-account-form';

import { AdminRoleCheckboxes } from './admin-role-checkboxes';
import { ADMIN_LIST_PATH, adminManagePath } from './admins.api';
import { ADMINS_KEY } from './use-admins';
import { PageHeader } from '../../components/page-header';
import { RoleGuard } from '../../components/role-guard';

/**
 * Create New Admin User (super admins). The create call carries only the account's fields; the chosen roles
 * are set right after with update-profile (docs/merchants.md), then Manage Admin opens.
 */
export function AdminCreatePage() {
  return (
    <RoleGuard audience="admin.manage">
      <AdminCreateForm />
    </RoleGuard>
  );
}

function AdminCreateForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { form, message, clearMessage, isSubmitting, submitWith } = useAccountForm({ roles: [] as string[] });

  const handleSubmit = submitWith(async ({ fullName, email, mobileNumber, password }, values) => {
    if (values.roles.length === 0) return MERCHANT_MESSAGES.selectRole;
    const created = await call(createAdmin, { body: { fullName, email, mobileNumber, password } });
    if (!isOk(created) || !created.data) return failureText(created, 'Failed to create admin user');
    const admin = created.data;
    const withRoles = await call(updateAdminProfile, {
      body: { adminUuid: admin.uuid, fullName, email, mobileNumber, roles: values.roles as AdminRoleType[] },
    });
    await queryClient.invalidateQueries({ queryKey: ADMINS_KEY });
    if (!isOk(withRoles)) {
      // The account exists without roles: Manage Admin is where they are set again.
      showToast({
        color: 'orange',
        title: 'Admin created without roles',
        message: failureText(withRoles, 'Failed to update profile'),
      });
    } else showToast({ color: 'teal', title: 'Admin created', message: created.message || fullName });
    void navigate(adminManagePath(admin.uuid));
    return undefined;
  });

  return (
    <Stack gap="xl" maw={820}>
      <div>
        <BackLink to={ADMIN_LIST_PATH} label="System Users" />
        <PageHeader
          title="Create New Admin User"
          description="An admin of the platform. Choose at least one role: it says what they may do."
        />
      </div>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={handleSubmit} noValidate aria-label="Create New Admin User">
          <Stack gap="md">
            <FormAlert message={message} onClose={clearMessage} />
            <AccountFields getInputProps={form.getInputProps} />
            <AdminRoleCheckboxes
              roles={ADMIN_ROLE_CHOICES}
              value={form.values.roles}
              onChange={(roles) => form.setFieldValue('roles', roles)}
            />
            <FormSubmitRow label="Create Admin" isSubmitting={isSubmitting} />
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
