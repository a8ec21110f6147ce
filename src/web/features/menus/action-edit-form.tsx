import { Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ACTION_KIND_LABELS, ACTION_KINDS, actionCodeSchemas, type Action, type ActionKind, type ActionType } from '../../../shared/app';
import { ActionCodeFields } from './actions/action-code-fields';
import type { ActionDraft, FormErrors } from './menu-form-state';

/** The action form's modes: add at an insert position (Save), edit an index ('Done'), or idle. */
export type ActionEditor =
  | { mode: 'idle' }
  | { mode: 'add'; at: number; draft: ActionDraft; errors: FormErrors }
  | { mode: 'edit'; index: number; draft: ActionDraft; errors: FormErrors };

const KIND_OPTIONS = ACTION_KINDS.map((kind) => ({ value: kind, label: ACTION_KIND_LABELS[kind] }));

/** Picking a type sets the plugin kind, with that kind's empty code (javascript: no code yet). */
export function changeActionKind(action: ActionDraft, kind: ActionKind): ActionDraft {
  if (action.inheritsPlugin === kind) return action;
  const code = kind === 'javascript' ? '' : actionCodeSchemas[kind].parse({});
  return { ...action, inheritsPlugin: kind, code } as ActionDraft;
}

interface ActionEditFormProps {
  editor: Exclude<ActionEditor, { mode: 'idle' }>;
  onChange: (draft: ActionDraft) => void;
  onSubmit: () => void;
  onCancel: () => void;
}

export function ActionEditForm({ editor, onChange, onSubmit, onCancel }: ActionEditFormProps) {
  const { draft, errors } = editor;
  const codeErrors: FormErrors = {};
  for (const [field, error] of Object.entries(errors)) {
    if (field === 'code') codeErrors[''] = error;
    else if (field.startsWith('code.')) codeErrors[field.slice(5)] = error;
  }
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      shadow="sm"
      bg="teal.0"
      style={{ borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 }}
      data-testid="action-form"
      aria-label={editor.mode === 'add' ? 'New action' : `Edit action ${draft.actionName}`}
      component="section"
    >
      <Stack gap="md">
        <div>
          <Text fw={700} size="sm">
            {editor.mode === 'add' ? 'New action' : `Edit action ${draft.actionName}`}
          </Text>
          <Text size="xs" c="dimmed">
            {editor.mode === 'add' ? 'Save action adds it to this menu; ' : 'Done keeps the change in this menu; '}
            the menu itself is saved with the Save button at the bottom of the form.
          </Text>
        </div>
        {errors[''] && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="action-plugin-error">
            {errors[''].message}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Type"
            data={KIND_OPTIONS}
            value={draft.inheritsPlugin}
            onChange={(v) => v && onChange(changeActionKind(draft, v as ActionKind))}
            allowDeselect={false}
          />
          <TextInput
            label="Action name"
            description="A JavaScript identifier; the result is actions.<name>"
            placeholder="checkBalance"
            value={draft.actionName}
            onChange={(e) => onChange({ ...draft, actionName: e.currentTarget.value })}
            error={errors.actionName?.message}
            withAsterisk
          />
        </SimpleGrid>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Runs
          </Text>
          <SegmentedControl
            aria-label="Action type"
            value={draft.actionType}
            onChange={(v) => onChange({ ...draft, actionType: v as ActionType })}
            data={[
              { value: 'pre', label: 'Pre' },
              { value: 'post', label: 'Post' },
            ]}
            maw={260}
          />
          <Text size="xs" c="dimmed">
            {draft.actionType === 'pre'
              ? 'Runs before the screen shows, e.g. to fetch a balance to display.'
              : 'Runs after the input is accepted, e.g. to make a payment with it.'}
          </Text>
        </Stack>
        <ActionCodeFields action={draft} onChange={(code) => onChange({ ...draft, code } as ActionDraft)} errors={codeErrors} />
        {/* Named for the action, apart from the menu's own Cancel and Save below the form. */}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel action
          </Button>
          <Button onClick={onSubmit}>{editor.mode === 'add' ? 'Save action' : 'Done'}</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** One line about what an action does, for its card. */
export function describeAction(action: Action): string {
  switch (action.inheritsPlugin) {
    case 'restapi':
      return `${action.code.method || '?'} ${action.code.url || '(no URL)'}`;
    case 'dbaccess':
      return `${action.code.dialect} · ${action.code.query.replace(/\s+/g, ' ').slice(0, 80) || '(no query)'}`;
    case 'javascript':
      return (
        action.code
          .split('\n')
          .find((line) => line.trim() !== '')
          ?.trim()
          .slice(0, 80) ?? '(no code)'
      );
    case 'sendsms':
      return `SMS to ${action.code.mobile || '?'}: ${action.code.smsMessage.slice(0, 60)}`;
    case 'paymentprompt':
      return `Charge ${action.code.amount || '?'} from ${action.code.mobile || '?'}`;
    case 'customAction':
      return action.code.actionName || '(no function picked)';
  }
}
