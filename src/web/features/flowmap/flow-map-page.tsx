import {
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconListDetails, IconSearch, IconSitemap } from '@tabler/icons-react';
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  MiniMap,
  Position,
  ReactFlow,
  type Edge,
  type Node,
  type NodeProps,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { compileApp, previewMenu } from '../../../engine';
import type { AppVersion, Menu } from '../../../shared/app';
import { findSampleInputs } from '../menus/menu-screen-preview';
import { AppScreenTitle } from '../apps/app-screen-title';
import { useApp } from '../apps/use-apps';
import { lintDraft, toDraftVersion, useMenus } from '../menus/use-menus';
import { buildFlowGraph, layoutFlowGraph, type FlowBadge, type FlowDirection, type FlowEdgeKind, type FlowNodeData } from './flow-graph';
import { BackLink } from '../../components/back-link';
import { EmptyPanel } from '../../components/list-states';

export const flowMapPath = (appId: string) => `/app/design/${encodeURIComponent(appId)}/flow`;
/** The designer opens this menu's edit form (on a tab) when it loads. */
export const designMenuPath = (appId: string, menuId: string, tab?: string) =>
  `/app/design/${encodeURIComponent(appId)}?menu=${encodeURIComponent(menuId)}${tab ? `&tab=${tab}` : ''}`;

type MapNode = Node<FlowNodeData & { direction: FlowDirection; isFound?: boolean }, 'flow'>;

const BADGE_COLORS: Record<FlowBadge, string> = {
  First: 'teal',
  Terminate: 'grape',
  Back: 'blue',
  Unreachable: 'yellow',
  'Broken target': 'red',
};
const EDGE_COLORS: Record<FlowEdgeKind, string> = {
  rule: 'var(--mantine-color-gray-6)',
  terminate: 'var(--mantine-color-grape-6)',
  back: 'var(--mantine-color-blue-5)',
  broken: 'var(--mantine-color-red-6)',
};

function borderOf(data: FlowNodeData): string {
  if (data.kind === 'missing' || data.badges.includes('Broken target')) return 'var(--mantine-color-red-6)';
  if (data.badges.includes('Unreachable')) return 'var(--mantine-color-yellow-6)';
  if (data.kind === 'end') return 'var(--mantine-color-grape-5)';
  if (data.badges.includes('First')) return 'var(--mantine-color-teal-6)';
  return 'var(--mantine-color-default-border)';
}

/** Plain colours: the minimap draws SVG fills. */
function minimapColor(data: FlowNodeData | undefined): string {
  if (!data) return '#ced4da';
  if (data.kind === 'missing' || data.badges.includes('Broken target')) return '#fa5252';
  if (data.badges.includes('Unreachable')) return '#fab005';
  if (data.kind === 'end') return '#cc5de8';
  if (data.badges.includes('First')) return '#12b886';
  return '#adb5bd';
}

function backgroundOf(data: FlowNodeData): string {
  if (data.kind === 'missing') return 'var(--mantine-color-red-light)';
  if (data.kind === 'end') return 'var(--mantine-color-grape-light)';
  if (data.badges.includes('Unreachable')) return 'var(--mantine-color-yellow-light)';
  return 'var(--mantine-color-body)';
}

function FlowNodeBox({ data }: NodeProps<MapNode>) {
  const vertical = data.direction === 'TB';
  const dashed = data.kind !== 'menu' || data.badges.includes('Unreachable');
  return (
    <div
      data-testid="flow-node"
      data-kind={data.kind}
      data-menu={data.kind === 'menu' ? data.title : undefined}
      data-badges={data.badges.join(',')}
      data-found={data.isFound ? 'true' : undefined}
      title={
        data.kind === 'menu'
          ? `Edit ${data.title}`
          : data.kind === 'end'
            ? 'Open the menu that ends here'
            : 'Open the menu with this target'
      }
      style={{
        width: data.width,
        height: data.height,
        boxSizing: 'border-box',
        padding: '6px 10px',
        borderRadius: 10,
        border: `2px ${dashed ? 'dashed' : 'solid'} ${borderOf(data)}`,
        background: backgroundOf(data),
        overflow: 'hidden',
        cursor: 'pointer',
        // The menu found with "Find a menu": a ring around it, whatever its own border says.
        boxShadow: data.isFound ? '0 0 0 4px var(--mantine-color-blue-5)' : data.kind === 'menu' ? 'var(--mantine-shadow-xs)' : undefined,
      }}
    >
      <Handle type="target" position={vertical ? Position.Top : Position.Left} style={{ opacity: 0 }} />
      <Text
        fw={700}
        size="sm"
        truncate="end"
        ff={data.kind === 'menu' ? 'monospace' : undefined}
        c={data.kind === 'missing' ? 'red.8' : undefined}
      >
        {data.title}
      </Text>
      <div style={{ marginTop: 2 }}>
        {data.lines.map((line, i) => (
          <Text key={i} size="xs" c="dimmed" lh="17px" truncate="end" ff="monospace">
            {line}
          </Text>
        ))}
      </div>
      {data.badges.length > 0 && (
        <Group gap={4} mt={6} wrap="nowrap" style={{ overflow: 'hidden' }}>
          {data.badges.map((b) => (
            <Badge
              key={b}
              size="xs"
              variant={b === 'Unreachable' || b === 'Broken target' ? 'filled' : 'light'}
              color={BADGE_COLORS[b]}
              data-testid="flow-badge"
            >
              {b === 'Back' ? `Back ${data.backIndicator ?? ''}`.trim() : b}
            </Badge>
          ))}
        </Group>
      )}
      <Handle type="source" position={vertical ? Position.Bottom : Position.Right} style={{ opacity: 0 }} />
      {/* Back edges leave and arrive at the side, apart from the rules' flow. */}
      <Handle id="back-out" type="source" position={vertical ? Position.Right : Position.Bottom} style={{ opacity: 0 }} />
      <Handle id="back-in" type="target" position={vertical ? Position.Right : Position.Bottom} style={{ opacity: 0 }} />
    </div>
  );
}

const nodeTypes = { flow: FlowNodeBox };

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

function Legend() {
  const swatch = (border: string, background = 'var(--mantine-color-body)', dashed = false) => (
    <span
      style={{
        display: 'inline-block',
        width: 18,
        height: 12,
        borderRadius: 3,
        border: `2px ${dashed ? 'dashed' : 'solid'} ${border}`,
        background,
      }}
    />
  );
  const line = (color: string, dashed = false) => (
    <span style={{ display: 'inline-block', width: 24, borderTop: `2px ${dashed ? 'dashed' : 'solid'} ${color}` }} />
  );
  const items: [React.ReactNode, string][] = [
    [swatch('var(--mantine-color-teal-6)'), 'First menu'],
    [swatch('var(--mantine-color-default-border)'), 'Menu (click to edit)'],
    [swatch('var(--mantine-color-yellow-6)', 'var(--mantine-color-yellow-light)', true), 'Unreachable'],
    [swatch('var(--mantine-color-red-6)'), 'Broken target'],
    [swatch('var(--mantine-color-red-6)', 'var(--mantine-color-red-light)', true), 'Missing menu'],
    [swatch('var(--mantine-color-grape-5)', 'var(--mantine-color-grape-light)', true), 'End (Terminate)'],
    [line(EDGE_COLORS.rule), 'Rule: condition'],
    [line(EDGE_COLORS.back, true), 'Back'],
  ];
  return (
    <Group gap="md" data-testid="flow-legend" aria-label="Legend" role="list">
      {items.map(([icon, label]) => (
        <Group key={label} gap={6} wrap="nowrap" role="listitem">
          {icon}
          <Text size="xs" c="dimmed">
            {label}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

/** Flow map (/app/design/{appId}/flow): the app's menus as a graph; a click opens the menu in the designer. */
export function FlowMapPage() {
  const { appId = '' } = useParams();
  const navigate = useNavigate();
  const appQuery = useApp(appId);
  const menusQuery = useMenus(appId);
  const scheme = useComputedColorScheme('light');
  const [direction, setDirection] = useState<FlowDirection>('TB');
  const [showBack, setShowBack] = useState(true);
  const isPhone = useMediaQuery('(max-width: 36em)');
  const [flow, setFlow] = useState<ReactFlowInstance<MapNode, Edge> | null>(null);
  const [foundId, setFoundId] = useState<string | null>(null);
  const app = appQuery.data;
  const menus = useMemo(() => menusQuery.data ?? [], [menusQuery.data]);

  const graph = useMemo(() => {
    if (menus.length === 0) return null;
    const version = toDraftVersion(appId, app, menus);
    let screenOf: ((m: Menu) => string) | undefined;
    try {
      screenOf = renderScreens(version);
    } catch {
      // A draft the engine cannot compile still shows, with raw texts (and no lint marks: lintDraft gives none).
    }
    return buildFlowGraph(menus, lintDraft(version), screenOf);
  }, [menus, app, appId]);

  const { nodes, edges } = useMemo(() => {
    if (!graph) return { nodes: [] as MapNode[], edges: [] as Edge[] };
    const placed = layoutFlowGraph(graph, direction);
    const nodes: MapNode[] = placed.map((n) => ({
      id: n.id,
      type: 'flow',
      position: n.position,
      data: { ...n.data, direction },
      width: n.data.width,
      height: n.data.height,
      draggable: true,
      connectable: false,
    }));
    const edges: Edge[] = graph.edges.map((e) => {
      const color = EDGE_COLORS[e.kind];
      return {
        id: e.id,
        source: e.source,
        target: e.target,
        ...(e.kind === 'back' ? { sourceHandle: 'back-out', targetHandle: 'back-in' } : {}),
        label: e.label,
        type: e.kind === 'back' ? 'default' : 'smoothstep',
        className: `flow-edge-${e.kind}`,
        style: { stroke: color, strokeWidth: e.kind === 'back' ? 1.2 : 1.6, ...(e.kind === 'back' ? { strokeDasharray: '6 4' } : {}) },
        markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
        labelStyle: { fontSize: 11, fill: e.kind === 'back' ? EDGE_COLORS.back : 'var(--mantine-color-text)' },
        labelBgStyle: { fill: 'var(--mantine-color-body)', fillOpacity: 0.9 },
        labelBgPadding: [4, 2] as [number, number],
        labelBgBorderRadius: 4,
        focusable: false,
      };
    });
    return { nodes, edges };
  }, [graph, direction]);
  // The found menu's ring changes only its node: the layout above is not run again for it.
  const shownNodes = useMemo(
    () => (foundId ? nodes.map((n) => (n.id === foundId ? { ...n, data: { ...n.data, isFound: true } } : n)) : nodes),
    [nodes, foundId],
  );
  const shownEdges = useMemo(() => (showBack ? edges : edges.filter((e) => !e.id.startsWith('back:'))), [edges, showBack]);

  /** A big app opens on its first menu at a readable zoom (the controls' fit view shows it all); a small one fits. */
  const startAt = useMemo(() => {
    if (nodes.length <= 20) return null;
    const firstId = menus.find((m) => m.isFirst)?.uniqueId ?? menus[0]?.uniqueId;
    const first = nodes.find((n) => n.id === firstId);
    if (!first) return null;
    const zoom = 0.75;
    return { x: first.position.x + first.data.width / 2, y: first.position.y + 260 / zoom, zoom };
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

  /** "Find a menu": the map centres on it at a readable zoom and rings it. */
  function findMenu(menuId: string | null) {
    setFoundId(menuId);
    const node = menuId ? nodes.find((n) => n.id === menuId) : undefined;
    if (node && flow)
      void flow.setCenter(node.position.x + node.data.width / 2, node.position.y + node.data.height / 2, { zoom: 1, duration: 300 });
  }
  const menuChoices = useMemo(
    () => menus.map((m) => ({ value: m.uniqueId, label: m.userDefinedName || m.uniqueId })).sort((a, b) => a.label.localeCompare(b.label)),
    [menus],
  );

  const openNode = (data: FlowNodeData) =>
    void navigate(designMenuPath(appId, data.menuId, data.kind === 'menu' ? undefined : 'navigation'));

  const loadError = appQuery.error ?? menusQuery.error;
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

      {loadError ? (
        <Paper withBorder radius="lg" p="lg">
          <Text c="red.8">{loadError.message}</Text>
          <Button mt="sm" size="xs" variant="default" onClick={() => void Promise.all([appQuery.refetch(), menusQuery.refetch()])}>
            Try again
          </Button>
        </Paper>
      ) : menusQuery.isPending ? (
        <Skeleton height={480} radius="lg" aria-busy="true" aria-label="Loading the flow map" data-testid="flow-loading" />
      ) : menus.length === 0 ? (
        <EmptyPanel
          testId="flow-empty"
          icon={<IconSitemap size={28} />}
          title="No menus yet"
          description="Add menus in the menu list; the map draws them and their navigation rules."
          action={
            <Button component={Link} to={`/app/design/${encodeURIComponent(appId)}`} variant="default">
              Open the menu list
            </Button>
          }
        />
      ) : (
        <>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed" data-testid="flow-summary">
              {counts.menus} menus · {counts.rules} rules · {counts.back} back links
              {counts.unreachable > 0 && ` · ${counts.unreachable} unreachable`}
              {counts.broken > 0 && ` · ${counts.broken} with a broken target`}
            </Text>
            <Group gap="sm">
              <Text size="xs" c="dimmed">
                Click a menu to edit it. Scroll or pinch to zoom, drag to pan.
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
          <Paper withBorder radius="lg" style={{ height: 'max(440px, calc(100dvh - 290px))', overflow: 'hidden' }} data-testid="flow-map">
            <ReactFlow
              key={direction}
              nodes={shownNodes}
              edges={shownEdges}
              nodeTypes={nodeTypes}
              colorMode={scheme}
              fitView={!startAt}
              fitViewOptions={{ padding: 0.1, maxZoom: 1.1 }}
              onInit={(instance) => {
                setFlow(instance);
                if (startAt) void instance.setCenter(startAt.x, startAt.y, { zoom: startAt.zoom });
              }}
              minZoom={0.05}
              maxZoom={2}
              nodesConnectable={false}
              edgesFocusable={false}
              elementsSelectable
              onNodeClick={(_, node) => openNode(node.data)}
            >
              <Background gap={24} />
              <Controls showInteractive={false} />
              {!isPhone && <MiniMap<MapNode> pannable zoomable nodeColor={(n) => minimapColor(n.data as FlowNodeData | undefined)} />}
            </ReactFlow>
          </Paper>
          <Legend />
        </>
      )}
    </Stack>
  );
}
