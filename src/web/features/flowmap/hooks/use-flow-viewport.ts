import type { Edge, ReactFlowInstance, Viewport } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SessionPath } from '../../../../shared/api/monitoring.schema';
import type { Menu } from '../../../../shared/app';
import { DETAIL_ZOOM, type MapNode } from '../components/flow-node';
import type { FlowPanelState } from '../components/flow-menu-panel';

export type FlowInstance = ReactFlowInstance<MapNode, Edge>;

/** Room kept between a box brought on screen and the window's edges (the console's header is 60 px tall). */
const SCREEN_MARGIN = { top: 76, bottom: 16 };

/** Scrolls the page (not the map) the least that puts the whole of a box on the screen. */
function scrollBoxOnScreen(nodeId: string) {
  const box = document.querySelector(`.react-flow__node[data-id="${CSS.escape(nodeId)}"]`)?.getBoundingClientRect();
  if (!box) return;
  const below = box.bottom + SCREEN_MARGIN.bottom - window.innerHeight;
  const above = SCREEN_MARGIN.top - box.top;
  if (below > 0) window.scrollBy({ top: Math.min(below, -above) });
  else if (above > 0) window.scrollBy({ top: -above });
}

/** Centres the map on a box at a zoom. */
export function centreOnNode(flow: FlowInstance, node: MapNode, zoom: number, duration: number) {
  return flow.setCenter(node.position.x + node.data.width / 2, node.position.y + node.data.height / 2, { zoom, duration });
}

/**
 * Where the map looks: the React Flow instance once it is drawn, where it opens (a big app on its first menu at a
 * readable zoom, a small one fitted), whether it is zoomed in past the detail zoom, and the session path brought
 * into view when it arrives.
 */
export function useFlowViewport(nodes: MapNode[], menus: Menu[], path: SessionPath | undefined, menuById: Map<string, Menu>) {
  const [flow, setFlow] = useState<FlowInstance | null>(null);
  const [isZoomedIn, setZoomedIn] = useState(false);

  // The map shows the session's menus when its path arrives (once per path: later edits do not move the view).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the menus are read, not watched
  useEffect(() => {
    if (!flow || !path) return;
    const ids = [...new Set(path.steps.map((s) => s.menuId))].filter((id) => menuById.has(id));
    if (ids.length > 0) void flow.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.25, maxZoom: 1, duration: 300 });
  }, [flow, path]);

  /** A big app opens on its first menu at a readable zoom (the controls' fit view shows it all); a small one fits. */
  const startAt = useMemo(() => {
    if (nodes.length <= 20) return null;
    const firstId = menus.find((m) => m.isFirst)?.uniqueId ?? menus[0]?.uniqueId;
    const first = nodes.find((n) => n.id === firstId);
    if (!first) return null;
    const zoom = 0.75;
    return { x: first.position.x + first.data.width / 2, y: first.position.y + 260 / zoom, zoom };
    // Where the map opens is read once, when it first draws.
  }, [nodes, menus]);

  const onInit = (instance: FlowInstance) => {
    setFlow(instance);
    if (startAt) void instance.setCenter(startAt.x, startAt.y, { zoom: startAt.zoom });
  };
  const onMoveEnd = (_: unknown, viewport: Viewport) => setZoomedIn(viewport.zoom >= DETAIL_ZOOM);

  return { flow, isZoomedIn, startAt, onInit, onMoveEnd };
}

/**
 * A menu added (here or in another tab) comes into view: a small app is fitted again, a big one centred on it,
 * and the page scrolls until the whole box is on the screen (the map's lower part can be below the fold).
 * It waits for the side panel to close, so the map is fitted to its full width.
 */
export function useAddedMenuInView(nodes: MapNode[], flow: FlowInstance | null, panel: FlowPanelState | null) {
  const knownIds = useRef<Set<string> | null>(null);
  const toShow = useRef<MapNode | null>(null);
  useEffect(() => {
    const ids = new Set(nodes.filter((n) => n.data.kind === 'menu').map((n) => n.id));
    const before = knownIds.current;
    knownIds.current = ids;
    const added = before && flow ? nodes.find((n) => n.data.kind === 'menu' && !before.has(n.id)) : undefined;
    if (added) toShow.current = added;
    const shown = toShow.current;
    if (!shown || !flow || panel) return;
    toShow.current = null;
    // Two frames: the map's new width reaches React Flow through a resize observer, after the first frame's callbacks.
    const show = () => {
      const moved = nodes.length <= 20 ? flow.fitView({ padding: 0.1, maxZoom: 1.1, duration: 200 }) : centreOnNode(flow, shown, 1, 200);
      void moved.then(() => scrollBoxOnScreen(shown.id));
    };
    requestAnimationFrame(() => requestAnimationFrame(show));
  }, [nodes, flow, panel]);
}
