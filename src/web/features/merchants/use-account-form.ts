import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { z } from 'zod';
import { accountFormSchema } from '../../../shared/api/merchants.schema';

const EMPTY_ACCOUNT = { fullName: '', email: '', mobileNumber: '', password: '', confirmPassword: '' };

export type AccountFormFields = z.infer<typeof accountFormSchema>;

/**
 * A form that creates an account (Create New User of a merchant, Create New Admin User): the AccountFields plus
 * the form's own `extra` fields, checked with accountFormSchema before `save` runs. `save` answers the message to
 * show above the form, or nothing when the account was made.
 */
export function useAccountForm<Extra extends Record<string, unknown>>(extra: Extra) {
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { ...EMPTY_ACCOUNT, ...extra } });

  const submitWith = (save: (account: AccountFormFields, values: typeof form.values) => Promise<string | undefined>) =>
    form.onSubmit(async (values) => {
      const parsed = accountFormSchema.safeParse(values);
      if (!parsed.success) return setMessage(parsed.error.issues[0]?.message ?? null);
      setMessage(null);
      setSubmitting(true);
      const failure = await save(parsed.data, values);
      setSubmitting(false);
      setMessage(failure ?? null);
    });

  return { form, message, clearMessage: () => setMessage(null), isSubmitting, submitWith };
}
