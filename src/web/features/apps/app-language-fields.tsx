import { Accordion, ActionIcon, Button, Group, MultiSelect, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  DEFAULT_ENGINE_LABELS,
  describeLanguage,
  ENGINE_LABEL_KEYS,
  ENGINE_LABEL_MAX,
  LANGUAGES,
  type AppLanguages,
  type EngineLabelKey,
  type LanguageCode,
} from '../../../shared/app';

/** The languages part of the settings form: on or off, the default, the others, and calling codes to languages. */
export interface LanguageValues {
  isOn: boolean;
  defaultLanguage: string;
  otherLanguages: string[];
  prefixLanguages: { prefix: string; language: string }[];
  /** The engine's words per language, as typed ('' or absent: the default language's, then English). */
  labels: Record<string, Partial<Record<EngineLabelKey, string>>>;
}

const LABEL_NAMES: Record<EngineLabelKey, string> = {
  more: 'More (in 98. More)',
  invalidChoice: 'Invalid choice',
  invalidInput: 'Invalid input',
  thankYou: 'Closing without text',
  unavailable: 'Service unavailable',
};

const OPTIONS = LANGUAGES.map((l) => ({ value: l.code, label: `${l.name} (${l.code})` }));

export function toLanguageValues(languages: AppLanguages | null): LanguageValues {
  return languages
    ? { isOn: true, ...languages, otherLanguages: [...languages.otherLanguages], prefixLanguages: [...languages.prefixLanguages] }
    : { isOn: false, defaultLanguage: 'en', otherLanguages: [], prefixLanguages: [], labels: {} };
}

/** What updateApp takes: null when off; the engine's words of the app's languages only, empty ones left out. */
export function readLanguageValues(values: LanguageValues): AppLanguages | null {
  if (!values.isOn) return null;
  const labels: AppLanguages['labels'] = {};
  for (const code of [values.defaultLanguage, ...values.otherLanguages]) {
    const words = Object.fromEntries(Object.entries(values.labels[code] ?? {}).filter(([, w]) => w?.trim()));
    if (Object.keys(words).length > 0) labels[code as LanguageCode] = words;
  }
  return {
    defaultLanguage: values.defaultLanguage as LanguageCode,
    otherLanguages: values.otherLanguages as LanguageCode[],
    labels,
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
          <Accordion variant="contained" radius="md" mt="xs">
            <Accordion.Item value="labels">
              <Accordion.Control>The engine's own words per language</Accordion.Control>
              <Accordion.Panel>
                <Text size="xs" c="dimmed" mb="sm">
                  Shown by the platform, not by your menus. Left empty: the default language's word, else English.
                </Text>
                <Stack gap="md">
                  {[values.defaultLanguage, ...values.otherLanguages].map((code) => (
                    <Stack key={code} gap={6}>
                      <Text size="sm" fw={500}>
                        {describeLanguage(code)}
                      </Text>
                      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                        {ENGINE_LABEL_KEYS.map((key) => (
                          <TextInput
                            key={key}
                            size="xs"
                            label={LABEL_NAMES[key]}
                            aria-label={`${LABEL_NAMES[key]} in ${describeLanguage(code)}`}
                            placeholder={values.labels[values.defaultLanguage]?.[key] || DEFAULT_ENGINE_LABELS[key]}
                            maxLength={ENGINE_LABEL_MAX[key]}
                            value={values.labels[code]?.[key] ?? ''}
                            onChange={(e) => {
                              const word = e.currentTarget.value;
                              set({ labels: { ...values.labels, [code]: { ...values.labels[code], [key]: word } } });
                            }}
                          />
                        ))}
                      </SimpleGrid>
                    </Stack>
                  ))}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </>
      )}
    </Stack>
  );
}
