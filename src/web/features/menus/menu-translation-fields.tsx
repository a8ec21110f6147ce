import { Paper, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { getLanguageName, type MenuTranslation, type TranslatedField } from '../../../shared/app';
import type { FormErrors, MenuFormValues } from './menu-form-state';

interface MenuTranslationFieldsProps {
  values: MenuFormValues;
  defaultLanguage: string;
  language: string;
  errors: FormErrors;
  onChange: (translation: MenuTranslation) => void;
}

const FIELDS: { field: TranslatedField; label: string; rows: number }[] = [
  { field: 'displayText', label: 'Menu text', rows: 4 },
  { field: 'headerText', label: 'Header text', rows: 1 },
  { field: 'footerText', label: 'Footer text', rows: 1 },
  { field: 'inputHolder', label: 'Input holder', rows: 1 },
];

/**
 * One other language's texts beside the default language's: each row shows the default text (read only) and the
 * translation, whose placeholder is the default text. An empty translation falls back to the default on screen.
 */
export function MenuTranslationFields({ values, defaultLanguage, language, errors, onChange }: MenuTranslationFieldsProps) {
  const translation = values.translations[language] ?? {};
  const name = getLanguageName(language);
  const defaultName = getLanguageName(defaultLanguage);
  return (
    <Stack gap="md" data-testid="menu-translation-fields">
      <Text size="sm" c="dimmed">
        Left, the {defaultName} text; right, its {name} translation. A field left empty shows the {defaultName} text.
      </Text>
      {FIELDS.filter(({ field }) => field !== 'inputHolder' || !values.terminate).map(({ field, label, rows }) => (
        <SimpleGrid key={field} cols={{ base: 1, sm: 2 }} spacing="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {label} in {defaultName}
            </Text>
            <Paper withBorder radius="sm" px="sm" py={6} bg="gray.0" mih={36}>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={values[field] ? undefined : 'dimmed'}>
                {values[field] || 'Empty'}
              </Text>
            </Paper>
          </Stack>
          <Textarea
            label={`${label} in ${name}`}
            placeholder={values[field]}
            value={translation[field] ?? ''}
            onChange={(e) => onChange({ ...translation, [field]: e.currentTarget.value })}
            error={errors[`translations.${language}.${field}`]?.message}
            autosize
            minRows={rows}
            maxRows={14}
          />
        </SimpleGrid>
      ))}
    </Stack>
  );
}
