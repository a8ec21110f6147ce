/**
 * The designer's contact fields (docs/contacts.md): where a menu's input is also saved, and what a rule tests
 * besides the input. Both offer the contact's name, the attribute keys the app's menus save to or test (the
 * template variables' list) and those the account's contacts have, and take a key typed anew.
 */
import { Autocomplete, type AutocompleteProps, type ComboboxItemGroup } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { findContactAttributeKeys } from '../../../shared/api/contacts.calls';
import { callQuery } from '../../lib/call';
import { useTemplateVariables } from './template-text-input';

/** The account's keys change with imports and sessions, slowly: a menu form opened again reads them from the cache. */
const ACCOUNT_KEYS_STALE_MS = 5 * 60_000;

/**
 * The attribute keys the account's contacts have, the most used first (at most 100); none while they load or
 * when they cannot be read (the field still takes a key typed).
 */
function useAccountContactKeys(): string[] {
  const { data } = useQuery({
    ...callQuery(findContactAttributeKeys, {}, "The contacts' attribute keys could not be loaded."),
    staleTime: ACCOUNT_KEYS_STALE_MS,
    retry: false,
  });
  return data?.keys.map((k) => k.key) ?? [];
}

/** The suggestions in two groups: the app's own (with the fixed fields first), then the account's contacts' others. */
function useContactFieldGroups(fixed: string[], prefix: string): ComboboxItemGroup<string>[] {
  const appKeys = useContactKeys();
  const accountKeys = useAccountContactKeys();
  const app = [...fixed, ...appKeys.map((k) => `${prefix}${k}`).filter((k) => !fixed.includes(k))];
  const account = accountKeys.map((k) => `${prefix}${k}`).filter((k) => !app.includes(k) && !fixed.includes(k));
  return [{ group: "This app's fields", items: app }, ...(account.length > 0 ? [{ group: 'On your contacts', items: account }] : [])];
}

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
  const data = useContactFieldGroups(['name'], '');
  return (
    <Autocomplete
      label="Save the input to contact field"
      description="Keeps what the caller types here on their contact too: name, or an attribute key such as city (language is set by the console and the API)"
      placeholder="None"
      data={data}
      value={value}
      onChange={onChange}
      clearable
      {...props}
    />
  );
}

/** What a rule tests: the input (empty), or `contact.name`, `contact.language` or `contact.<attribute>` (chosen or typed). */
export function RuleSubjectField({ value, onChange, ...props }: FieldProps) {
  const data = useContactFieldGroups(['contact.name', 'contact.language'], 'contact.');
  return <Autocomplete placeholder="the input" data={data} value={value} onChange={onChange} clearable {...props} />;
}
