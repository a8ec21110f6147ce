import { Button, Group, Paper, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Panel } from '@xyflow/react';
import { ruleLabel } from '../flow-graph';
import type { SelectedRule } from '../hooks/use-flow-rules';

interface FlowRuleBarProps {
  selected: SelectedRule;
  nameOf: (menuId: string) => string;
  isBusy: boolean;
  onEditRules: () => void;
  onDelete: () => void;
}

/** The bar over the map for the rule clicked: which it is, Edit rules (its menu's Navigation tab) and Delete rule. */
export function FlowRuleBar({ selected, nameOf, isBusy, onEditRules, onDelete }: FlowRuleBarProps) {
  return (
    <Panel position="top-center">
      <Paper withBorder shadow="sm" radius="md" px="sm" py={6} data-testid="flow-rule-bar">
        <Group gap="sm">
          <Text size="sm">
            <b>{nameOf(selected.menu.uniqueId)}</b> rule {selected.index + 1}: {ruleLabel(selected.rule)}
            {selected.rule.action === 'goto' ? ` → ${nameOf(selected.rule.actionParam)}` : ' → end'}
          </Text>
          <Button size="compact-sm" variant="default" onClick={onEditRules}>
            Edit rules
          </Button>
          <Button size="compact-sm" color="red" variant="light" leftSection={<IconTrash size={14} />} onClick={onDelete} disabled={isBusy}>
            Delete rule
          </Button>
        </Group>
      </Paper>
    </Panel>
  );
}
