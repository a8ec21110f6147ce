import { toUcs2Limit } from '../../../../shared/ussd-encoding';
import { designScreenLimit, GATEWAY_PROFILES } from '../../../../shared/gateway-profiles';
import type { App } from '../../../../shared/api/apps.schema';
import { MarkerType, type Edge } from '@xyflow/react';
import { useMemo } from 'react';
import { compileApp, previewMenu } from '../../../../engine';
import type { AppVersion, Menu } from '../../../../shared/app';
import { findSampleInputs } from '../../menus/menu-screen-preview';
import type { useAppMenus } from '../../menus/use-app-menus';
import { toDraftVersion } from '../../menus/use-menus';
import { useSubflows } from '../../subflows/subflows.api';
import type { RuleEdgeData } from '../components/flow-edge';
import {
  buildFlowGraph,
  type FlowSubflows,
  layoutFlowGraph,
  NODE_GAP,
  type FlowDirection,
  type FlowEdge,
  type FlowGraph,
  type FlowNodeData,
} from '../flow-graph';
import { EDGE_COLORS, RULE_IN, RULE_OUT, type MapNode } from '../components/flow-node';

type AppMenus = ReturnType<typeof useAppMenus>;

/** How far into the gap beside a box a rule's label may reach: the gap less the label's distance from its line. */
const LABEL_GAP = NODE_GAP - 14;

/** Each menu's screen rendered by the engine with sample values (`<name>` for each session.inputs.name). */
function renderScreens(version: AppVersion): (menu: Menu) => string {
  // Whole screens: no limit, and no gateway to narrow it (getScreenLimit).
  const { gatewayConnections: _narrowing, ...whole } = version;
  const compiled = compileApp({ ...whole, screenLimit: Number.MAX_SAFE_INTEGER });
  return (menu) => {
    const names = findSampleInputs([menu.headerText, menu.displayText, menu.footerText]);
    const inputs = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
    const result = previewMenu(compiled, menu.uniqueId, { inputs, mobile: '233244000111', network: 'MTN' });
    if (!result.ok) throw new Error(result.error);
    return result.pages.join('\n');
  };
}

/** A rule's arrow as React Flow draws it; `slot` is its label's row beside the box it arrives at (FlowRuleEdge). */
function toMapEdge(e: FlowEdge, direction: FlowDirection, isEditable: boolean, slot: number, targetWidth: number): Edge {
  const color = EDGE_COLORS[e.kind];
  return {
    id: e.id,
    source: e.source,
    target: e.target,
    ...(e.kind === 'back' ? { sourceHandle: 'back-out', targetHandle: 'back-in' } : { sourceHandle: RULE_OUT, targetHandle: RULE_IN }),
    label: e.label,
    ariaLabel: e.description,
    type: e.kind === 'back' ? 'default' : 'rule',
    ...(e.kind === 'back' ? {} : { data: { direction, slot, room: targetWidth / 2 + LABEL_GAP } satisfies RuleEdgeData }),
    className: `flow-edge-${e.kind}`,
    style: { stroke: color, strokeWidth: e.kind === 'back' ? 1.2 : 1.6, ...(e.kind === 'back' ? { strokeDasharray: '6 4' } : {}) },
    markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
    labelStyle: { fontSize: 11, fill: e.kind === 'back' ? EDGE_COLORS.back : 'var(--mantine-color-text)' },
    labelBgStyle: { fill: 'var(--mantine-color-body)', fillOpacity: 0.9 },
    labelBgPadding: [4, 2] as [number, number],
    labelBgBorderRadius: 4,
    focusable: false,
    // A goto's end can be dragged to another menu; Terminate and Back edges stay.
    reconnectable: isEditable && (e.kind === 'rule' || e.kind === 'broken') ? 'target' : false,
    selectable: isEditable && e.kind !== 'back',
    interactionWidth: 16,
  };
}

/** What the toolbar's summary counts. */
export interface FlowCounts {
  menus: number;
  rules: number;
  back: number;
  unreachable: number;
  broken: number;
}

/**
 * The draft as a laid-out graph: boxes with their screens and lint marks, and arrows. It runs again only when the
 * menus, the direction or the screen width change; dragged boxes, rings and the path are applied after it
 * (useFlowDecorations), so they never rerun the layout.
 */
export function useFlowLayout(appId: string, data: AppMenus, direction: FlowDirection, isEditable: boolean) {
  const { app, menus, lintIssues } = data;
  // The account's sub-flows name the boxes of rules that go through one (read only when a rule does).
  const entersSubflow = menus.some((m) => m.switchOperations.some((r) => r.subflow));
  const { data: subflowList } = useSubflows(entersSubflow);
  const subflows: FlowSubflows = useMemo(
    // Not read yet (or not readable): null, so no box is called missing for it.
    () => (subflowList ? new Map(subflowList.map((sf) => [sf.id, { name: sf.name, menus: sf.menus }])) : null),
    [subflowList],
  );

  const graph: FlowGraph | null = useMemo(() => {
    if (menus.length === 0) return null;
    const version = toDraftVersion(appId, app, menus);
    let screenOf: ((m: Menu) => string) | undefined;
    try {
      screenOf = renderScreens(version);
    } catch {
      // A draft the engine cannot compile still shows, with raw texts (and no lint marks: lintDraft gives none).
    }
    return buildFlowGraph(menus, lintIssues, screenOf, subflows);
  }, [menus, app, appId, lintIssues, subflows]);

  const { nodes, edges } = useMemo(() => {
    if (!graph) return { nodes: [] as MapNode[], edges: [] as Edge[] };
    const placed = layoutFlowGraph(graph, direction);
    const nodes: MapNode[] = placed.map((n) => ({
      id: n.id,
      type: 'flow',
      position: n.position,
      data: { ...n.data, direction, isEditable, ...toCounter(n.data, app) },
      width: n.data.width,
      height: n.data.height,
      draggable: true,
      connectable: isEditable && n.data.kind === 'menu',
    }));
    // Labels arriving at the same box each get a row of their own beside its line (FlowRuleEdge).
    const arriving = new Map<string, number>();
    const widthOf = new Map(graph.nodes.map((n) => [n.id, n.data.width]));
    const edges: Edge[] = graph.edges.map((e) => {
      const slot = e.kind === 'back' ? 0 : (arriving.get(e.target) ?? 0);
      if (e.kind !== 'back') arriving.set(e.target, slot + 1);
      return toMapEdge(e, direction, isEditable, slot, widthOf.get(e.target) ?? 0);
    });
    return { nodes, edges };
  }, [graph, direction, isEditable, app]);

  const counts: FlowCounts = useMemo(() => {
    const list = graph?.edges ?? [];
    return {
      menus: menus.length,
      rules: list.filter((e) => e.kind !== 'back').length,
      back: list.filter((e) => e.kind === 'back').length,
      unreachable: graph?.nodes.filter((n) => n.data.badges.includes('Unreachable')).length ?? 0,
      broken: graph?.nodes.filter((n) => n.data.badges.includes('Broken target')).length ?? 0,
    };
  }, [graph, menus]);

  return { nodes, edges, counts };
}

/**
 * A box's counter: on USSD the screen as the network carries it against the limit of its encoding (a UCS-2 screen
 * holds 70 of a 160 limit), the app's limit narrowed by the strictest gateway it is connected to (named); in a bot
 * the message's length against the app's limit.
 */
function toCounter(data: FlowNodeData, app: Pick<App, 'screenLimit' | 'channel' | 'gatewayConnections'> | undefined | null) {
  if (!app) return {};
  if (app.channel === 'whatsapp' || !data.screenMeasure) return { screenLimit: app.screenLimit };
  const { limit, gateway } = designScreenLimit(app.screenLimit, app.gatewayConnections);
  const ucs2 = data.screenMeasure.encoding === 'UCS-2';
  return {
    screenLength: data.screenMeasure.length,
    screenLimit: ucs2 ? toUcs2Limit(limit) : limit,
    ...(gateway ? { screenGateway: `${GATEWAY_PROFILES[gateway].label} carries ${limit}` } : {}),
  };
}
