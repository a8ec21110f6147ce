import type { Connection, Edge } from '@xyflow/react';
import { useMemo, useState } from 'react';
import type { Menu } from '../../../../shared/app';
import { showToast } from '../../../lib/toast';
import { parseRuleEdgeId, suggestRule } from '../flow-edits';
import type { RuleRequest } from '../components/flow-rule-dialog';
import type { useFlowEditor } from './use-flow-editor';

type FlowEditor = ReturnType<typeof useFlowEditor>;

/**
 * Rules on the map: a dot dragged to a menu asks for a new rule (the rule dialog), a rule's end dropped on another
 * menu rewires it, and a clicked rule is selected for the rule bar, where it can be deleted.
 */
export function useFlowRules(editor: FlowEditor, menuById: Map<string, Menu>, nameOf: (id: string) => string) {
  const [selectedEdgeId, setSelectedEdgeId] = useState<string | null>(null);
  const [ruleRequest, setRuleRequest] = useState<RuleRequest | null>(null);

  /** A dot dragged to a menu: the rule dialog, prefilled from the option the drag started at. */
  const connect = (connection: Connection) => {
    const from = menuById.get(connection.source);
    const to = menuById.get(connection.target);
    if (!from || !to) {
      showToast({ color: 'yellow', title: 'Not a menu', message: 'Draw a rule from one menu to another menu.' });
      return;
    }
    const option = connection.sourceHandle?.startsWith('opt:') ? connection.sourceHandle.slice(4) : null;
    setRuleRequest({
      fromId: from.uniqueId,
      fromName: nameOf(from.uniqueId),
      toId: to.uniqueId,
      toName: nameOf(to.uniqueId),
      rule: suggestRule(from, option),
      existing: from.switchOperations,
    });
  };

  const saveRule = async (request: RuleRequest): Promise<string | null> => {
    const result = await editor.addRule(request.fromId, request.toId, request.rule);
    if (result.ok) {
      setRuleRequest(null);
      return null;
    }
    return result.errors?.[0]?.message ?? 'The rule was not added.';
  };

  /** A rule's end dropped on another menu. */
  const reconnect = (edge: Edge, connection: Connection) => {
    const rule = parseRuleEdgeId(edge.id);
    const menu = rule && menuById.get(rule.menuId);
    if (!rule || !menu || connection.target === edge.target) return;
    if (!menuById.has(connection.target)) {
      showToast({ color: 'yellow', title: 'Not a menu', message: 'A rule goes to a menu: drop its end on one.' });
      return;
    }
    void editor.rewireRule(menu, rule.index, connection.target);
  };

  const selectedRule = useMemo(() => {
    const parsed = selectedEdgeId ? parseRuleEdgeId(selectedEdgeId) : null;
    const menu = parsed && menuById.get(parsed.menuId);
    const rule = menu?.switchOperations[parsed!.index];
    return menu && rule ? { menu, index: parsed!.index, rule } : null;
  }, [selectedEdgeId, menuById]);

  const deleteSelectedRule = async () => {
    if (!selectedRule) return;
    if (await editor.deleteRule(selectedRule.menu, selectedRule.index)) setSelectedEdgeId(null);
  };

  return {
    selectedEdgeId,
    /** Selects a clicked rule (Back links are not rules: they select nothing); null clears the selection. */
    selectEdge: (edgeId: string | null) => setSelectedEdgeId(edgeId?.startsWith('back:') ? null : edgeId),
    selectedRule,
    deleteSelectedRule,
    ruleRequest,
    cancelRule: () => setRuleRequest(null),
    connect,
    saveRule,
    reconnect,
  };
}

export type SelectedRule = NonNullable<ReturnType<typeof useFlowRules>['selectedRule']>;
