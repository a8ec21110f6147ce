import { ActionIcon, Alert, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { subflowBodySchema, type Subflow } from '../../../shared/api/subflows.schema';
import { DialogActions } from '../../components/dialog-actions';
import { failureText } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { useSaveSubflow } from './subflows.api';
import { RowList } from '../../components/row-list';

interface SubflowDialogProps {
  /** The sub-flow to change, or null to create one. */
  subflow: Subflow | null;
  opened: boolean;
  onClose: () => void;
  onCreated?: (id: string) => void;
}

interface Row {
  name: string;
  description: string;
  value: string;
}

const toRows = (items: ReadonlyArray<{ name: string; description?: string; value?: string }>): Row[] =>
  items.map((i) => ({ name: i.name, description: i.description ?? '', value: i.value ?? '' }));

/** Creates a sub-flow or changes one: its name, description, the inputs it takes and the outputs it gives back. */
export function SubflowDialog({ subflow, opened, onClose, onCreated }: SubflowDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={subflow ? `Edit ${subflow.name}` : 'New sub-flow'} centered size="lg">
      {opened && <SubflowForm subflow={subflow} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function SubflowForm({ subflow, onClose, onCreated }: Omit<SubflowDialogProps, 'opened'>) {
  const [name, setName] = useState(subflow?.name ?? '');
  const [description, setDescription] = useState(subflow?.description ?? '');
  const [inputs, setInputs] = useState<Row[]>(toRows(subflow?.inputs ?? []));
  const [outputs, setOutputs] = useState<Row[]>(toRows(subflow?.outputs ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState('');
  const save = useSaveSubflow();
  /** A field's error goes once the field is changed (the next submit checks again). */
  const forget = (key: string) =>
    setErrors((current) => {
      if (!(key in current)) return current;
      const { [key]: _gone, ...rest } = current;
      return rest;
    });

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    const body = {
      name,
      description,
      inputs: inputs.map((i) => ({ name: i.name, description: i.description })),
      outputs: outputs.map((o) => ({ name: o.name, value: o.value, description: o.description })),
    };
    const checked = subflowBodySchema.safeParse(body);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message])));
      return;
    }
    setErrors({});
    const reply = await save.mutateAsync({ subflowId: subflow?.id, body });
    if (reply.status !== '00') {
      setRefusal(failureText(reply, 'The sub-flow was not saved.'));
      return;
    }
    showToast({ color: 'teal', title: 'Saved', message: reply.message || 'Sub-flow saved' });
    onClose();
    if (!subflow && reply.data) onCreated?.(reply.data.id);
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label={subflow ? 'Edit sub-flow' : 'New sub-flow'}>
      <Stack gap="md">
        {refusal && (
          <Alert color="red" variant="light" role="alert">
            {refusal}
          </Alert>
        )}
        <TextInput
          label="Name"
          placeholder="e.g. PIN check"
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            forget('name');
          }}
          error={errors.name}
          data-autofocus
          required
        />
        <Textarea
          label="Description"
          placeholder="What it does, for whoever builds with it (optional)"
          minRows={2}
          value={description}
          onChange={(e) => {
            setDescription(e.currentTarget.value);
            forget('description');
          }}
          error={errors.description}
        />
        <VariableRows
          title="Inputs"
          hint="What an app passes in: each is session.vars.<name> inside the sub-flow."
          rows={inputs}
          setRows={setInputs}
          errors={errors}
          onEdited={forget}
          path="inputs"
        />
        <VariableRows
          title="Outputs"
          hint="What it gives back on Return: session.vars.<name> in the app after it."
          rows={outputs}
          setRows={setOutputs}
          errors={errors}
          onEdited={forget}
          path="outputs"
          hasValue
        />
        <DialogActions submitLabel={subflow ? 'Save' : 'Create sub-flow'} onCancel={onClose} isSubmitting={save.isPending} mt="xs" />
      </Stack>
    </form>
  );
}

function VariableRows({
  title,
  hint,
  rows,
  setRows,
  errors,
  onEdited,
  path,
  hasValue = false,
}: {
  title: string;
  hint: string;
  rows: Row[];
  setRows: (rows: Row[]) => void;
  errors: Record<string, string>;
  /** Told the error key of each field changed (`outputs.0.name`). */
  onEdited: (key: string) => void;
  path: string;
  hasValue?: boolean;
}) {
  const change = (index: number, patch: Partial<Row>) => {
    setRows(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
    for (const field of Object.keys(patch)) onEdited(`${path}.${index}.${field}`);
  };
  const noun = title.toLowerCase().slice(0, -1);
  return (
    <RowList
      title={title}
      description={hint}
      addLabel={`Add ${noun}`}
      onAdd={() => setRows([...rows, { name: '', description: '', value: '' }])}
      isAddDisabled={rows.length >= 20}
      emptyText={`No ${title.toLowerCase()}.`}
      isEmpty={rows.length === 0}
    >
      {rows.map((row, i) => (
        <Group key={i} gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            aria-label={`${title} ${i + 1} name`}
            placeholder="name"
            value={row.name}
            onChange={(e) => change(i, { name: e.currentTarget.value })}
            error={errors[`${path}.${i}.name`]}
            ff="monospace"
            w={{ base: '100%', xs: 160 }}
          />
          {hasValue && (
            <TextInput
              aria-label={`${title} ${i + 1} value`}
              placeholder="{{ session.inputs.pin }}"
              value={row.value}
              onChange={(e) => change(i, { value: e.currentTarget.value })}
              error={errors[`${path}.${i}.value`]}
              ff="monospace"
              style={{ flex: '2 1 200px' }}
            />
          )}
          <TextInput
            aria-label={`${title} ${i + 1} description`}
            placeholder="description (optional)"
            value={row.description}
            onChange={(e) => change(i, { description: e.currentTarget.value })}
            style={{ flex: '1 1 160px' }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${noun} ${i + 1}`}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
            mt={6}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </RowList>
  );
}
