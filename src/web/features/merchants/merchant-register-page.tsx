import { Paper, Stack } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { Merchant } from '../../../shared/api/merchants.schema';

import { EMPTY_MERCHANT, MerchantForm } from './merchant-form';
import { registerMerchant } from '../../../shared/api/merchants.calls';
import { call } from '../../lib/call';
import { merchantUsersPath } from './merchants.api';
import { MERCHANTS_KEY } from './use-merchants';
import { PageHeader } from '../../components/page-header';
import { RoleGuard } from '../../components/role-guard';

/** Register New Merchant (admins): on success, the new merchant's users, to add its first one. */
export function MerchantRegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <RoleGuard audience="merchant.register">
      <Stack gap="xl" maw={820}>
        <PageHeader
          title="Register New Merchant"
          description="An enterprise customer's company account. Add its users next; they sign in at Login As Merchant."
        />
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <MerchantForm
            initialValues={EMPTY_MERCHANT}
            submitLabel="Register Merchant"
            failure="Failed to register merchant"
            onSubmit={(body) => call(registerMerchant, { body })}
            onDone={async (reply) => {
              const merchant = reply.data as Merchant;
              showToast({ color: 'teal', title: 'Merchant registered', message: reply.message || merchant.companyName });
              await queryClient.invalidateQueries({ queryKey: MERCHANTS_KEY });
              void navigate(merchantUsersPath(merchant.uuid));
            }}
          />
        </Paper>
      </Stack>
    </RoleGuard>
  );
}
