import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ALWAYS_OPERATOR, NAVIGATION_OPERATORS, OPERATOR_LABELS, type SwitchOperator } from '../../../../shared/app';
import type { RuleDraft } from '../flow-edits';

const OPERATOR_OPTIONS = [
  ...NAVIGATION_OPERATORS.map((op) => ({ value: op, label: OPERATOR_LABELS[op] })),
  { value: ALWAYS_OPERATOR, label: OPERATOR_LABELS.always },
];

export interface RuleRequest {
  fromId: string;
  fromName: string;
  toId: string;
  toName: string;
  rule: RuleDraft;
  /** The menu's rules now, to say when the new one repeats a condition. */
  existing: readonly RuleDraft[];
}

interface FlowRuleDialogProps {
  request: RuleRequest | null;
  onCancel: () => void;
  /** Saves the rule; resolves to the server's message when it refuses it (the dialog stays open). */
  onSave: (request: RuleRequest) => Promise<string | null>;
}

/** The rule a drag from one menu to another makes: its condition, prefilled from the option, editable. */
export function FlowRuleDialog({ request, onCancel, onSave }: FlowRuleDialogProps) {
  return (
    <Modal opened={!!request} onClose={onCancel} title="New navigation rule" centered>
      {request && <RuleForm key={`${request.fromId}>${request.toId}`} request={request} onCancel={onCancel} onSave={onSave} />}
    </Modal>
  );
}

function RuleForm({ request, onCancel, onSave }: { request: RuleRequest } & Omit<FlowRuleDialogProps, 'request'>) {
  const [operator, setOperator] = useState<SwitchOperator>(request.rule.operator);
  const [compareVal, setCompareVal] = useState(request.rule.compareVal);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const isAlways = operator === ALWAYS_OPERATOR;
  const same = request.existing.findIndex((r) => r.operator === operator && (isAlways || r.compareVal.trim() === compareVal.trim()));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!isAlways && compareVal.trim() === '') {
      setError('Enter the value the input is compared with.');
      return;
    }
    setSaving(true);
    const refused = await onSave({ ...request, rule: { operator, compareVal: isAlways ? '' : compareVal } });
    setSaving(false);
    setError(refused);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          When the input on <b>{request.fromName}</b> matches, go to <b>{request.toName}</b>.
        </Text>
        <Group grow align="flex-start">
          <Select
            label="Operator"
            data={OPERATOR_OPTIONS}
            value={operator}
            onChange={(v) => v && setOperator(v as SwitchOperator)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          {!isAlways && (
            <TextInput label="Compare value" value={compareVal} onChange={(e) => setCompareVal(e.currentTarget.value)} data-autofocus />
          )}
        </Group>
        {isAlways && (
          <Text size="xs" c="dimmed">
            Always: any input goes to {request.toName}; rules before it are tried first.
          </Text>
        )}
        {same >= 0 && (
          <Alert color="yellow" variant="light" data-testid="flow-rule-duplicate">
            Rule {same + 1} of {request.fromName} has the same condition and is tried first: this rule would never run.
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" data-testid="flow-rule-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={isSaving}>
            Add rule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
