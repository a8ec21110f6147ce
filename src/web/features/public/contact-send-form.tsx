import { useState } from 'react';
import { Button, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showToast } from '../../lib/toast';
import { IconCheck, IconX } from '@tabler/icons-react';
import { CONTACT_MESSAGE_MAX, contactBodySchema, type ContactBody } from '../../../shared/api/contact.schema';
import { isOk } from '../../lib/api';
import { sendContactRequest } from '../../../shared/api/contact.calls';
import { call } from '../../lib/call';
import { CONTACT_FAILED_MESSAGE } from './public.constants';
import classes from './public.module.css';

type ContactValues = Required<ContactBody>;

/** The schema's first message per field, so an empty email says 'Email is required', not 'Invalid email'. */
export function validateContact(values: ContactValues): Partial<Record<keyof ContactValues, string>> {
  const result = contactBodySchema.safeParse(values);
  if (result.success) return {};
  const errors: Partial<Record<keyof ContactValues, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ContactValues;
    errors[field] ??= issue.message;
  }
  return errors;
}

export async function sendContact(values: ContactValues): Promise<boolean> {
  const reply = await call(sendContactRequest, { body: contactBodySchema.parse(values) });
  if (isOk(reply)) {
    showToast({
      color: 'green',
      title: 'Message sent',
      message: reply.message ?? 'Thank you, we will be in touch.',
      icon: <IconCheck size={18} />,
    });
    return true;
  }
  showToast({ color: 'red', title: 'Not sent', message: CONTACT_FAILED_MESSAGE, icon: <IconX size={18} /> });
  return false;
}

interface ContactSendFormProps {
  /** 'page' orders Email, Mobile, Subject, Message; 'modal' puts the prefilled Subject first. */
  layout: 'page' | 'modal';
  initialSubject?: string;
  /** Called after the server answers '00' (the form has already cleared itself). */
  onSent?: () => void;
  onCancel?: () => void;
  submitLabel?: string;
  /** Prefix for input ids, so two forms on one page never share an id. */
  idPrefix: string;
}

/** The contact form (rules and messages of docs/product.md, Public pages), used by /contact and the Talk to us modal. */
export function ContactSendForm({
  layout,
  initialSubject = '',
  onSent,
  onCancel,
  submitLabel = 'Send message',
  idPrefix,
}: ContactSendFormProps) {
  const [isSending, setIsSending] = useState(false);
  const form = useForm<ContactValues>({
    mode: 'controlled',
    initialValues: { email: '', mobile: '', subject: initialSubject, message: '' },
    validate: validateContact,
  });

  const handleSubmit = form.onSubmit(async (values) => {
    setIsSending(true);
    const isSent = await sendContact(values);
    setIsSending(false);
    if (!isSent) return;
    const empty = { email: '', mobile: '', subject: '', message: '' };
    form.setValues(empty);
    form.resetDirty(empty);
    form.clearErrors();
    onSent?.();
  });

  const messageLength = form.values.message.length;
  const subjectInput = (
    <TextInput
      key="subject"
      id={`${idPrefix}-subject`}
      label="Subject"
      withAsterisk
      placeholder="What can we help with?"
      {...form.getInputProps('subject')}
    />
  );
  const fields = [
    <TextInput
      key="email"
      id={`${idPrefix}-email`}
      label="Email"
      withAsterisk
      type="email"
      autoComplete="email"
      placeholder="you@company.com"
      {...form.getInputProps('email')}
    />,
    <TextInput
      key="mobile"
      id={`${idPrefix}-mobile`}
      label={layout === 'modal' ? 'Mobile (Optional)' : 'Mobile (optional)'}
      type="tel"
      autoComplete="tel"
      placeholder="+233 24 000 0000"
      {...form.getInputProps('mobile')}
    />,
  ];

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className={classes.contactForm}
      aria-label={layout === 'modal' ? 'Talk to us' : 'Contact form'}
    >
      <Stack gap="md">
        {layout === 'modal' ? [subjectInput, ...fields] : [...fields, subjectInput]}
        <Textarea
          id={`${idPrefix}-message`}
          label="Message"
          withAsterisk
          placeholder="Tell us about your business and what you want to build"
          autosize
          minRows={5}
          maxRows={12}
          maxLength={CONTACT_MESSAGE_MAX}
          description={`${messageLength}/${CONTACT_MESSAGE_MAX}`}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          styles={{ description: { textAlign: 'right', marginTop: 4, color: 'var(--mantine-color-gray-7)' } }}
          {...form.getInputProps('message')}
          onChange={(event) => form.setFieldValue('message', event.currentTarget.value.slice(0, CONTACT_MESSAGE_MAX))}
        />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={isSending}>
              Cancel
            </Button>
          )}
          <Button type="submit" color="teal.9" loading={isSending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
