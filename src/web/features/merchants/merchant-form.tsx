import { Button, Checkbox, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { BUSINESS_CATEGORIES, MERCHANT_MESSAGES, type MerchantBody, merchantBodySchema } from '../../../shared/api/merchants.schema';
import { FormAlert } from '../../components/form-alert';
import type { ApiReply } from '../../lib/api';
import { failureText, isOk } from '../../lib/api';

const CATEGORY_CHOICES = BUSINESS_CATEGORIES.map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) }));

export const EMPTY_MERCHANT: MerchantBody = {
  fullName: '',
  email: '',
  mobileNumber: '',
  companyName: '',
  businessCategory: '' as MerchantBody['businessCategory'],
  isDeveloper: false,
};

interface MerchantFormProps {
  initialValues: MerchantBody;
  submitLabel: string;
  /** The screen's fallback when the server gives no message ('Failed to register merchant'). */
  failure: string;
  onSubmit: (values: MerchantBody) => Promise<ApiReply>;
  onDone: (reply: ApiReply) => void;
  onCancel?: () => void;
}

/**
 * Register New Merchant and the edit modal: the same fields and rules as the server's, and the refusal in the
 * dismissible box ('Please complete all required fields' for any missing field).
 */
export function MerchantForm({ initialValues, submitLabel, failure, onSubmit, onDone, onCancel }: MerchantFormProps) {
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm<MerchantBody>({ mode: 'controlled', initialValues });

  const handleSubmit = form.onSubmit(async (values) => {
    const parsed = merchantBodySchema.safeParse(values);
    if (!parsed.success) {
      setMessage(parsed.error.issues[0]?.message ?? MERCHANT_MESSAGES.requiredFields);
      return;
    }
    setMessage(null);
    setSubmitting(true);
    const reply = await onSubmit(parsed.data);
    setSubmitting(false);
    if (!isOk(reply)) {
      setMessage(failureText(reply, failure));
      return;
    }
    onDone(reply);
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={submitLabel}>
      <Stack gap="md">
        <FormAlert message={message} onClose={() => setMessage(null)} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput label="Full Name" withAsterisk maxLength={120} data-autofocus {...form.getInputProps('fullName')} />
          <TextInput label="Company Name" withAsterisk maxLength={120} {...form.getInputProps('companyName')} />
          <TextInput label="Email" type="email" withAsterisk maxLength={254} {...form.getInputProps('email')} />
          <TextInput label="Mobile Number" type="tel" withAsterisk maxLength={32} {...form.getInputProps('mobileNumber')} />
          <Select
            label="Business Category"
            placeholder="Choose a category"
            withAsterisk
            data={CATEGORY_CHOICES}
            {...form.getInputProps('businessCategory')}
            onChange={(value) => form.setFieldValue('businessCategory', (value ?? '') as MerchantBody['businessCategory'])}
          />
        </SimpleGrid>
        <Checkbox
          label="Developer account"
          description="The merchant builds apps of its own"
          {...form.getInputProps('isDeveloper', { type: 'checkbox' })}
        />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
