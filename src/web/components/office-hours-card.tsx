import { ActionIcon, Button, Card, Checkbox, Group, Select, Stack, Switch, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { describeLanguage, LANGUAGES } from '../../shared/app/languages';
import {
  COUNTRY_TIME_ZONES,
  DEFAULT_CLOSED_CALLBACK_TEXT,
  DEFAULT_CLOSED_TEXT,
  describeOfficeHours,
  type OfficeHours,
  officeHoursSchema,
  WEEKDAY_LABELS,
  WEEKDAYS,
  type Weekday,
} from '../../shared/office-hours';
import { FormSubmitRow } from './dialog-actions';

interface DayRow {
  isOpen: boolean;
  from: string;
  to: string;
}
interface ReplyRow {
  language: string;
  text: string;
}

/** Every zone the browser knows, the app's country's first. */
export function listTimeZones(first: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : Object.values(COUNTRY_TIME_ZONES);
  return [first, ...all.filter((zone) => zone !== first)];
}

const DEFAULT_DAY: DayRow = { isOpen: false, from: '08:00', to: '17:00' };
const toDays = (hours: OfficeHours | null): Record<Weekday, DayRow> =>
  Object.fromEntries(
    WEEKDAYS.map((day) => {
      const opening = hours?.days[day];
      // A new setting opens the working week.
      if (!hours) return [day, { ...DEFAULT_DAY, isOpen: day !== 'sat' && day !== 'sun' }];
      return [day, opening ? { isOpen: true, ...opening } : DEFAULT_DAY];
    }),
  ) as Record<Weekday, DayRow>;

export interface OfficeHoursCardProps {
  value: OfficeHours | null;
  /** The app's country's zone, offered first and taken when the hours are first turned on. */
  defaultTimeZone: string;
  /** Where a handoff goes: a bot's conversation, or a USSD caller's callback request. */
  channel: 'whatsapp' | 'ussd';
  /** Saves the hours (null: always in); false when the save failed (the caller has said why). */
  onSave: (hours: OfficeHours | null) => Promise<boolean>;
  /** The card's width: the screen's other cards'. */
  maw?: number | string;
}

/**
 * An app's office hours (docs/inbox.md, "Office hours"): on or off, the time zone, one opening a day, and the answer
 * a handoff gets out of hours per language. Checked with the API's own schema before it is sent.
 */
export function OfficeHoursCard({ value, defaultTimeZone, channel, onSave, maw = 640 }: OfficeHoursCardProps) {
  const [isOn, setOn] = useState(value !== null);
  const [timeZone, setTimeZone] = useState(value?.timeZone ?? defaultTimeZone);
  const [days, setDays] = useState(() => toDays(value));
  const [replies, setReplies] = useState<ReplyRow[]>(() =>
    Object.entries(value?.closedReply ?? {}).map(([language, text]) => ({ language, text })),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSaving, setSaving] = useState(false);

  const setDay = (day: Weekday, patch: Partial<DayRow>) => {
    setDays((current) => ({ ...current, [day]: { ...current[day], ...patch } }));
    setErrors({});
  };
  const read = (): OfficeHours =>
    ({
      timeZone,
      days: Object.fromEntries(WEEKDAYS.filter((day) => days[day].isOpen).map((day) => [day, { from: days[day].from, to: days[day].to }])),
      closedReply: Object.fromEntries(replies.filter((r) => r.language && r.text.trim()).map((r) => [r.language, r.text])),
    }) as OfficeHours;

  const handleSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    let hours: OfficeHours | null = null;
    if (isOn) {
      const parsed = officeHoursSchema.safeParse(read());
      if (!parsed.success) {
        setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
        return;
      }
      hours = parsed.data;
    }
    setSaving(true);
    await onSave(hours);
    setSaving(false);
  };

  const used = new Set(replies.map((r) => r.language));
  const preview = isOn && WEEKDAYS.some((day) => days[day].isOpen) ? describeOfficeHours(read()) : '';
  const defaultText = channel === 'ussd' ? DEFAULT_CLOSED_CALLBACK_TEXT : DEFAULT_CLOSED_TEXT;
  return (
    <Card withBorder radius="lg" padding="lg" maw={maw}>
      <form onSubmit={handleSubmit} noValidate aria-label="Office hours">
        <Stack gap="md">
          <div>
            <Title order={3} size="h4">
              Office hours
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {channel === 'ussd'
                ? 'When your agents call back. A callback request out of hours is still taken, and the caller is told when you are back.'
                : 'When your agents answer. A handoff out of hours still reaches the Inbox, and the customer is told when you are back.'}
            </Text>
          </div>
          <Switch label="Set office hours" checked={isOn} onChange={(e) => setOn(e.currentTarget.checked)} />
          {!isOn && (
            <Text size="sm" data-testid="office-hours-off">
              No office hours: a handoff always gets its usual answer.
            </Text>
          )}
          {isOn && (
            <>
              <Select
                label="Time zone"
                data={listTimeZones(defaultTimeZone)}
                value={timeZone}
                onChange={(zone) => setTimeZone(zone ?? defaultTimeZone)}
                error={errors.timeZone}
                searchable
                allowDeselect={false}
                maw={320}
              />
              <Stack gap={6} role="group" aria-label="Opening times">
                {WEEKDAYS.map((day) => (
                  <Group key={day} gap="xs" wrap="wrap" align="center" mih={36}>
                    <Checkbox
                      label={WEEKDAY_LABELS[day]}
                      checked={days[day].isOpen}
                      onChange={(e) => setDay(day, { isOpen: e.currentTarget.checked })}
                      w={120}
                    />
                    {days[day].isOpen ? (
                      <Group gap="xs" wrap="nowrap">
                        <TimeInput
                          aria-label={`${WEEKDAY_LABELS[day]} opens`}
                          value={days[day].from}
                          onChange={(e) => setDay(day, { from: e.currentTarget.value })}
                          error={errors[`days.${day}.from`]}
                          w={130}
                        />
                        <Text size="sm">to</Text>
                        <TimeInput
                          aria-label={`${WEEKDAY_LABELS[day]} closes`}
                          value={days[day].to}
                          onChange={(e) => setDay(day, { to: e.currentTarget.value })}
                          error={errors[`days.${day}.to`]}
                          w={130}
                        />
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        Closed
                      </Text>
                    )}
                  </Group>
                ))}
              </Stack>
              {errors.days && (
                <Text size="sm" c="red" role="alert">
                  {errors.days}
                </Text>
              )}
              {preview && (
                <Text size="sm" data-testid="office-hours-summary">
                  Open {preview} ({timeZone})
                </Text>
              )}
              <Text size="sm" fw={500}>
                Out-of-hours answer
              </Text>
              <Text size="xs" c="dimmed" mt={-12}>
                Per language; {'{hours}'} is the opening times. Without one: "{defaultText}"
              </Text>
              {replies.map((reply, index) => (
                <Group key={index} align="flex-start" gap="sm" wrap="wrap" data-testid="office-hours-reply">
                  <Select
                    aria-label={`Answer ${index + 1} language`}
                    data={LANGUAGES.map((l) => ({ value: l.code, label: describeLanguage(l.code) }))}
                    value={reply.language || null}
                    onChange={(language) =>
                      setReplies((rows) => rows.map((r, i) => (i === index ? { ...r, language: language ?? '' } : r)))
                    }
                    searchable
                    allowDeselect={false}
                    w={170}
                  />
                  <Textarea
                    aria-label={`Answer ${index + 1}`}
                    autosize
                    minRows={1}
                    value={reply.text}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      setReplies((rows) => rows.map((r, i) => (i === index ? { ...r, text } : r)));
                    }}
                    error={errors[`closedReply.${reply.language}`]}
                    placeholder={defaultText}
                    style={{ flex: '1 1 200px' }}
                  />
                  <Tooltip label="Remove this answer">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={`Remove answer ${index + 1}`}
                      onClick={() => setReplies((rows) => rows.filter((_, i) => i !== index))}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
              <Group>
                <Button
                  variant="default"
                  leftSection={<IconPlus size={16} />}
                  onClick={() =>
                    setReplies((rows) => [...rows, { language: LANGUAGES.find((l) => !used.has(l.code))?.code ?? '', text: '' }])
                  }
                  disabled={replies.length >= LANGUAGES.length}
                >
                  Add an answer
                </Button>
              </Group>
            </>
          )}
          <FormSubmitRow label="Update office hours" isSubmitting={isSaving} />
        </Stack>
      </form>
    </Card>
  );
}
