import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  Tooltip,
  useComputedColorScheme,
} from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { showToast } from '../../lib/toast';
import { failureText, isOk } from '../../lib/api';
import {
  IconArrowBackUp,
  IconDeviceMobile,
  IconLayoutDistributeHorizontal,
  IconListDetails,
  IconPlus,
  IconRoute,
  IconSearch,
  IconSitemap,
  IconTrash,
} from '@tabler/icons-react';
import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  Panel,
  ReactFlow,
  type Connection,
  type Edge,
  type NodeChange,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { queryKeys } from '../../lib/query-keys';
import { compileApp, previewMenu } from '../../../engine';
import { createMenuDraft, type AppVersion, type Menu, type MenuBody } from '../../../shared/app';
import type { SessionPath } from '../../../shared/api/monitoring.schema';
import { findSampleInputs } from '../menus/menu-screen-preview';
import { AppScreenTitle } from '../apps/app-screen-title';
import { confirmMenuDelete } from '../menus/menu-delete-confirm';
import { confirmDiscard } from '../../lib/confirm-discard';
import { DISCARD_QUESTION, type MenuSubmitResult } from '../menus/menu-edit-form';
import { asSavedMenu, type MenuDraft, type MenuFormTab } from '../menus/menu-form-state';
import { findRulesLeadingTo } from '../menus/menu-list-order';
import { saveMenuPositions } from '../menus/menus.api';
import { useAppMenus } from '../menus/use-app-menus';
import { toDraftVersion } from '../menus/use-menus';
import { parseRuleEdgeId, suggestRule } from './flow-edits';
import { buildFlowGraph, layoutFlowGraph, NODE_GAP, ruleLabel, type FlowDirection, type FlowNodeData } from './flow-graph';
import { edgeTypes, type RuleEdgeData } from './flow-edge';
import { FlowMenuPanel, type FlowPanelState } from './flow-menu-panel';
import { DETAIL_ZOOM, EDGE_COLORS, FlowLegend, minimapColor, nodeTypes, PATH_COLOR, RULE_IN, RULE_OUT, type MapNode } from './flow-node';
import { FlowRuleDialog, type RuleRequest } from './flow-rule-dialog';
import { findSessionPath } from './flow-map.api';
import { useFlowEditor } from './use-flow-editor';
import { BackLink } from '../../components/back-link';
import { EmptyPanel } from '../../components/list-states';
import { designMenuPath } from '../../lib/paths';

/** Each menu's screen rendered by the engine with sample values (`<name>` for each session.inputs.name). */
function renderScreens(version: AppVersion): (menu: Menu) => string {
  const compiled = compileApp({ ...version, screenLimit: Number.MAX_SAFE_INTEGER });
  return (menu) => {
    const names = findSampleInputs([menu.headerText, menu.displayText, menu.footerText]);
    const inputs = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
    const result = previewMenu(compiled, menu.uniqueId, { inputs, mobile: '233244000111', network: 'MTN' });
    if (!result.ok) throw new Error(result.error);
    return result.pages.join('\n');
  };
}

type XY = { x: number; y: number };

/** How far into the gap beside a box a rule's label may reach: the gap less the label's distance from its line. */
const LABEL_GAP = NODE_GAP - 14;

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

/** '1 menu', '3 menus'. */
const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Flow map (/app/design/{appId}/flow): the app's menus as a graph, and a second editor of the same draft. On a
 * wide screen a click opens the menu's form in a side panel, a dot dragged to a menu draws a rule, a rule's end
 * dragged elsewhere rewires it, Delete removes the selected rule or menu, and Undo takes back the last change. On
 * a phone the map reads only, and a click opens the menu in the menu list.
 */
export function FlowMapPage() {
  const { appId = '' } = useParams();
  const navigate = useNavigate();
  const data = useAppMenus(appId);
  const editor = useFlowEditor(appId, data);
  const scheme = useComputedColorScheme('light');
  const [direction, setDirection] = useState<FlowDirection>('TB');
  const [showBack, setShowBack] = useState(true);
  const isPhone = useMediaQuery('(max-width: 36em)');
  // Editing needs room for the map beside the form and a pointer to draw with.
  const isEditable = useMediaQuery('(min-width: 62em)') ?? false;
  const [flow, setFlow] = useState<ReactFlowInstance<MapNode, Edge> | null>(null);
  const [isZoomedIn, setZoomedIn] = useState(false);
  const [foundId, setFoundId] = useState<string | null>(null);
  const [panel, setPanel] = useState<FlowPanelState | null>(null);
  const [isDirty, setDirty] = useState(false);
  const [selectedEdgeId, setSelectedEdgeId] = useState<string | null>(null);
  const [ruleRequest, setRuleRequest] = useState<RuleRequest | null>(null);
  /** Where the builder dragged boxes, for the layout direction they were dragged in, until the saved ones are read. */
  const [moved, setMoved] = useState<{ direction: FlowDirection; at: Record<string, XY> }>({ direction: 'TB', at: {} });
  const { app, menus } = data;

  // "Show path": ?session=<id> highlights the menus that session was shown and the rules it took.
  const [searchParams, setSearchParams] = useSearchParams();
  const pathSessionId = searchParams.get('session');
  const pathQuery = useQuery({
    queryKey: queryKeys.sessionPath(appId, pathSessionId ?? ''),
    queryFn: async () => {
      const reply = await findSessionPath(appId, pathSessionId!);
      if (!isOk(reply) || !reply.data) throw new Error(failureText(reply, 'The session path could not be read.'));
      return reply.data;
    },
    enabled: !!pathSessionId,
  });
  const path = pathSessionId ? pathQuery.data : undefined;
  const onPath = useMemo(() => {
    const steps = new Map<string, number[]>();
    for (const [i, s] of (path?.steps ?? []).entries()) steps.set(s.menuId, [...(steps.get(s.menuId) ?? []), i + 1]);
    return { steps, rules: new Set(path?.rules.map((r) => `rule:${r.menuId}:${r.rule}`)) };
  }, [path]);
  const clearPath = () => setSearchParams({}, { replace: true });
  /** The boxes placed and saved with the draft, for this direction. */
  const savedAt = useMemo(
    () =>
      Object.fromEntries(
        menus.flatMap((m) => (m.mapPosition?.direction === direction ? [[m.uniqueId, { x: m.mapPosition.x, y: m.mapPosition.y }]] : [])),
      ) as Record<string, XY>,
    [menus, direction],
  );
  // The map opens in the direction its boxes were placed in.
  const placedDirection = menus.find((m) => m.mapPosition)?.mapPosition?.direction;
  const directionRead = useRef(false);
  useEffect(() => {
    if (directionRead.current || data.isPending) return;
    directionRead.current = true;
    if (placedDirection) setDirection(placedDirection);
  }, [data.isPending, placedDirection]);

  const graph = useMemo(() => {
    if (menus.length === 0) return null;
    const version = toDraftVersion(appId, app, menus);
    let screenOf: ((m: Menu) => string) | undefined;
    try {
      screenOf = renderScreens(version);
    } catch {
      // A draft the engine cannot compile still shows, with raw texts (and no lint marks: lintDraft gives none).
    }
    return buildFlowGraph(menus, data.lintIssues, screenOf);
  }, [menus, app, appId, data.lintIssues]);

  const { nodes, edges } = useMemo(() => {
    if (!graph) return { nodes: [] as MapNode[], edges: [] as Edge[] };
    const placed = layoutFlowGraph(graph, direction);
    const nodes: MapNode[] = placed.map((n) => ({
      id: n.id,
      type: 'flow',
      position: n.position,
      data: { ...n.data, direction, isEditable, screenLimit: app?.screenLimit },
      width: n.data.width,
      height: n.data.height,
      draggable: true,
      connectable: isEditable && n.data.kind === 'menu',
    }));
    // Labels arriving at the same box each get a row of their own beside its line (FlowRuleEdge).
    const arriving = new Map<string, number>();
    const widthOf = new Map(graph.nodes.map((n) => [n.id, n.data.width]));
    const edges: Edge[] = graph.edges.map((e) => {
      const color = EDGE_COLORS[e.kind];
      const slot = e.kind === 'back' ? 0 : (arriving.get(e.target) ?? 0);
      if (e.kind !== 'back') arriving.set(e.target, slot + 1);
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        ...(e.kind === 'back' ? { sourceHandle: 'back-out', targetHandle: 'back-in' } : { sourceHandle: RULE_OUT, targetHandle: RULE_IN }),
        label: e.label,
        ariaLabel: e.description,
        type: e.kind === 'back' ? 'default' : 'rule',
        ...(e.kind === 'back'
          ? {}
          : { data: { direction, slot, room: (widthOf.get(e.target) ?? 0) / 2 + LABEL_GAP } satisfies RuleEdgeData }),
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
    });
    return { nodes, edges };
  }, [graph, direction, isEditable, app?.screenLimit]);

  // The dragged boxes and the found menu's ring change only their nodes: the layout above is not run again for them.
  const movedAt = useMemo(() => ({ ...savedAt, ...(moved.direction === direction ? moved.at : {}) }), [savedAt, moved, direction]);
  const shownNodes = useMemo(
    () =>
      nodes.map((n) => {
        const at = movedAt[n.id];
        const isFound = n.id === foundId;
        const pathSteps = n.data.kind === 'menu' ? onPath.steps.get(n.id) : undefined;
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
          : onPath.rules.has(e.id)
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

  const counts = useMemo(() => {
    const list = graph?.edges ?? [];
    return {
      menus: menus.length,
      rules: list.filter((e) => e.kind !== 'back').length,
      back: list.filter((e) => e.kind === 'back').length,
      unreachable: graph?.nodes.filter((n) => n.data.badges.includes('Unreachable')).length ?? 0,
      broken: graph?.nodes.filter((n) => n.data.badges.includes('Broken target')).length ?? 0,
    };
  }, [graph, menus]);

  // A menu added (here or in another tab) comes into view: a small app is fitted again, a big one centred on it,
  // and the page scrolls until the whole box is on the screen (the map's lower part can be below the fold).
  // It waits for the side panel to close, so the map is fitted to its full width.
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
      const moved =
        nodes.length <= 20
          ? flow.fitView({ padding: 0.1, maxZoom: 1.1, duration: 200 })
          : flow.setCenter(shown.position.x + shown.data.width / 2, shown.position.y + shown.data.height / 2, { zoom: 1, duration: 200 });
      void moved.then(() => scrollBoxOnScreen(shown.id));
    };
    requestAnimationFrame(() => requestAnimationFrame(show));
  }, [nodes, flow, panel]);

  /** "Find a menu": the map centres on it at a readable zoom and rings it. */
  function findMenu(menuId: string | null) {
    setFoundId(menuId);
    const node = menuId ? shownNodes.find((n) => n.id === menuId) : undefined;
    if (node && flow)
      void flow.setCenter(node.position.x + node.data.width / 2, node.position.y + node.data.height / 2, { zoom: 1, duration: 300 });
  }
  const menuChoices = useMemo(
    () => menus.map((m) => ({ value: m.uniqueId, label: m.userDefinedName || m.uniqueId })).sort((a, b) => a.label.localeCompare(b.label)),
    [menus],
  );
  const menuById = useMemo(() => new Map(menus.map((m) => [m.uniqueId, m])), [menus]);
  const nameOf = (id: string) => menuById.get(id)?.userDefinedName || id;

  /** Opens a menu (or a new one) in the side panel, asking first when the open form has unsaved changes. */
  const openPanel = (menuId: string | null, tab: MenuFormTab = 'menu') =>
    confirmDiscard(
      isDirty,
      () => {
        setDirty(false);
        setSelectedEdgeId(null);
        setPanel({ menuId, tab, nonce: Date.now() });
      },
      DISCARD_QUESTION,
    );
  const closePanel = () => {
    setDirty(false);
    setPanel(null);
  };

  const openNode = (node: FlowNodeData, at: XY) => {
    const tab = node.kind === 'menu' ? undefined : 'navigation';
    if (!isEditable) return void navigate(designMenuPath(appId, node.menuId, tab));
    openPanel(node.menuId, tab ?? 'menu');
    // The map narrows for the panel: the box clicked stays in view, at the same zoom.
    requestAnimationFrame(() => {
      if (flow) void flow.setCenter(at.x + node.width / 2, at.y + node.height / 2, { zoom: flow.getZoom(), duration: 200 });
    });
  };

  const panelMenu: MenuDraft | null = useMemo(() => {
    if (!panel) return null;
    if (panel.menuId === null) return { ...createMenuDraft(appId), isFirst: menus.length === 0 };
    return menuById.get(panel.menuId) ?? null;
  }, [panel, menuById, appId, menus.length]);

  const submitPanel = async (body: MenuBody, opened: MenuDraft): Promise<MenuSubmitResult> => {
    const saved = await editor.saveMenu(body, asSavedMenu(opened));
    if (saved.ok) closePanel();
    return saved;
  };

  const deleteMenu = (menu: Menu) =>
    confirmMenuDelete({
      name: menu.userDefinedName || 'this menu',
      leadingHere: findRulesLeadingTo(menus, menu.uniqueId),
      onConfirm: async () => {
        if (await editor.deleteMenu(menu)) {
          if (panel?.menuId === menu.uniqueId) closePanel();
        }
      },
    });

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

  /** Delete or Backspace on the map: the selected rule, or the selected menu after the usual question. */
  const onBeforeDelete = async ({ nodes: gone }: { nodes: MapNode[]; edges: Edge[] }) => {
    if (!isEditable) return false;
    const menu = gone.length > 0 ? menuById.get(gone[0]!.id) : undefined;
    if (menu) deleteMenu(menu);
    else if (selectedRule) await deleteSelectedRule();
    return false;
  };

  /** A box dropped: the arrangement as it is now is saved with the draft (every menu's box, so none jumps later). */
  const savePositions = async (dropped: MapNode[]) => {
    const at = new Map(dropped.map((n) => [n.id, n.position]));
    const positions = shownNodes.filter((n) => n.data.kind === 'menu').map((n) => ({ uniqueId: n.id, ...(at.get(n.id) ?? n.position) }));
    const reply = await saveMenuPositions({ appId, direction, positions });
    if (!isOk(reply))
      showToast({ color: 'red', title: 'Layout not saved', message: failureText(reply, 'The positions could not be saved.') });
    else await data.refreshMenus();
  };

  /** Tidy up: the map lays every box out again, and the saved positions are cleared. */
  const tidyUp = async () => {
    setMoved({ direction, at: {} });
    if (Object.keys(savedAt).length === 0) return;
    const reply = await saveMenuPositions({ appId, direction, positions: [] });
    if (!isOk(reply)) showToast({ color: 'red', title: 'Layout not saved', message: failureText(reply, 'The layout could not be reset.') });
    await data.refreshMenus();
  };

  const onNodesChange = (changes: NodeChange<MapNode>[]) => {
    const dragged = changes.flatMap((c) => (c.type === 'position' && c.position ? [[c.id, c.position] as const] : []));
    if (dragged.length === 0) return;
    setMoved((old) => ({ direction, at: { ...(old.direction === direction ? old.at : {}), ...Object.fromEntries(dragged) } }));
  };

  const undo = () => void editor.undo();
  useHotkeys([['mod+Z', () => isEditable && undo()]]);

  const previewApp = app
    ? {
        appId: app.appId,
        appName: app.appName,
        shortCode: app.shortCode,
        screenLimit: app.screenLimit,
        channel: app.channel,
        menus: data.menus,
      }
    : { appId, appName: '', shortCode: '' };
  const hasMoved = Object.keys(movedAt).length > 0;

  return (
    <Stack gap="md">
      <div>
        <BackLink to={`/app/design/${encodeURIComponent(appId)}`} label="Menu list" />
        <Group justify="space-between" align="flex-end" mt={6} gap="md">
          <AppScreenTitle screen="Flow map" app={app} />
          <Group gap="sm">
            <Switch label="Back links" checked={showBack} onChange={(e) => setShowBack(e.currentTarget.checked)} size="sm" />
            <SegmentedControl
              aria-label="Layout direction"
              size="xs"
              value={direction}
              onChange={(v) => setDirection(v as FlowDirection)}
              data={[
                { value: 'TB', label: 'Top to bottom' },
                { value: 'LR', label: 'Left to right' },
              ]}
            />
            <Button
              component={Link}
              to={`/app/design/${encodeURIComponent(appId)}`}
              variant="default"
              leftSection={<IconListDetails size={18} />}
            >
              Menu list
            </Button>
          </Group>
        </Group>
      </div>

      {data.loadError ? (
        <Paper withBorder radius="lg" p="lg">
          <Text c="red.8">{data.loadError.message}</Text>
          <Button mt="sm" size="xs" variant="default" onClick={() => void data.retry()}>
            Try again
          </Button>
        </Paper>
      ) : data.isPending ? (
        <Skeleton height={480} radius="lg" aria-busy="true" aria-label="Loading the flow map" data-testid="flow-loading" />
      ) : menus.length === 0 && !panel ? (
        <EmptyPanel
          testId="flow-empty"
          icon={<IconSitemap size={28} />}
          title="No menus yet"
          description={
            isEditable
              ? 'Add the first menu here or in the menu list; the map draws the menus and their navigation rules.'
              : 'Add menus in the menu list; the map draws them and their navigation rules.'
          }
          action={
            isEditable ? (
              <Button leftSection={<IconPlus size={16} />} onClick={() => openPanel(null)}>
                Add the first menu
              </Button>
            ) : (
              <Button component={Link} to={`/app/design/${encodeURIComponent(appId)}`} variant="default">
                Open the menu list
              </Button>
            )
          }
        />
      ) : (
        <>
          {pathSessionId && (
            <SessionPathBanner
              sessionId={pathSessionId}
              isPending={pathQuery.isPending}
              error={pathQuery.error}
              path={path}
              missing={path ? new Set(path.steps.filter((s) => !menuById.has(s.menuId)).map((s) => s.menuId)).size : 0}
              onClear={clearPath}
            />
          )}
          {!isEditable && (
            <Alert color="blue" variant="light" icon={<IconDeviceMobile size={18} />} data-testid="flow-read-only">
              The map is read-only on a small screen: tap a menu to edit it in the menu list, or open the map on a wider screen to edit it
              here.
            </Alert>
          )}
          <Group justify="space-between" gap="xs">
            <Group gap="xs">
              {isEditable && (
                <>
                  <Button size="xs" leftSection={<IconPlus size={16} />} onClick={() => openPanel(null)} disabled={panel?.menuId === null}>
                    Add menu
                  </Button>
                  <Tooltip label={editor.lastChange ? `Undo: ${editor.lastChange} (Ctrl+Z)` : 'Nothing to undo'}>
                    <Button
                      size="xs"
                      variant="default"
                      leftSection={<IconArrowBackUp size={16} />}
                      onClick={undo}
                      disabled={!editor.lastChange || editor.isBusy}
                      aria-label={editor.lastChange ? `Undo: ${editor.lastChange}` : 'Undo'}
                      data-testid="flow-undo"
                    >
                      Undo
                    </Button>
                  </Tooltip>
                </>
              )}
              {(isEditable || hasMoved) && (
                <Tooltip label="Lay the map out again (boxes you dragged go back in place)">
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconLayoutDistributeHorizontal size={16} />}
                    onClick={() => void tidyUp()}
                    disabled={!hasMoved}
                  >
                    Tidy up
                  </Button>
                </Tooltip>
              )}
              <Text size="sm" c="dimmed" data-testid="flow-summary">
                {countOf(counts.menus, 'menu')} · {countOf(counts.rules, 'rule')} · {countOf(counts.back, 'back link')}
                {counts.unreachable > 0 && ` · ${counts.unreachable} unreachable`}
                {counts.broken > 0 && ` · ${counts.broken} with a broken target`}
              </Text>
            </Group>
            <Group gap="sm">
              <Text size="xs" c="dimmed">
                {isEditable ? 'Click a menu to edit it; drag a blue dot to a menu to add a rule.' : 'Scroll or pinch to zoom, drag to pan.'}
              </Text>
              <Select
                aria-label="Find a menu"
                placeholder="Find a menu"
                size="xs"
                w={200}
                searchable
                clearable
                clearButtonProps={{ 'aria-label': 'Clear the menu search' }}
                nothingFoundMessage="No menu by that name"
                leftSection={<IconSearch size={14} />}
                data={menuChoices}
                value={foundId}
                onChange={findMenu}
                data-testid="flow-find"
              />
            </Group>
          </Group>
          <Group align="flex-start" gap="md" wrap="nowrap">
            <Paper
              withBorder
              radius="lg"
              style={{ flex: 1, minWidth: 0, height: 'max(440px, calc(100dvh - 290px))', overflow: 'hidden' }}
              data-testid="flow-map"
              aria-busy={editor.isBusy || undefined}
            >
              <ReactFlow<MapNode, Edge>
                key={direction}
                nodes={shownNodes}
                edges={shownEdges}
                nodeTypes={nodeTypes}
                edgeTypes={edgeTypes}
                colorMode={scheme}
                fitView={!startAt}
                fitViewOptions={{ padding: 0.1, maxZoom: 1.1 }}
                onInit={(instance) => {
                  setFlow(instance);
                  if (startAt) void instance.setCenter(startAt.x, startAt.y, { zoom: startAt.zoom });
                }}
                // Zoomed in, the boxes out of view leave the page (a 100-menu map pans at 57 fps instead of 44 at 100 %);
                // zoomed out, where nearly all are in view, checking each frame would cost more than it saves.
                onlyRenderVisibleElements={isZoomedIn}
                onMoveEnd={(_, viewport) => setZoomedIn(viewport.zoom >= DETAIL_ZOOM)}
                minZoom={0.05}
                maxZoom={2}
                nodesConnectable={isEditable}
                edgesFocusable={false}
                elementsSelectable
                deleteKeyCode={isEditable ? ['Backspace', 'Delete'] : null}
                onNodesChange={onNodesChange}
                onNodeDragStop={(_, __, dropped) => void savePositions(dropped)}
                onNodeClick={(_, node) => openNode(node.data, node.position)}
                onEdgeClick={(_, edge) => setSelectedEdgeId(edge.id.startsWith('back:') ? null : edge.id)}
                onPaneClick={() => setSelectedEdgeId(null)}
                onConnect={connect}
                onReconnect={reconnect}
                onBeforeDelete={onBeforeDelete}
              >
                <Background gap={24} />
                <Controls showInteractive={false} />
                {!isPhone && <MiniMap<MapNode> pannable zoomable nodeColor={(n) => minimapColor(n.data as FlowNodeData | undefined)} />}
                {selectedRule && (
                  <Panel position="top-center">
                    <Paper withBorder shadow="sm" radius="md" px="sm" py={6} data-testid="flow-rule-bar">
                      <Group gap="sm">
                        <Text size="sm">
                          <b>{nameOf(selectedRule.menu.uniqueId)}</b> rule {selectedRule.index + 1}: {ruleLabel(selectedRule.rule)}
                          {selectedRule.rule.action === 'goto' ? ` → ${nameOf(selectedRule.rule.actionParam)}` : ' → end'}
                        </Text>
                        <Button size="compact-sm" variant="default" onClick={() => openPanel(selectedRule.menu.uniqueId, 'navigation')}>
                          Edit rules
                        </Button>
                        <Button
                          size="compact-sm"
                          color="red"
                          variant="light"
                          leftSection={<IconTrash size={14} />}
                          onClick={() => void deleteSelectedRule()}
                          disabled={editor.isBusy}
                        >
                          Delete rule
                        </Button>
                      </Group>
                    </Paper>
                  </Panel>
                )}
              </ReactFlow>
            </Paper>
            {isEditable && panel && panelMenu && (
              <div style={{ width: 480, flexShrink: 0, maxHeight: 'max(440px, calc(100dvh - 290px))', overflowY: 'auto' }}>
                <FlowMenuPanel
                  app={previewApp}
                  panel={panel}
                  menu={panelMenu}
                  saved={panel.menuId ? (menuById.get(panel.menuId) ?? null) : null}
                  liteMenus={data.liteMenus}
                  lintIssues={data.lintIssues}
                  isBusy={editor.isBusy}
                  onSubmit={submitPanel}
                  onClose={closePanel}
                  onDirtyChange={setDirty}
                  onMakeFirst={(m) => void editor.makeFirst(m)}
                  onDelete={deleteMenu}
                />
              </div>
            )}
          </Group>
          <FlowLegend isEditable={isEditable} />
        </>
      )}
      <FlowRuleDialog request={ruleRequest} onCancel={() => setRuleRequest(null)} onSave={saveRule} />
    </Stack>
  );
}

interface SessionPathBannerProps {
  sessionId: string;
  isPending: boolean;
  error: Error | null;
  path: SessionPath | undefined;
  /** Menus of the path that are no longer in the draft. */
  missing: number;
  onClear: () => void;
}

/** What the highlighted path is: whose, how long, how it ended; or why it cannot be shown. */
function SessionPathBanner({ sessionId, isPending, error, path, missing, onClear }: SessionPathBannerProps) {
  const clear = (
    <Button size="compact-sm" variant="default" onClick={onClear}>
      Clear path
    </Button>
  );
  const text = error
    ? error.message
    : isPending || !path
      ? 'Reading the session’s path…'
      : path.steps.length === 0
        ? 'No screens are logged for this session (its logs may have been cleared).'
        : `${countOf(path.steps.length, 'screen')}, ${countOf(path.rules.length, 'rule')} taken; ${path.ended ? 'the app ended it.' : 'it did not end in the app (still open, timed out or dropped).'}${missing > 0 ? ` ${missing} of its menus are no longer in the draft.` : ''}`;
  return (
    <Alert
      color={error ? 'red' : 'violet'}
      variant="light"
      icon={<IconRoute size={18} />}
      data-testid="flow-path"
      title={`Path of session ${sessionId}`}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">{text}</Text>
        {clear}
      </Group>
    </Alert>
  );
}
