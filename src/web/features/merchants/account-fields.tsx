import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';

type AccountField = 'fullName' | 'email' | 'mobileNumber' | 'password' | 'confirmPassword';

/**
 * A new account's fields with the password chosen twice: Create New User (a merchant's) and Create New Admin
 * User. `getInputProps` is the form's; the rules are accountFormSchema's.
 */
export function AccountFields({ getInputProps }: { getInputProps: (field: AccountField) => GetInputPropsReturnType }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput label="Full Name" withAsterisk maxLength={120} data-autofocus {...getInputProps('fullName')} />
      <TextInput label="Email" type="email" withAsterisk maxLength={254} {...getInputProps('email')} />
      <TextInput label="Mobile Number" type="tel" withAsterisk maxLength={32} {...getInputProps('mobileNumber')} />
      <div />
      <PasswordInput label="Password" withAsterisk maxLength={200} autoComplete="new-password" {...getInputProps('password')} />
      <PasswordInput
        label="Confirm Password"
        withAsterisk
        maxLength={200}
        autoComplete="new-password"
        {...getInputProps('confirmPassword')}
      />
    </SimpleGrid>
  );
}
