/**
 * The flow map's graph, pure: one node per menu, an edge per navigation rule, a synthetic End node per menu
 * with Terminate rules, a synthetic 'missing menu' node per unknown goto target, dashed Back edges, and the
 * lint marks (unreachable, broken target). `layoutFlowGraph` places the nodes with dagre.
 */
import { MAX_SCREEN_LIMIT } from '../../../shared/app/app-version.schema';
import { measureScreen, type UssdEncoding } from '../../../shared/ussd-encoding';
import dagre from '@dagrejs/dagre';
import type { LintIssue } from '../../../engine';
import {
  ALWAYS_OPERATOR,
  isBrokenTargetIssue,
  OPERATOR_LABELS,
  type ActionKind,
  type Menu,
  type SwitchOperation,
} from '../../../shared/app';
import { findOptionLabel } from './flow-edits';

/** The lint issue fields the map reads (the engine's LintIssue and the API's LintIssueDto both fit). */
export type FlowLintIssue = Pick<LintIssue, 'level' | 'menuId' | 'field' | 'message' | 'code'>;

export type FlowNodeKind = 'menu' | 'end' | 'missing' | 'subflow';
export type FlowBadge =
  | 'First'
  | 'Terminate'
  | 'Back'
  | 'Unreachable'
  | 'Broken target'
  | 'Loop without end'
  | 'Duplicate rule'
  | 'Over length';

/** The pre-deploy checks' issue codes the map marks on a menu, and the mark each gets. */
const LINT_BADGES = [
  ['unreachable', 'Unreachable'],
  ['no_exit', 'Loop without end'],
  ['duplicate_rule', 'Duplicate rule'],
  ['over_length', 'Over length'],
] as const satisfies readonly (readonly [NonNullable<LintIssue['code']>, FlowBadge])[];

/** Short names of the action kinds for the nodes' action badges. */
export const ACTION_BADGE_KINDS: Record<ActionKind, string> = {
  javascript: 'JS',
  restapi: 'REST',
  dbaccess: 'DB',
  sendsms: 'SMS',
  paymentprompt: 'Pay',
  customAction: 'Fn',
};

export interface FlowActionBadge {
  kind: ActionKind;
  /** 'REST getBalance'. */
  label: string;
  /** Before the screen ('pre') or after the input ('post'). */
  type: 'pre' | 'post';
}

export type FlowNodeData = {
  kind: FlowNodeKind;
  /** The menu identifier, 'End', or the missing id. */
  title: string;
  /** Up to SCREEN_LINES lines of the screen (menus) or the closing text (End). */
  lines: string[];
  badges: FlowBadge[];
  /** The Back indicator when Back is on. */
  backIndicator?: string;
  /** The menu's actions, in order, as small badges. */
  actions: FlowActionBadge[];
  /** The rendered screen's length (menus), for the counter against the app's screen limit: UTF-16 units. */
  screenLength?: number;
  /** The same screen as a USSD network carries it (src/shared/ussd-encoding.ts): its encoding and length there. */
  screenMeasure?: { encoding: UssdEncoding; length: number };
  /** The menu a click opens: the menu itself, the End node's menu, the first menu pointing at a missing one. */
  menuId: string;
  /** A sub-flow box's sub-flow (docs/sub-flows.md): a click opens its own map. */
  subflowId?: string;
  width: number;
  height: number;
};

export interface FlowNode {
  id: string;
  data: FlowNodeData;
}

export type FlowEdgeKind = 'rule' | 'terminate' | 'back' | 'broken';
export interface FlowEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  kind: FlowEdgeKind;
  /** What a screen reader says: "Option 1 'Balance' from home to balance", with identifiers, never ids. */
  description: string;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export const SCREEN_LINES = 4;
const LINE_LENGTH = 34;
export const MENU_NODE_WIDTH = 250;
const SMALL_NODE_WIDTH = 170;

/** Node heights follow their content so a layout never lets boxes overlap: title, lines, action and badge rows. */
function nodeHeight(lineCount: number, hasBadges: boolean, hasActions = false): number {
  return 40 + Math.max(1, lineCount) * 17 + (hasBadges ? 28 : 0) + (hasActions ? 24 : 0);
}

const SYMBOLS: Partial<Record<SwitchOperation['operator'], string>> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  valueIn: 'in',
  valueNotIn: 'not in',
};

/** '= 1', 'in 1,2,3', 'always', 'starts with 07'. */
export function ruleLabel(rule: Pick<SwitchOperation, 'operator' | 'compareVal'>): string {
  if (rule.operator === ALWAYS_OPERATOR) return 'always';
  const op = SYMBOLS[rule.operator] ?? OPERATOR_LABELS[rule.operator] ?? rule.operator;
  return `${op} ${trimText(rule.compareVal, 24)}`.trim();
}

export function trimText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** '1 menu', '3 menus'. */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A screen cut to a few short lines: blank lines dropped, long lines cut, '…' when more follows. */
export function screenLines(screen: string, maxLines = SCREEN_LINES, lineLength = LINE_LENGTH): string[] {
  const lines = screen
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const shown = lines.slice(0, maxLines).map((l) => trimText(l, lineLength));
  if (lines.length > maxLines) shown[maxLines - 1] = `${trimText(lines[maxLines - 1]!, lineLength - 2)} …`;
  return shown;
}

/** A rule in words: "Option 1 'Balance'" when the menu's text offers that option, else 'Always' or "Rule in 2,3". */
export function describeRule(menu: Pick<Menu, 'displayText'>, rule: Pick<SwitchOperation, 'operator' | 'compareVal'>): string {
  if (rule.operator === ALWAYS_OPERATOR) return 'Always';
  const option = rule.operator === 'eq' ? findOptionLabel(menu.displayText, rule.compareVal) : null;
  return option ? `Option ${rule.compareVal.trim()} '${trimText(option, 30)}'` : `Rule ${ruleLabel(rule)}`;
}

const rawScreen = (m: Menu) => [m.headerText, m.displayText, m.footerText].filter((t) => t.trim() !== '').join('\n');

const hasBack = (m: Menu) => m.allowGoBack && !m.terminate;

export const endNodeId = (menuId: string) => `end:${menuId}`;
export const subflowNodeId = (menuId: string, rule: number) => `subflow:${menuId}:${rule}`;

/** What the map shows of the account's sub-flows: a name and its menu count, by id; null while they are read. */
export type FlowSubflows = ReadonlyMap<string, { name: string; menus: number }> | null;
export const missingNodeId = (target: string) => `missing:${target}`;

/**
 * @param screenOf the screen text of a menu (rendered with sample values); the raw texts when absent.
 * @example buildFlowGraph(menus, lintApp(version)).edges.map((e) => e.label) // ['= 1', 'always', ...]
 */
/** A screen's USSD encoding and length (the limit is the app's: the counter applies it). */
function measureOf(screen: string): { encoding: UssdEncoding; length: number } {
  const { encoding, length } = measureScreen(screen, MAX_SCREEN_LIMIT);
  return { encoding, length };
}

export function buildFlowGraph(
  menus: Menu[],
  lintIssues: FlowLintIssue[],
  screenOf: (menu: Menu) => string = rawScreen,
  subflows: FlowSubflows = new Map(),
): FlowGraph {
  const byId = new Map(menus.map((m) => [m.uniqueId, m]));
  const marked = new Map(
    LINT_BADGES.map(([code]) => [code, new Set(lintIssues.filter((i) => i.menuId && i.code === code).map((i) => i.menuId!))]),
  );
  const broken = new Set(lintIssues.filter((i) => i.menuId && isBrokenTargetIssue(i)).map((i) => i.menuId!));

  const edges: FlowEdge[] = [];
  const endNodes: FlowNode[] = [];
  const subflowNodes: FlowNode[] = [];
  const missing = new Map<string, FlowNode>();
  /** target uniqueId -> menus with a goto to it, for the Back edges. */
  const leadsTo = new Map<string, Set<string>>();

  const nameOf = (m: Menu) => m.userDefinedName || m.uniqueId;
  for (const m of menus) {
    const closings: string[] = [];
    m.switchOperations.forEach((rule, i) => {
      const id = `rule:${m.uniqueId}:${i}`;
      const condition = ruleLabel(rule);
      const from = `${describeRule(m, rule)} from ${nameOf(m)}`;
      if (rule.action === 'Terminate') {
        const closing = rule.actionParam.trim() ? trimText(rule.actionParam, 28) : 'end';
        closings.push(closing);
        edges.push({
          id,
          source: m.uniqueId,
          target: endNodeId(m.uniqueId),
          label: `${condition} → ${closing}`,
          kind: 'terminate',
          description: `${from} ends the session${closing === 'end' ? '' : `: ${closing}`}`,
        });
        return;
      }
      const target = rule.actionParam.trim();
      const targetMenu = byId.get(target);
      if (targetMenu && rule.subflow) {
        // A rule through a sub-flow: a collapsed box of the sub-flow between the menu and where it returns.
        const box = subflowNodeId(m.uniqueId, i);
        const known = subflows?.get(rule.subflow.id);
        // While the account's sub-flows are read, a box is a sub-flow not yet named, not a missing one.
        const isMissing = subflows !== null && !known;
        const name = known?.name ?? (isMissing ? 'Missing sub-flow' : 'Sub-flow');
        const lines = [known ? `Sub-flow · ${countOf(known.menus, 'menu')}` : isMissing ? `id ${trimText(rule.subflow.id, 26)}` : '…'];
        const inputs = Object.keys(rule.subflow.inputs);
        if (inputs.length > 0) lines.push(trimText(`in: ${inputs.join(', ')}`, 26));
        subflowNodes.push({
          id: box,
          data: {
            kind: 'subflow',
            title: name,
            lines,
            badges: isMissing ? ['Broken target'] : [],
            actions: [],
            menuId: m.uniqueId,
            subflowId: rule.subflow.id,
            width: SMALL_NODE_WIDTH,
            height: nodeHeight(lines.length, isMissing),
          },
        });
        edges.push({
          id,
          source: m.uniqueId,
          target: box,
          label: condition,
          kind: isMissing ? 'broken' : 'rule',
          description: `${from} through the sub-flow ${name}`,
        });
        edges.push({
          id: `${id}:return`,
          source: box,
          target,
          label: 'returns',
          kind: 'rule',
          description: `The sub-flow ${name} returns to ${nameOf(targetMenu)}`,
        });
        if (target !== m.uniqueId) {
          if (!leadsTo.has(target)) leadsTo.set(target, new Set());
          leadsTo.get(target)!.add(m.uniqueId);
        }
        return;
      }
      if (targetMenu) {
        edges.push({ id, source: m.uniqueId, target, label: condition, kind: 'rule', description: `${from} to ${nameOf(targetMenu)}` });
        if (target !== m.uniqueId) {
          if (!leadsTo.has(target)) leadsTo.set(target, new Set());
          leadsTo.get(target)!.add(m.uniqueId);
        }
        return;
      }
      broken.add(m.uniqueId);
      const nodeId = missingNodeId(target);
      if (!missing.has(target)) {
        const lines = [target ? `id ${trimText(target, 26)}` : 'no target chosen'];
        missing.set(target, {
          id: nodeId,
          data: {
            kind: 'missing',
            title: 'Missing menu',
            lines,
            badges: [],
            actions: [],
            menuId: m.uniqueId,
            width: SMALL_NODE_WIDTH,
            height: nodeHeight(1, false),
          },
        });
      }
      edges.push({ id, source: m.uniqueId, target: nodeId, label: condition, kind: 'broken', description: `${from} to a missing menu` });
    });
    if (closings.length > 0) {
      const lines = screenLines(closings.join('\n'), 2, 24);
      endNodes.push({
        id: endNodeId(m.uniqueId),
        data: {
          kind: 'end',
          title: 'End',
          lines,
          badges: [],
          actions: [],
          menuId: m.uniqueId,
          width: SMALL_NODE_WIDTH,
          height: nodeHeight(lines.length, false),
        },
      });
    }
  }

  // Back goes to the menu the caller came from: any menu with a goto to this one. A terminating menu ends
  // the session on its screen, so it has no Back whatever its stored flag says (menus saved before it was cleared).
  for (const m of menus) {
    if (!hasBack(m)) continue;
    for (const from of leadsTo.get(m.uniqueId) ?? []) {
      edges.push({
        id: `back:${m.uniqueId}:${from}`,
        source: m.uniqueId,
        target: from,
        label: `back ${m.goBackInputIndicator}`.trim(),
        kind: 'back',
        description: `Back${m.goBackInputIndicator ? ` (${m.goBackInputIndicator})` : ''} from ${nameOf(m)} to ${nameOf(byId.get(from)!)}`,
      });
    }
  }

  const menuNodes: FlowNode[] = menus.map((m) => {
    const badges: FlowBadge[] = [];
    if (m.isFirst) badges.push('First');
    if (m.terminate) badges.push('Terminate');
    if (hasBack(m)) badges.push('Back');
    for (const [code, badge] of LINT_BADGES) if (marked.get(code)!.has(m.uniqueId)) badges.push(badge);
    if (broken.has(m.uniqueId)) badges.push('Broken target');
    let screen: string;
    try {
      screen = screenOf(m);
    } catch {
      screen = rawScreen(m);
    }
    let lines = screenLines(screen);
    if (lines.length === 0) lines = ['(no text)'];
    const actions = m.actions.map((a) => ({
      kind: a.inheritsPlugin,
      label: trimText(`${ACTION_BADGE_KINDS[a.inheritsPlugin]} ${a.actionName}`, 22),
      type: a.actionType,
    }));
    return {
      id: m.uniqueId,
      data: {
        kind: 'menu',
        title: m.userDefinedName || m.uniqueId,
        lines,
        badges,
        ...(hasBack(m) ? { backIndicator: m.goBackInputIndicator } : {}),
        actions,
        screenLength: screen.length,
        screenMeasure: measureOf(screen),
        menuId: m.uniqueId,
        width: MENU_NODE_WIDTH,
        height: nodeHeight(lines.length, badges.length > 0, actions.length > 0),
      },
    };
  });

  return { nodes: [...menuNodes, ...endNodes, ...subflowNodes, ...missing.values()], edges };
}

export type FlowDirection = 'TB' | 'LR';

export interface PositionedNode extends FlowNode {
  /** Top-left corner, as React Flow places nodes. */
  position: { x: number; y: number };
}

/**
 * Places the nodes with dagre. Back edges are left out of the ranking (they point up the flow and would
 * otherwise pull menus out of their reading order); edge labels get room between the ranks.
 */
/** Room between boxes side by side; a rule's label may use most of it (FlowRuleEdge). */
export const NODE_GAP = 36;

export function layoutFlowGraph(graph: FlowGraph, direction: FlowDirection = 'TB'): PositionedNode[] {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: direction, nodesep: NODE_GAP, ranksep: direction === 'TB' ? 90 : 120, edgesep: 16, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: n.data.width, height: n.data.height });
  for (const e of graph.edges) {
    if (e.kind === 'back' || e.source === e.target) continue;
    g.setEdge(e.source, e.target, { width: Math.min(160, e.label.length * 7), height: 18, labelpos: 'c' }, e.id);
  }
  dagre.layout(g);
  return graph.nodes.map((n) => {
    const p = g.node(n.id) as { x: number; y: number };
    return { ...n, position: { x: p.x - n.data.width / 2, y: p.y - n.data.height / 2 } };
  });
}
