import { ActionIcon, Button, Card, Group, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { updateBot } from '../../../shared/api/bots.calls';
import type { Bot } from '../../../shared/api/bots.schema';
import { describeLanguage, LANGUAGES } from '../../../shared/app/languages';
import { FormSubmitRow } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { queryKeys } from '../../lib/query-keys';
import { showToast } from '../../lib/toast';
import { BOTS_KEY } from './use-bots';

/** A field kept per language: a list of words (entered as tags) or an answer (a text). */
export interface LanguageField<K extends string> {
  key: K;
  kind: 'words' | 'text';
  label: string;
  placeholder: string;
}

/** The stored object: each field's values by language code (`{ words: { en: ['agent'] }, reply: { en: '...' } }`). */
type ByLanguage<K extends string> = Record<K, Record<string, string[] | string>>;

/** One language's values, as the form edits them. */
type LanguageRow<K extends string> = { language: string } & Record<K, string[] | string>;

/** Errors by `<row index>.<field>`. */
type RowErrors = Record<string, string>;

const DUPLICATE_LANGUAGE = 'This language is already above: add its words there';
const NO_LANGUAGE = 'Pick the language these words are in';

const isEmpty = (value: string[] | string) => (Array.isArray(value) ? value.length === 0 : value.trim() === '');

export interface LanguageWordsFormProps<K extends string> {
  bot: Bot;
  /** The form's name (its accessible name and title), e.g. "Consent words". */
  title: string;
  description: ReactNode;
  /** Shown when the bot has none of its own. */
  emptyText: string;
  /** A test id prefix: `<prefix>-empty`, `<prefix>-language`. */
  testId: string;
  fields: readonly LanguageField<K>[];
  /** The API's schema of the stored object: the form's messages are the ones the API would answer. */
  schema: z.ZodType;
  /** The bot's stored object; null: none. */
  stored: ByLanguage<K> | null;
  /** The update body's field that carries it (null clears it). */
  bodyKey: 'consentKeywords' | 'handoffKeywords';
  savedMessage: string;
}

/**
 * A bot's own words and answers per language (consent words, handoff words), saved on the bot through POST
 * /chatbot/app/update: one card per language, each field a list of words or an answer.
 */
export function BotLanguageWordsForm<K extends string>(props: LanguageWordsFormProps<K>) {
  const { bot, title, fields } = props;
  const keys = fields.map((field) => field.key);
  const blank = (language: string) =>
    ({ language, ...Object.fromEntries(fields.map((f) => [f.key, f.kind === 'words' ? [] : ''])) }) as LanguageRow<K>;

  /** The stored values as rows, one a language in the order first met. */
  const toRows = (stored: ByLanguage<K> | null): LanguageRow<K>[] => {
    if (!stored) return [];
    const languages = [...new Set(keys.flatMap((key) => Object.keys(stored[key] ?? {})))];
    return languages.map((language) => {
      const row = blank(language);
      for (const key of keys) {
        const value = stored[key]?.[language];
        if (value !== undefined) (row as Record<string, unknown>)[key] = value;
      }
      return row;
    });
  };
  /** The rows as the stored object (empty fields left out), or null when there is nothing to keep. */
  const toStored = (rows: LanguageRow<K>[]): ByLanguage<K> | null => {
    const stored = Object.fromEntries(keys.map((key) => [key, {}])) as ByLanguage<K>;
    for (const row of rows)
      for (const key of keys) if (!isEmpty(row[key])) (stored[key] as Record<string, string[] | string>)[row.language] = row[key];
    return keys.some((key) => Object.keys(stored[key]).length > 0) ? stored : null;
  };
  const validate = (rows: LanguageRow<K>[]): RowErrors => {
    const errors: RowErrors = {};
    rows.forEach((row, index) => {
      if (!row.language) errors[`${index}.language`] = NO_LANGUAGE;
      else if (rows.findIndex((other) => other.language === row.language) < index) errors[`${index}.language`] = DUPLICATE_LANGUAGE;
    });
    const stored = toStored(rows.filter((row) => row.language));
    for (const issue of (stored ? props.schema.safeParse(stored).error?.issues : undefined) ?? []) {
      const [field, language] = issue.path;
      const index = rows.findIndex((row) => row.language === language);
      const key = `${index}.${keys.includes(field as K) ? String(field) : 'language'}`;
      if (index >= 0 && !errors[key]) errors[key] = issue.message;
    }
    return errors;
  };

  const queryClient = useQueryClient();
  const [rows, setRows] = useState<LanguageRow<K>[]>(() => toRows(props.stored));
  const [errors, setErrors] = useState<RowErrors>({});
  const [isSaving, setSaving] = useState(false);

  const setField = (index: number, field: K | 'language', value: string[] | string) => {
    setRows((current) => current.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
    // A field changed is checked again on the next save.
    setErrors((current) => {
      const { [`${index}.${field}`]: _, ...next } = current;
      return next;
    });
  };
  const addRow = () => {
    const used = new Set(rows.map((row) => row.language));
    setRows((current) => [...current, blank(LANGUAGES.find((l) => !used.has(l.code))?.code ?? '')]);
  };
  const removeRow = (index: number) => {
    setRows((current) => current.filter((_, i) => i !== index));
    setErrors({});
  };

  const handleSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = validate(rows);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    // The bot data object with the words (the call's contract); null clears them.
    const reply = await call(updateBot, { body: { ...bot, [props.bodyKey]: toStored(rows) } });
    setSaving(false);
    if (!isOk(reply)) {
      showToast({
        color: 'red',
        title: `${title} not saved`,
        message: failureText(reply, `The ${title.toLowerCase()} could not be saved.`),
      });
      return;
    }
    showToast({ color: 'teal', title: `${title} saved`, message: props.savedMessage });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: BOTS_KEY }),
      queryClient.invalidateQueries({ queryKey: queryKeys.app(bot.appId), exact: true }),
    ]);
  };

  const error = (index: number, field: K | 'language') => errors[`${index}.${field}`];
  const words = fields.filter((field) => field.kind === 'words');
  const texts = fields.filter((field) => field.kind === 'text');
  return (
    <Card withBorder radius="lg" padding="lg" maw={640}>
      <form onSubmit={handleSubmit} noValidate aria-label={title}>
        <Stack gap="md">
          <div>
            <Title order={3} size="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {props.description}
            </Text>
          </div>
          {rows.length === 0 && (
            <Text size="sm" data-testid={`${props.testId}-empty`}>
              {props.emptyText}
            </Text>
          )}
          {rows.map((row, index) => (
            <Card key={index} withBorder radius="md" padding="md" data-testid={`${props.testId}-language`}>
              <Stack gap="sm">
                <Group align="flex-end" gap="sm" wrap="nowrap">
                  <Select
                    label="Language"
                    aria-label={`Language ${index + 1}`}
                    data={LANGUAGES.map((l) => ({ value: l.code, label: describeLanguage(l.code) }))}
                    value={row.language || null}
                    onChange={(language) => setField(index, 'language', language ?? '')}
                    error={error(index, 'language')}
                    searchable
                    allowDeselect={false}
                    style={{ flex: 1 }}
                  />
                  <Tooltip label="Remove this language's words">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      mb={error(index, 'language') ? 22 : 2}
                      aria-label={`Remove ${describeLanguage(row.language)}`}
                      onClick={() => removeRow(index)}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
                <SimpleGrid cols={{ base: 1, sm: words.length > 1 ? 2 : 1 }} spacing="sm">
                  {words.map((field) => (
                    <TagsInput
                      key={field.key}
                      label={field.label}
                      description="Press Enter after each word"
                      value={row[field.key] as string[]}
                      onChange={(value) => setField(index, field.key, value)}
                      error={error(index, field.key)}
                      placeholder={field.placeholder}
                    />
                  ))}
                </SimpleGrid>
                {texts.map((field) => (
                  <Textarea
                    key={field.key}
                    label={field.label}
                    autosize
                    minRows={1}
                    value={row[field.key] as string}
                    onChange={(e) => setField(index, field.key, e.currentTarget.value)}
                    error={error(index, field.key)}
                    placeholder={field.placeholder}
                  />
                ))}
              </Stack>
            </Card>
          ))}
          <Group justify="space-between" align="center">
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={addRow} disabled={rows.length >= LANGUAGES.length}>
              Add a language
            </Button>
            <FormSubmitRow label={`Save ${title.toLowerCase()}`} isSubmitting={isSaving} />
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
