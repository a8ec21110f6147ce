import { ActionIcon, Button, Group, List, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createTemplate } from '../../../shared/api/whatsapp-templates.calls';
import { TEMPLATE_API_MESSAGES } from '../../../shared/api/whatsapp-templates.schema';
import {
  checkTemplateDraft,
  readTextVariables,
  TEMPLATE_CATEGORIES,
  TEMPLATE_LIMITS,
  type TemplateCategory,
  type TemplateDraft,
  type TemplatePlace,
} from '../../../shared/whatsapp-templates';
import { DialogActions } from '../../components/dialog-actions';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { TemplatePreview } from './template-preview';
import { templatesKey } from './use-templates';

interface TemplateFormValues {
  name: string;
  language: string;
  category: TemplateCategory;
  header: string;
  body: string;
  footer: string;
  buttons: string[];
  examples: Record<TemplatePlace, Record<string, string>>;
}

const EMPTY: TemplateFormValues = {
  name: '',
  language: 'en_US',
  category: 'UTILITY',
  header: '',
  body: '',
  footer: '',
  buttons: [],
  examples: { header: {}, body: {} },
};

/** The form as the create call's body: empty parts left out, examples kept for the variables still written. */
function toDraft(values: TemplateFormValues): TemplateDraft {
  const keep = (place: TemplatePlace, text: string) =>
    Object.fromEntries(readTextVariables(text).map((name) => [name, values.examples[place][name] ?? '']));
  return {
    name: values.name.trim(),
    language: values.language.trim(),
    category: values.category,
    ...(values.header.trim() ? { header: values.header.trim() } : {}),
    body: values.body.trim(),
    ...(values.footer.trim() ? { footer: values.footer.trim() } : {}),
    buttons: values.buttons.map((b) => b.trim()),
    examples: { header: keep('header', values.header), body: keep('body', values.body) },
  };
}

/** What the preview shows: each variable filled with its example, or left as `{{1}}` until it has one. */
function fillExamples(text: string, examples: Record<string, string>): string {
  return text.replace(/\{\{\s*([a-z0-9_]+)\s*\}\}/g, (whole, name: string) => examples[name]?.trim() || whole);
}

interface TemplateFormDialogProps {
  linkId: string;
  /** Cloud API numbers submit to Meta for review; the others' templates are APPROVED at once. */
  isCloud: boolean;
  opened: boolean;
  onClose: () => void;
}

/** New Template: name, language, category, header, body with {{1}} variables and their examples, footer, quick replies; a live preview beside it. */
export function TemplateFormDialog({ linkId, isCloud, opened, onClose }: TemplateFormDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="New Template" centered size="xl">
      <TemplateForm linkId={linkId} isCloud={isCloud} onClose={onClose} />
    </Modal>
  );
}

function TemplateForm({ linkId, isCloud, onClose }: Omit<TemplateFormDialogProps, 'opened'>) {
  const queryClient = useQueryClient();
  const [isSubmitting, setSubmitting] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const form = useForm<TemplateFormValues>({ mode: 'controlled', initialValues: EMPTY });
  const { values } = form;
  const variables = (['header', 'body'] as const).flatMap((place) => readTextVariables(values[place]).map((name) => ({ place, name })));

  const handleSubmit = form.onSubmit(async (formValues) => {
    const draft = toDraft(formValues);
    const found = checkTemplateDraft(draft);
    setProblems(found);
    if (found.length) return;
    setSubmitting(true);
    const reply = await call(createTemplate, { params: { id: linkId }, body: draft });
    setSubmitting(false);
    if (!isOk(reply)) {
      // Meta's refusal, in its words, stays on the form to be put right.
      setProblems([failureText(reply, 'The template could not be saved.')]);
      return;
    }
    showToast({
      color: 'teal',
      title: isCloud ? 'Template submitted' : 'Template saved',
      message: reply.message || TEMPLATE_API_MESSAGES.created,
    });
    await queryClient.invalidateQueries({ queryKey: templatesKey(linkId) });
    onClose();
  });

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="New Template">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="sm">
          <TextInput
            label="Name"
            description="Lowercase letters, digits and underscores"
            placeholder="order_shipped"
            withAsterisk
            maxLength={TEMPLATE_LIMITS.name}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Group grow gap="sm" align="flex-start">
            <TextInput label="Language" placeholder="en_US" withAsterisk maxLength={6} {...form.getInputProps('language')} />
            <Select
              label="Category"
              withAsterisk
              allowDeselect={false}
              data={TEMPLATE_CATEGORIES.map((c) => ({ value: c, label: c.charAt(0) + c.slice(1).toLowerCase() }))}
              {...form.getInputProps('category')}
            />
          </Group>
          <TextInput
            label="Header"
            description="Optional; one variable at most"
            maxLength={TEMPLATE_LIMITS.headerText}
            {...form.getInputProps('header')}
          />
          <Textarea
            label="Body"
            description="Write {{1}}, {{2}}... where a message fills in a value"
            withAsterisk
            autosize
            minRows={3}
            maxLength={TEMPLATE_LIMITS.body}
            {...form.getInputProps('body')}
          />
          {variables.length > 0 && (
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Examples for review
              </Text>
              {variables.map(({ place, name }) => (
                <TextInput
                  key={`${place}-${name}`}
                  size="xs"
                  label={`{{${name}}} in the ${place}`}
                  placeholder="An example value Meta's reviewers see"
                  maxLength={TEMPLATE_LIMITS.value}
                  {...form.getInputProps(`examples.${place}.${name}`)}
                  value={values.examples[place][name] ?? ''}
                />
              ))}
            </Stack>
          )}
          <TextInput label="Footer" description="Optional" maxLength={TEMPLATE_LIMITS.footer} {...form.getInputProps('footer')} />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              Quick reply buttons
            </Text>
            {values.buttons.map((_, i) => (
              <Group key={i} gap="xs" wrap="nowrap">
                <TextInput
                  size="xs"
                  style={{ flex: 1 }}
                  aria-label={`Button ${i + 1}`}
                  maxLength={TEMPLATE_LIMITS.buttonText}
                  {...form.getInputProps(`buttons.${i}`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove button ${i + 1}`}
                  onClick={() => form.removeListItem('buttons', i)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
            {values.buttons.length < TEMPLATE_LIMITS.buttons && (
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => form.insertListItem('buttons', '')}
                style={{ alignSelf: 'flex-start' }}
              >
                Add button
              </Button>
            )}
          </Stack>
        </Stack>
        {/* The preview stays in view while the form beside it scrolls. */}
        <Stack gap="sm" style={{ position: 'sticky', top: 0, alignSelf: 'start' }}>
          <Title order={3} fz="sm">
            Preview
          </Title>
          <TemplatePreview
            parts={{
              header: fillExamples(values.header, values.examples.header) || undefined,
              body: fillExamples(values.body, values.examples.body),
              footer: values.footer || undefined,
              buttons: values.buttons,
            }}
          />
          <Text size="xs" c="dimmed">
            {isCloud
              ? 'Submitting sends it to Meta for review; it can be sent once APPROVED.'
              : 'On this number a template is approved as soon as it is saved.'}
          </Text>
        </Stack>
      </SimpleGrid>
      {problems.length > 0 && (
        <List size="sm" c="red.8" mt="md" data-testid="template-problems" role="alert">
          {problems.map((problem) => (
            <List.Item key={problem}>{problem}</List.Item>
          ))}
        </List>
      )}
      <DialogActions submitLabel={isCloud ? 'Submit for review' : 'Save template'} onCancel={onClose} isSubmitting={isSubmitting} mt="lg" />
    </form>
  );
}
