/**
 * The designer's contact fields (docs/contacts.md): where a menu's input is also saved, and what a rule tests
 * besides the input. Both offer the contact's name and the attribute keys the app's menus save to or test
 * (the template variables' list), and take a key typed anew.
 */
import { Autocomplete, type AutocompleteProps } from '@mantine/core';
import { useTemplateVariables } from './template-text-input';

/** The attribute keys the app's menus save to or test, as the variables list has them. */
function useContactKeys(): string[] {
  return useTemplateVariables()
    .map((v) => v.path)
    .filter((path) => path.startsWith('contact.') && path !== 'contact.name' && path !== 'contact.language')
    .map((path) => path.slice('contact.'.length));
}

type FieldProps = Omit<AutocompleteProps, 'data' | 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** "Save the input to contact field": none (empty), name, or an attribute key chosen or typed. */
export function SaveToContactField({ value, onChange, ...props }: FieldProps) {
  const keys = useContactKeys();
  return (
    <Autocomplete
      label="Save the input to contact field"
      description="Keeps what the caller types here on their contact too: name, or an attribute key such as city (language is set by the console and the API)"
      placeholder="None"
      data={['name', ...keys.filter((k) => k !== 'name')]}
      value={value}
      onChange={onChange}
      clearable
      {...props}
    />
  );
}

/** What a rule tests: the input (empty), or `contact.name`, `contact.language` or `contact.<attribute>` (chosen or typed). */
export function RuleSubjectField({ value, onChange, ...props }: FieldProps) {
  const keys = useContactKeys();
  return (
    <Autocomplete
      placeholder="the input"
      data={['contact.name', 'contact.language', ...keys.map((k) => `contact.${k}`)]}
      value={value}
      onChange={onChange}
      clearable
      {...props}
    />
  );
}
