import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { ACTION_KIND_LABELS, createActionDraft } from '../../../shared/app';
import { ActionEditForm, describeAction, type ActionEditor } from './action-edit-form';
import { createActionId, errorsUnder, type ActionDraft, type FormErrors, type MenuFormValues } from './menu-form-state';
import { MenuRowButton, MenuRowMoveButtons, MenuRowRemoveButton, moveItem, removeItem } from './menu-row-buttons';
import { RowList } from '../../components/row-list';

interface MenuActionsTabProps {
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  errors: FormErrors;
  editor: ActionEditor;
  setEditor: (editor: ActionEditor) => void;
  /** The action's problems (keys under `actions.N`) if `actions` were saved as they are. */
  checkAction: (actions: ActionDraft[], index: number) => FormErrors;
}

function newAction(): ActionDraft {
  const id = createActionId();
  return { ...createActionDraft(), id, key: id };
}

/** Actions tab: the ordered actions; add at a position (Save), edit ('Done'), reorder, delete. */
export function MenuActionsTab({ values, set, errors, editor, setEditor, checkAction }: MenuActionsTabProps) {
  const actions = values.actions;
  const isBusy = editor.mode !== 'idle';
  const startAdd = (at: number) => setEditor({ mode: 'add', at, draft: newAction(), errors: {} });

  const submit = () => {
    if (editor.mode === 'idle') return;
    const next =
      editor.mode === 'add'
        ? [...actions.slice(0, editor.at), editor.draft, ...actions.slice(editor.at)]
        : actions.map((a, i) => (i === editor.index ? editor.draft : a));
    const index = editor.mode === 'add' ? editor.at : editor.index;
    const problems = checkAction(next, index);
    if (Object.keys(problems).length > 0) {
      setEditor({ ...editor, errors: problems });
      return;
    }
    set({ actions: next });
    setEditor({ mode: 'idle' });
  };
  const move = (index: number, by: number) => set({ actions: moveItem(actions, index, by) });

  const form =
    editor.mode === 'idle' ? null : (
      <ActionEditForm
        editor={editor}
        onChange={(draft) => setEditor({ ...editor, draft, errors: clearChangedErrors(editor.errors, editor.draft, draft) })}
        onSubmit={submit}
        onCancel={() => setEditor({ mode: 'idle' })}
      />
    );

  return (
    <RowList
      title="Actions"
      description="Pre actions run before the screen shows, post actions after the input is accepted, in this order."
      addLabel="Add action"
      onAdd={() => startAdd(actions.length)}
      isAddDisabled={isBusy}
      emptyText="No actions. Add one to call an API, query a database, run a script, send an SMS or ask for a payment."
      isEmpty={actions.length === 0 && editor.mode === 'idle'}
    >
      {actions.map((action, i) => {
        const problems = errorsUnder(errors, `actions.${i}`);
        const hasProblems = Object.keys(problems).length > 0;
        return (
          <Stack key={action.key} gap="sm">
            {editor.mode === 'add' && editor.at === i && form}
            {editor.mode === 'edit' && editor.index === i ? (
              form
            ) : (
              <Paper
                withBorder
                radius="md"
                p="sm"
                data-testid="action-card"
                style={hasProblems ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text fw={600} size="sm">
                        {i + 1}. {action.actionName || '(no name)'}
                      </Text>
                      <Badge size="xs" variant="light">
                        {ACTION_KIND_LABELS[action.inheritsPlugin]}
                      </Badge>
                      <Badge size="xs" variant="outline" color={action.actionType === 'pre' ? 'indigo' : 'gray'}>
                        {action.actionType}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed" ff="monospace" truncate="end">
                      {describeAction(action)}
                    </Text>
                    {hasProblems && (
                      <Text size="xs" c="red.8">
                        {problems['']?.message ?? Object.values(problems)[0]!.message} Edit the action to fix it.
                      </Text>
                    )}
                  </Stack>
                  <Group gap={2} wrap="nowrap">
                    <MenuRowButton
                      tooltip="Insert an action after this one"
                      label={`Insert action after ${action.actionName}`}
                      color="teal"
                      disabled={isBusy}
                      onClick={() => startAdd(i + 1)}
                    >
                      <IconPlus size={16} />
                    </MenuRowButton>
                    <MenuRowMoveButtons
                      name={action.actionName}
                      index={i}
                      count={actions.length}
                      disabled={isBusy}
                      onMove={(by) => move(i, by)}
                    />
                    <MenuRowButton
                      tooltip="Edit"
                      label={`Edit action ${action.actionName}`}
                      disabled={isBusy}
                      onClick={() => setEditor({ mode: 'edit', index: i, draft: action, errors: problems })}
                    >
                      <IconPencil size={16} />
                    </MenuRowButton>
                    <MenuRowRemoveButton
                      tooltip="Delete"
                      label={`Delete action ${action.actionName}`}
                      disabled={isBusy}
                      onClick={() => set({ actions: removeItem(actions, i) })}
                    />
                  </Group>
                </Group>
              </Paper>
            )}
          </Stack>
        );
      })}
      {editor.mode === 'add' && editor.at >= actions.length && form}
    </RowList>
  );
}

/** An edited field's error goes; the plugin error goes with the last field error. */
function clearChangedErrors(errors: FormErrors, before: ActionDraft, after: ActionDraft): FormErrors {
  if (before.inheritsPlugin !== after.inheritsPlugin) return {};
  const out: FormErrors = {};
  for (const [field, error] of Object.entries(errors)) {
    if (field === 'actionName' && before.actionName !== after.actionName) continue;
    if (field.startsWith('code') && JSON.stringify(before.code) !== JSON.stringify(after.code)) {
      const name = field.slice(5);
      const changed = name === '' || (before.code as Record<string, unknown>)[name] !== (after.code as Record<string, unknown>)[name];
      if (changed) continue;
    }
    out[field] = error;
  }
  if (Object.keys(out).length === 1 && out['']) return {};
  return out;
}
