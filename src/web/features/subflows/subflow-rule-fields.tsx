import { Group, Select, Text, TextInput } from '@mantine/core';
import type { RuleSubflow } from '../../../shared/app';
import { useSubflows } from './subflows.api';

interface SubflowRuleFieldsProps {
  /** The rule's 1-based number, for the fields' names. */
  rule: number;
  value: RuleSubflow | undefined;
  onChange: (value: RuleSubflow | undefined) => void;
  disabled?: boolean;
  error?: string;
}

/**
 * A goto rule's "Through a sub-flow" (docs/sub-flows.md): the account's sub-flow the rule enters first, and the
 * templates it passes as the sub-flow's inputs; the rule's target menu is where the sub-flow's Return comes back to.
 */
export function SubflowRuleFields({ rule, value, onChange, disabled, error }: SubflowRuleFieldsProps) {
  const { data: subflows = [], isPending } = useSubflows();
  const chosen = value ? subflows.find((s) => s.id === value.id) : undefined;
  const options = [
    { value: '', label: 'No sub-flow' },
    ...subflows.map((s) => ({ value: s.id, label: s.name })),
    ...(value && !chosen && !isPending ? [{ value: value.id, label: 'A sub-flow that no longer exists' }] : []),
  ];
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" w="100%" data-testid="rule-subflow">
      <Select
        label="Through a sub-flow"
        description="Enter it first; its Return comes back to the target menu"
        aria-label={`Rule ${rule} sub-flow`}
        data={options}
        value={value?.id ?? ''}
        onChange={(id) => onChange(id ? { id, inputs: id === value?.id ? value.inputs : {} } : undefined)}
        allowDeselect={false}
        disabled={disabled}
        error={error}
        style={{ flex: '1 1 240px' }}
      />
      {chosen?.inputs.map((input) => (
        <TextInput
          key={input.name}
          label={input.name}
          description={input.description || undefined}
          aria-label={`Rule ${rule} sub-flow input ${input.name}`}
          placeholder={`{{ session.inputs.${input.name} }}`}
          value={value?.inputs[input.name] ?? ''}
          onChange={(e) => value && onChange({ ...value, inputs: { ...value.inputs, [input.name]: e.currentTarget.value } })}
          disabled={disabled}
          ff="monospace"
          style={{ flex: '1 1 180px' }}
        />
      ))}
      {chosen && chosen.inputs.length === 0 && (
        <Text size="xs" c="dimmed" pb={8}>
          {chosen.name} takes no inputs.
        </Text>
      )}
    </Group>
  );
}
