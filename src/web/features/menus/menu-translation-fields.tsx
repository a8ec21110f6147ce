import { Paper, SimpleGrid, Stack, Text, Textarea, type TextareaProps } from '@mantine/core';
import { getLanguageName, type TranslatedField } from '../../../shared/app';
import type { FormErrors, MenuFormValues } from './menu-form-state';
import { TemplateTextarea } from './template-text-input';

/** A Textarea with TemplateTextarea's onChange, for the one text that is no template. */
function PlainTextarea({ onChange, ...props }: Omit<TextareaProps, 'onChange'> & { value: string; onChange: (value: string) => void }) {
  return <Textarea {...props} onChange={(e) => onChange(e.currentTarget.value)} />;
}

interface MenuTranslationFieldsProps {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  defaultLanguage: string;
  language: string;
  errors: FormErrors;
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
 * Below the screen texts, the closing texts of Terminate rules and the validations' error messages that have one.
 */
export function MenuTranslationFields({ values, set, defaultLanguage, language, errors }: MenuTranslationFieldsProps) {
  const screen = values.translations[language] ?? {};
  const name = getLanguageName(language);
  const defaultName = getLanguageName(defaultLanguage);
  const row = (
    key: string,
    label: string,
    source: string,
    text: string,
    onChange: (text: string) => void,
    rows = 1,
    error?: string,
    // The input holder is shown as typed; every other text here is a template.
    Field: typeof TemplateTextarea | typeof PlainTextarea = TemplateTextarea,
  ) => (
    <SimpleGrid key={key} cols={{ base: 1, sm: 2 }} spacing="sm">
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {label} in {defaultName}
        </Text>
        <Paper withBorder radius="sm" px="sm" py={6} bg="gray.0" mih={36}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={source ? undefined : 'dimmed'}>
            {source || 'Empty'}
          </Text>
        </Paper>
      </Stack>
      <Field
        label={`${label} in ${name}`}
        placeholder={source}
        value={text}
        onChange={(value: string) => onChange(value)}
        error={error}
        autosize
        minRows={rows}
        maxRows={14}
      />
    </SimpleGrid>
  );
  return (
    <Stack gap="md" data-testid="menu-translation-fields">
      <Text size="sm" c="dimmed">
        Each {defaultName} text is shown with its {name} translation. A field left empty shows the {defaultName} text.
      </Text>
      {FIELDS.filter(({ field }) => field !== 'inputHolder' || !values.terminate).map(({ field, label, rows }) =>
        row(
          field,
          label,
          values[field],
          screen[field] ?? '',
          (text) => set({ translations: { ...values.translations, [language]: { ...screen, [field]: text } } }),
          rows,
          errors[`translations.${language}.${field}`]?.message,
          field === 'inputHolder' ? PlainTextarea : TemplateTextarea,
        ),
      )}
      {!values.alwaysGoto &&
        values.rules.map((rule, i) =>
          rule.action === 'Terminate'
            ? row(
                rule.key,
                `Rule ${i + 1} closing text`,
                rule.actionParam || 'Thank you.',
                rule.closingTranslations?.[language] ?? '',
                (text) =>
                  set({
                    rules: values.rules.map((r, j) =>
                      j === i ? { ...r, closingTranslations: { ...r.closingTranslations, [language]: text } } : r,
                    ),
                  }),
              )
            : null,
        )}
      {values.validations.map((v, i) =>
        v.errorMessage.trim()
          ? row(
              v.key,
              `Validation ${i + 1} error message`,
              v.errorMessage,
              v.errorTranslations?.[language] ?? '',
              (text) =>
                set({
                  validations: values.validations.map((x, j) =>
                    j === i ? { ...x, errorTranslations: { ...x.errorTranslations, [language]: text } } : x,
                  ),
                }),
              1,
              undefined,
              PlainTextarea,
            )
          : null,
      )}
    </Stack>
  );
}
