import { Code, Group, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type Extension,
  buildDialPattern,
  findDigitsProblem,
  LEASE_MONTHS_MAX,
  LEASE_MONTHS_MIN,
  PROVISION_MONTHS_DEFAULT,
  SHORTCODE_MESSAGES,
} from '../../../shared/api/shortcodes.schema';
import { FormAlert } from '../../components/form-alert';
import { failureText, isOk } from '../../lib/api';
import { monthOptions } from './shortcode-format';
import { provisionExtension } from '../../../shared/api/shortcodes.calls';
import { call } from '../../lib/call';
import { SHORTCODES_KEY } from './use-shortcodes';
import { DialogActions } from '../../components/dialog-actions';

type Holder = 'self' | 'account';

interface ProvisionValues {
  holder: Holder;
  userEmail: string;
  digits: string;
  months: string;
}

interface ShortcodeExtensionProvisionDialogProps {
  /** The extension to provision; the dialog is closed while null. */
  extension: Extension | null;
  onClose: () => void;
}

/** 'Provision': gives an extension to oneself or to another account by email, active at once, with no payment. */
export function ShortcodeExtensionProvisionDialog({ extension, onClose }: ShortcodeExtensionProvisionDialogProps) {
  return (
    <Modal opened={extension !== null} onClose={onClose} title="Provision Extension" centered size="md">
      {extension && <ProvisionForm extension={extension} onClose={onClose} />}
    </Modal>
  );
}

function ProvisionForm({ extension, onClose }: { extension: Extension; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm<ProvisionValues>({
    mode: 'controlled',
    initialValues: { holder: 'self', userEmail: '', digits: '', months: String(PROVISION_MONTHS_DEFAULT) },
    validate: {
      userEmail: (email, values) => (values.holder === 'account' && !email.trim() ? SHORTCODE_MESSAGES.userEmailRequired : null),
      digits: (digits) => findDigitsProblem(extension.extLength, digits.trim()),
    },
  });
  const { values } = form;

  const handleSubmit = form.onSubmit(async (submitted) => {
    setSubmitting(true);
    const isSelf = submitted.holder === 'self';
    const reply = await call(provisionExtension, {
      body: {
        extensionUuid: extension.uuid,
        self: isSelf,
        userEmail: isSelf ? '' : submitted.userEmail.trim(),
        shortCode: submitted.digits.trim(),
        leaseCount: Number(submitted.months),
      },
    });
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, 'The extension could not be provisioned.'));
      return;
    }
    const holder = isSelf ? 'you' : submitted.userEmail.trim();
    showToast({
      color: 'teal',
      title: reply.message || SHORTCODE_MESSAGES.provisioned,
      message: `${reply.data?.shortCode ?? buildDialPattern(extension)} is active for ${holder}.`,
    });
    await queryClient.invalidateQueries({ queryKey: SHORTCODES_KEY });
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Provision Extension">
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <Text size="sm">
          Give <Code>{buildDialPattern(extension)}</Code> to an account, active at once and without payment.
        </Text>
        <Radio.Group
          label="Provision for"
          value={values.holder}
          onChange={(holder) => form.setFieldValue('holder', holder as Holder)}
          name="holder"
        >
          <Group gap="lg" mt="xs">
            <Radio value="self" label="Myself" />
            <Radio value="account" label="Another account" />
          </Group>
        </Radio.Group>
        {values.holder === 'account' && (
          <TextInput
            label="Account email"
            placeholder="name@company.com"
            type="email"
            withAsterisk
            maxLength={254}
            data-autofocus
            {...form.getInputProps('userEmail')}
          />
        )}
        {extension.extLength > 0 && (
          <TextInput
            label="Extension digits"
            description={`The ${extension.extLength} digits that end the dial string`}
            placeholder={`e.g. ${'1234567890'.slice(0, extension.extLength)}`}
            inputMode="numeric"
            withAsterisk
            maxLength={extension.extLength}
            {...form.getInputProps('digits')}
          />
        )}
        <Select
          label="Period"
          data={monthOptions(LEASE_MONTHS_MIN, LEASE_MONTHS_MAX)}
          allowDeselect={false}
          {...form.getInputProps('months')}
        />
        <DialogActions submitLabel="Provision" onCancel={onClose} isSubmitting={isSubmitting} mt="xs" />
      </Stack>
    </form>
  );
}
