import { Anchor, Button, Stack, TextInput, type TextInputProps } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';
import type { FormEvent, ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RETURN_PATH_PARAM, withReturnPath } from '../../lib/return-path';
import { FormAlert } from '../../components/form-alert';

interface AuthFormProps {
  /** The form's accessible name ('Login', 'Register'...). */
  label: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The refusal or failure shown in the dismissible warning box above the fields. */
  message: string | null;
  onDismissMessage: () => void;
  /** Shown under the warning box (a success box). */
  notice?: ReactNode;
  submitLabel: string;
  isSubmitting: boolean;
  children: ReactNode;
}

/**
 * The form of every sign-in screen (log in, merchant log in, register, forgot and reset password): the warning
 * box, the fields, and one full-width submit button that spins while the call runs.
 */
export function AuthForm({ label, onSubmit, message, onDismissMessage, notice, submitLabel, isSubmitting, children }: AuthFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="md">
        <FormAlert message={message} onClose={onDismissMessage} />
        {notice}
        {children}
        <Button type="submit" size="md" fullWidth loading={isSubmitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** The sign-in screens' email field; `inputProps` is the form's `getInputProps('email')`. */
export function AuthEmailInput(inputProps: TextInputProps) {
  return (
    <TextInput
      label="Email"
      placeholder="you@company.com"
      type="email"
      autoComplete="email"
      leftSection={<IconAt size={16} />}
      size="md"
      {...inputProps}
      name="email"
    />
  );
}

/** 'Already have an account? Log in': a question and the link to the other screen, under a form. */
/** A link to another sign-in screen (register, log in, merchant login) that keeps the page to come back to. */
export function AuthSwitchLink({ question, to, label }: { question: string; to: string; label: string }) {
  const [searchParams] = useSearchParams();
  return (
    <>
      {question}{' '}
      <Anchor component={Link} to={withReturnPath(to, searchParams.get(RETURN_PATH_PARAM))} fw={600}>
        {label}
      </Anchor>
    </>
  );
}
