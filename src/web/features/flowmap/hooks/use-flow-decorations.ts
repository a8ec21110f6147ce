import { MarkerType, type Edge } from '@xyflow/react';
import { useMemo, useState } from 'react';
import { PATH_COLOR, type MapNode } from '../components/flow-node';
import type { XY } from './use-flow-positions';
import type { OnPath } from './use-session-path';
import { centreOnNode, type FlowInstance } from './use-flow-viewport';

interface FlowDecorationsOptions {
  nodes: MapNode[];
  edges: Edge[];
  /** Boxes placed by hand, which stand there instead of where the layout put them. */
  movedAt: Record<string, XY>;
  onPath: OnPath;
  showBack: boolean;
  selectedEdgeId: string | null;
  flow: FlowInstance | null;
}

/** The steps a session was shown one of the sub-flow's menus (`<sub-flow id>/<menu id>`, docs/sub-flows.md): its box's. */
function findStepsInSubflow(onPath: OnPath, subflowId: string): number[] | undefined {
  const steps = [...onPath.steps].filter(([menuId]) => menuId.startsWith(`${subflowId}/`)).flatMap(([, s]) => s);
  return steps.length > 0 ? steps.sort((a, b) => a - b) : undefined;
}

/** A rule taken, or a sub-flow's way back (`<rule>:return`) when its rule was taken and the menu it returns to shown. */
function isOnPath(onPath: OnPath, edge: Edge): boolean {
  if (onPath.rules.has(edge.id)) return true;
  return edge.id.endsWith(':return') && onPath.rules.has(edge.id.slice(0, -':return'.length)) && onPath.steps.has(edge.target);
}

/**
 * The laid-out graph as drawn: dragged boxes where they were dropped, the found menu ringed, the session path's
 * steps numbered and its rules thick, the selected rule blue, Back links shown or not. These change only their own
 * nodes and edges: the layout is not run again for them.
 */
export function useFlowDecorations({ nodes, edges, movedAt, onPath, showBack, selectedEdgeId, flow }: FlowDecorationsOptions) {
  const [foundId, setFoundId] = useState<string | null>(null);

  const shownNodes = useMemo(
    () =>
      nodes.map((n) => {
        const at = movedAt[n.id];
        const isFound = n.id === foundId;
        const pathSteps =
          n.data.kind === 'menu'
            ? onPath.steps.get(n.id)
            : n.data.kind === 'subflow' && n.data.subflowId
              ? findStepsInSubflow(onPath, n.data.subflowId)
              : undefined;
        if (!at && !isFound && !pathSteps) return n;
        return {
          ...n,
          ...(at ? { position: at } : {}),
          data: { ...n.data, ...(isFound ? { isFound } : {}), ...(pathSteps ? { pathSteps } : {}) },
        };
      }),
    [nodes, movedAt, foundId, onPath],
  );
  const shownEdges = useMemo(
    () =>
      (showBack ? edges : edges.filter((e) => !e.id.startsWith('back:'))).map((e) =>
        e.id === selectedEdgeId
          ? { ...e, selected: true, style: { ...e.style, stroke: 'var(--mantine-color-blue-6)', strokeWidth: 3 } }
          : isOnPath(onPath, e)
            ? {
                ...e,
                animated: true,
                zIndex: 1,
                className: `${e.className} flow-edge-on-path`,
                style: { ...e.style, stroke: PATH_COLOR, strokeWidth: 3 },
                markerEnd: { type: MarkerType.ArrowClosed, color: PATH_COLOR, width: 16, height: 16 },
              }
            : e,
      ),
    [edges, showBack, selectedEdgeId, onPath],
  );

  /** "Find a menu": the map centres on it at a readable zoom and rings it. */
  function findMenu(menuId: string | null) {
    setFoundId(menuId);
    const node = menuId ? shownNodes.find((n) => n.id === menuId) : undefined;
    if (node && flow) void centreOnNode(flow, node, 1, 300);
  }

  return { nodes: shownNodes, edges: shownEdges, foundId, findMenu };
}
