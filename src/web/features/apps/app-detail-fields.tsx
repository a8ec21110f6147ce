import { Select, type SelectProps, Textarea, type TextareaProps, TextInput, type TextInputProps } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { COUNTRY_OPTIONS } from './app-countries.data';
import { getShortcodeExamples } from './app-template-tag-field';

// An app's name, description, country and own shortcode as every form that makes or changes an app shows them
// (create, settings, clone, import): one label, limit (appSchema's) and field name each. The form binds them its
// own way: a mantine form spreads getInputProps, a page's state spreads bindText.

/** A piece of state as a text input's or textarea's value and onChange. */
export const bindText = (value: string, setValue: (value: string) => void) => ({
  value,
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(event.currentTarget.value),
});

export function AppNameInput(props: TextInputProps) {
  return <TextInput label="App Name" withAsterisk maxLength={120} name="appName" {...props} />;
}

export function AppDescriptionInput(props: TextareaProps) {
  return <Textarea label="Description" withAsterisk autosize minRows={2} maxRows={6} maxLength={1000} name="description" {...props} />;
}

export function AppCountrySelect(props: SelectProps) {
  return (
    <Select
      label="Country"
      withAsterisk
      searchable
      nothingFoundMessage="No country matches"
      data={COUNTRY_OPTIONS}
      name="country"
      {...props}
    />
  );
}

/** The whole shortcode of an app on a code the account already has (connection mode `existing-shortcode`). */
export function AppExistingShortcodeInput({ useTemplateTag, ...props }: TextInputProps & { useTemplateTag: boolean }) {
  return (
    <TextInput
      label="Short Code"
      description="Start with * and end with #"
      placeholder={getShortcodeExamples('existing', useTemplateTag)}
      withAsterisk
      maxLength={100}
      name="customShortCode"
      {...props}
    />
  );
}
