import { Checkbox, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountFormSchema } from '../../../shared/api/merchants.schema';
import { FormAlert } from '../../components/form-alert';
import { AccountFields } from './account-fields';
import { failureText, isOk } from '../../lib/api';
import { merchantUsersKey } from './use-merchants';
import { createMerchantUser } from '../../../shared/api/merchants.calls';
import { call } from '../../lib/call';
import { DialogActions } from '../../components/dialog-actions';

const EMPTY = { fullName: '', email: '', mobileNumber: '', password: '', confirmPassword: '', isDeveloper: false };

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
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: EMPTY });

  const handleSubmit = form.onSubmit(async (values) => {
    const parsed = accountFormSchema.safeParse(values);
    if (!parsed.success) {
      setMessage(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setMessage(null);
    setSubmitting(true);
    const { confirmPassword: _confirm, ...fields } = parsed.data;
    const reply = await call(createMerchantUser, { body: { ...fields, isDeveloper: values.isDeveloper, merchantUuid } });
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'Failed to create user'));
      return;
    }
    showToast({ color: 'teal', title: 'User created', message: reply.message || fields.fullName });
    await queryClient.invalidateQueries({ queryKey: merchantUsersKey(merchantUuid) });
    form.reset();
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Create New User">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
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
