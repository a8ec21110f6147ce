import { ActionIcon, Checkbox, Group, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

export const TEMPLATE_TAG_HELP =
  'A template-formatted shortcode carries values the caller types in the dial string, written as tags such as {merchantCode} or {amount}. ' +
  'With *920*12*{merchantCode}*{amount}#, dialling *920*12*4411*20# starts the app with merchantCode 4411 and amount 20.';

/** Placeholder examples for the shortcode input: they change with the template-tag checkbox. */
export function getShortcodeExamples(kind: 'extension' | 'custom' | 'existing', useTemplateTag: boolean): string {
  if (kind === 'extension') return useTemplateTag ? '12*{merchantCode}*{amount}#' : '12#';
  if (kind === 'custom') return useTemplateTag ? '*384*55*{amount}#' : '*384*55#';
  return useTemplateTag ? '*966*{merchantCode}#, *900*{amount}#' : '*966#, *900*200#';
}

interface AppTemplateTagFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** The template-tag checkbox with the tooltip that explains tags (Create Ussd App, Application Settings). */
export function AppTemplateTagField({ label, checked, onChange }: AppTemplateTagFieldProps) {
  return (
    <Group gap={6} wrap="nowrap" align="center">
      <Checkbox label={label} checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} name="useTemplateTag" />
      <Tooltip
        label={<Text size="xs">{TEMPLATE_TAG_HELP}</Text>}
        multiline
        w={300}
        withArrow
        position="top-start"
        events={{ hover: true, focus: true, touch: true }}
      >
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label="What is a template-formatted shortcode?">
          <IconInfoCircle size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
