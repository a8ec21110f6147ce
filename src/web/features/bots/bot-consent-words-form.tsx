import { ActionIcon, Button, Card, Group, Select, SimpleGrid, Stack, TagsInput, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { updateBot } from '../../../shared/api/bots.calls';
import { type Bot, consentKeywordsSchema } from '../../../shared/api/bots.schema';
import { describeLanguage, LANGUAGES } from '../../../shared/app/languages';
import {
  type ConsentKeywords,
  DEFAULT_OPT_IN_REPLY,
  DEFAULT_OPT_OUT_REPLY,
  START_WORDS,
  STOP_WORDS,
} from '../../../shared/contact-consent';
import { FormSubmitRow } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { queryKeys } from '../../lib/query-keys';
import { showToast } from '../../lib/toast';
import { BOTS_KEY } from './use-bots';

/** One language's words and answers, as the form edits them. */
interface LanguageRow {
  language: string;
  optOutWords: string[];
  optInWords: string[];
  optOutReply: string;
  optInReply: string;
}
type RowField = Exclude<keyof LanguageRow, 'language'> | 'language';
/** Errors by `<row index>.<field>`. */
type RowErrors = Record<string, string>;

const FIELDS = ['optOutWords', 'optInWords', 'optOutReply', 'optInReply'] as const;
const DUPLICATE_LANGUAGE = 'This language is already above: add its words there';
const NO_LANGUAGE = 'Pick the language these words are in';

/** The stored words as rows, one a language in the order first met. */
function toRows(keywords: ConsentKeywords | null): LanguageRow[] {
  if (!keywords) return [];
  const languages = [
    ...new Set([
      ...Object.keys(keywords.optOutWords),
      ...Object.keys(keywords.optInWords),
      ...Object.keys(keywords.optOutReply),
      ...Object.keys(keywords.optInReply),
    ]),
  ];
  return languages.map((language) => ({
    language,
    optOutWords: keywords.optOutWords[language] ?? [],
    optInWords: keywords.optInWords[language] ?? [],
    optOutReply: keywords.optOutReply[language] ?? '',
    optInReply: keywords.optInReply[language] ?? '',
  }));
}

/** The rows as the API's `consentKeywords` (empty fields left out), or null when there is nothing to keep. */
function toConsentKeywords(rows: LanguageRow[]): ConsentKeywords | null {
  const keywords: ConsentKeywords = { optOutWords: {}, optInWords: {}, optOutReply: {}, optInReply: {} };
  for (const row of rows) {
    if (row.optOutWords.length > 0) keywords.optOutWords[row.language] = row.optOutWords;
    if (row.optInWords.length > 0) keywords.optInWords[row.language] = row.optInWords;
    if (row.optOutReply.trim()) keywords.optOutReply[row.language] = row.optOutReply;
    if (row.optInReply.trim()) keywords.optInReply[row.language] = row.optInReply;
  }
  return FIELDS.some((field) => Object.keys(keywords[field]).length > 0) ? keywords : null;
}

/** Checks the rows with the API's own schema, so the messages are the ones the API would answer. */
function validateRows(rows: LanguageRow[]): RowErrors {
  const errors: RowErrors = {};
  rows.forEach((row, index) => {
    if (!row.language) errors[`${index}.language`] = NO_LANGUAGE;
    else if (rows.findIndex((other) => other.language === row.language) < index) errors[`${index}.language`] = DUPLICATE_LANGUAGE;
  });
  const keywords = toConsentKeywords(rows.filter((row) => row.language));
  const parsed = keywords ? consentKeywordsSchema.safeParse(keywords) : null;
  for (const issue of parsed?.error?.issues ?? []) {
    const [field, language] = issue.path;
    const index = rows.findIndex((row) => row.language === language);
    const key = `${index}.${FIELDS.includes(field as never) ? String(field) : 'language'}`;
    if (index >= 0 && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

/**
 * The bot's own consent words and answers per language (docs/contacts.md, "Keywords on WhatsApp"), beside STOP and
 * START which every bot honours; saved as `consentKeywords` through POST /chatbot/app/update.
 */
export function BotConsentWordsForm({ bot }: { bot: Bot }) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<LanguageRow[]>(() => toRows(bot.consentKeywords));
  const [errors, setErrors] = useState<RowErrors>({});
  const [isSaving, setSaving] = useState(false);

  const setRow = (index: number, patch: Partial<LanguageRow>) => {
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
    // A field changed is checked again on the next save.
    setErrors((current) => {
      const next = { ...current };
      for (const field of Object.keys(patch)) delete next[`${index}.${field}`];
      return next;
    });
  };
  const addRow = () => {
    const used = new Set(rows.map((row) => row.language));
    const language = LANGUAGES.find((l) => !used.has(l.code))?.code ?? '';
    setRows((current) => [...current, { language, optOutWords: [], optInWords: [], optOutReply: '', optInReply: '' }]);
  };
  const removeRow = (index: number) => {
    setRows((current) => current.filter((_, i) => i !== index));
    setErrors({});
  };

  const handleSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = validateRows(rows);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    // The bot data object with its words (the call's contract); null clears them.
    const reply = await call(updateBot, { body: { ...bot, consentKeywords: toConsentKeywords(rows) } });
    setSaving(false);
    if (!isOk(reply)) {
      showToast({ color: 'red', title: 'Consent words not saved', message: failureText(reply, 'The consent words could not be saved.') });
      return;
    }
    showToast({ color: 'teal', title: 'Consent words saved', message: 'The bot answers these words from now on.' });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: BOTS_KEY }),
      queryClient.invalidateQueries({ queryKey: queryKeys.app(bot.appId), exact: true }),
    ]);
  };

  const error = (index: number, field: RowField) => errors[`${index}.${field}`];
  return (
    <Card withBorder radius="lg" padding="lg" maw={640}>
      <form onSubmit={handleSubmit} noValidate aria-label="Consent words">
        <Stack gap="md">
          <div>
            <Title order={3} size="h4">
              Consent words
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {STOP_WORDS.map((w) => w.toUpperCase()).join(', ')} opt a person out of the bot's messages and{' '}
              {START_WORDS.map((w) => w.toUpperCase()).join(', ')} back in, on every bot. Add your own words per language, and the answer
              sent in that language ({'{app}'} is the bot's name).
            </Text>
          </div>
          {rows.length === 0 && (
            <Text size="sm" data-testid="consent-words-empty">
              No words of this bot's own: STOP and START only, answered with the default sentences.
            </Text>
          )}
          {rows.map((row, index) => (
            <Card key={index} withBorder radius="md" padding="md" data-testid="consent-words-language">
              <Stack gap="sm">
                <Group align="flex-end" gap="sm" wrap="nowrap">
                  <Select
                    label="Language"
                    aria-label={`Language ${index + 1}`}
                    data={LANGUAGES.map((l) => ({ value: l.code, label: describeLanguage(l.code) }))}
                    value={row.language || null}
                    onChange={(language) => setRow(index, { language: language ?? '' })}
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
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TagsInput
                    label="Opt-out words"
                    description="Press Enter after each word"
                    value={row.optOutWords}
                    onChange={(optOutWords) => setRow(index, { optOutWords })}
                    error={error(index, 'optOutWords')}
                    placeholder="e.g. arrêt"
                  />
                  <TagsInput
                    label="Opt-in words"
                    description="Press Enter after each word"
                    value={row.optInWords}
                    onChange={(optInWords) => setRow(index, { optInWords })}
                    error={error(index, 'optInWords')}
                    placeholder="e.g. reprendre"
                  />
                </SimpleGrid>
                <Textarea
                  label="Opt-out answer"
                  autosize
                  minRows={1}
                  value={row.optOutReply}
                  onChange={(e) => setRow(index, { optOutReply: e.currentTarget.value })}
                  error={error(index, 'optOutReply')}
                  placeholder={DEFAULT_OPT_OUT_REPLY}
                />
                <Textarea
                  label="Opt-in answer"
                  autosize
                  minRows={1}
                  value={row.optInReply}
                  onChange={(e) => setRow(index, { optInReply: e.currentTarget.value })}
                  error={error(index, 'optInReply')}
                  placeholder={DEFAULT_OPT_IN_REPLY}
                />
              </Stack>
            </Card>
          ))}
          <Group justify="space-between" align="center">
            <Button variant="default" leftSection={<IconPlus size={16} />} onClick={addRow} disabled={rows.length >= LANGUAGES.length}>
              Add a language
            </Button>
            <FormSubmitRow label="Save consent words" isSubmitting={isSaving} />
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
