import { Checkbox, Modal, Stack } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { FormAlert } from '../../components/form-alert';
import { AccountFields } from './account-fields';
import { useAccountForm } from './use-account-form';
import { failureText, isOk } from '../../lib/api';
import { merchantUsersKey } from './use-merchants';
import { createMerchantUser } from '../../../shared/api/merchants.calls';
import { call } from '../../lib/call';
import { DialogActions } from '../../components/dialog-actions';

/** 'Create New User' of a merchant; confirmPassword is checked here and never sent. */
export function MerchantUserCreateDialog({
  merchantUuid,
  opened,
  onClose,
}: {
  merchantUuid: string;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Create New User" size="lg" centered>
      <UserForm merchantUuid={merchantUuid} onClose={onClose} />
    </Modal>
  );
}

function UserForm({ merchantUuid, onClose }: { merchantUuid: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, message, clearMessage, isSubmitting, submitWith } = useAccountForm({ isDeveloper: false });

  const handleSubmit = submitWith(async ({ confirmPassword: _confirm, ...fields }, values) => {
    const reply = await call(createMerchantUser, { body: { ...fields, isDeveloper: values.isDeveloper, merchantUuid } });
    if (!isOk(reply)) return failureText(reply, 'Failed to create user');
    showToast({ color: 'teal', title: 'User created', message: reply.message || fields.fullName });
    await queryClient.invalidateQueries({ queryKey: merchantUsersKey(merchantUuid) });
    form.reset();
    onClose();
    return undefined;
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create New User">
      <Stack gap="md">
        <FormAlert message={message} onClose={clearMessage} />
        <AccountFields getInputProps={form.getInputProps} />
        <Checkbox
          label="Developer"
          description="May also build the merchant's apps"
          {...form.getInputProps('isDeveloper', { type: 'checkbox' })}
        />
        <DialogActions submitLabel="Create User" onCancel={onClose} isSubmitting={isSubmitting} />
      </Stack>
    </form>
  );
}
