import { ActionIcon, Button, Group, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { describeLanguage, LANGUAGES, type AppLanguages, type LanguageCode } from '../../../shared/app';

/** The languages part of the settings form: on or off, the default, the others, and calling codes to languages. */
export interface LanguageValues {
  isOn: boolean;
  defaultLanguage: string;
  otherLanguages: string[];
  prefixLanguages: { prefix: string; language: string }[];
}

const OPTIONS = LANGUAGES.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }));

export function toLanguageValues(languages: AppLanguages | null): LanguageValues {
  return languages
    ? { isOn: true, ...languages, otherLanguages: [...languages.otherLanguages], prefixLanguages: [...languages.prefixLanguages] }
    : { isOn: false, defaultLanguage: 'en', otherLanguages: [], prefixLanguages: [] };
}

/** What updateApp takes: null when off; the engine's words per language (labels) are kept as stored. */
export function readLanguageValues(values: LanguageValues, stored: AppLanguages | null): AppLanguages | null {
  if (!values.isOn) return null;
  return {
    defaultLanguage: values.defaultLanguage as LanguageCode,
    otherLanguages: values.otherLanguages as LanguageCode[],
    labels: stored?.labels ?? {},
    prefixLanguages: values.prefixLanguages
      .filter((p) => p.prefix.trim() !== '' || p.language !== '')
      .map((p) => ({ prefix: p.prefix.trim(), language: p.language as LanguageCode })),
  };
}

export function AppLanguageFields({ values, onChange }: { values: LanguageValues; onChange: (values: LanguageValues) => void }) {
  const set = (patch: Partial<LanguageValues>) => onChange({ ...values, ...patch });
  const appLanguages = [values.defaultLanguage, ...values.otherLanguages].map((code) => ({ value: code, label: describeLanguage(code) }));
  return (
    <Stack gap="sm">
      <Switch
        label="Several languages"
        description="Menus get a text per language, and a navigation rule can switch the caller to one."
        checked={values.isOn}
        onChange={(e) => set({ isOn: e.currentTarget.checked })}
        name="languagesOn"
      />
      {values.isOn && (
        <>
          <Group grow align="flex-start">
            <Select
              label="Default language"
              description="The menus' own texts are in this language"
              data={OPTIONS}
              searchable
              allowDeselect={false}
              value={values.defaultLanguage}
              onChange={(code) => code && set({ defaultLanguage: code, otherLanguages: values.otherLanguages.filter((c) => c !== code) })}
              name="defaultLanguage"
            />
            <MultiSelect
              label="Other languages"
              description="Translated side by side on each menu"
              data={OPTIONS.filter((o) => o.value !== values.defaultLanguage)}
              searchable
              value={values.otherLanguages}
              onChange={(codes) => set({ otherLanguages: codes })}
              name="otherLanguages"
            />
          </Group>
          <Text size="sm" fw={500} mt="xs">
            Language by calling code
          </Text>
          <Text size="xs" c="dimmed" mt={-6}>
            A caller whose number starts with the code starts in its language, e.g. 225 French for Côte d'Ivoire.
          </Text>
          {values.prefixLanguages.map((p, i) => (
            <Group key={i} gap="sm" align="flex-end" wrap="nowrap">
              <TextInput
                label="Calling code"
                placeholder="225"
                value={p.prefix}
                maxLength={4}
                w={140}
                onChange={(e) => {
                  const prefix = e.currentTarget.value;
                  set({ prefixLanguages: values.prefixLanguages.map((x, j) => (j === i ? { ...x, prefix } : x)) });
                }}
              />
              <Select
                label="Language"
                data={appLanguages}
                value={p.language || null}
                allowDeselect={false}
                w={220}
                onChange={(language) =>
                  set({ prefixLanguages: values.prefixLanguages.map((x, j) => (j === i ? { ...x, language: language ?? '' } : x)) })
                }
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove calling code ${p.prefix || i + 1}`}
                onClick={() => set({ prefixLanguages: values.prefixLanguages.filter((_, j) => j !== i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={() => set({ prefixLanguages: [...values.prefixLanguages, { prefix: '', language: '' }] })}
            >
              Add calling code
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
