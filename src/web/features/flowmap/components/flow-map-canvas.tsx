import { Paper } from '@mantine/core';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  type Connection,
  type Edge,
  type NodeChange,
  type OnBeforeDelete,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import type { ReactNode } from 'react';
import { edgeTypes } from './flow-edge';
import type { FlowDirection, FlowNodeData } from '../flow-graph';
import { minimapColor, nodeTypes, type MapNode } from './flow-node';
import type { FlowInstance } from '../hooks/use-flow-viewport';

interface FlowMapCanvasProps {
  direction: FlowDirection;
  scheme: 'light' | 'dark';
  /** A phone has no room for the minimap. */
  isPhone: boolean;
  nodes: MapNode[];
  edges: Edge[];
  isEditable: boolean;
  isBusy: boolean;
  /** Where a big app opens; null fits the whole map. */
  startAt: { x: number; y: number; zoom: number } | null;
  onInit: (instance: FlowInstance) => void;
  isZoomedIn: boolean;
  onMoveEnd: (event: unknown, viewport: Viewport) => void;
  onNodesChange: (changes: NodeChange<MapNode>[]) => void;
  onNodesDropped: (dropped: MapNode[]) => void;
  onNodeClick: (node: MapNode) => void;
  onSelectEdge: (edgeId: string | null) => void;
  onConnect: (connection: Connection) => void;
  onReconnect: (edge: Edge, connection: Connection) => void;
  onBeforeDelete: OnBeforeDelete<MapNode, Edge>;
  /** Drawn over the map: the selected rule's bar. */
  children?: ReactNode;
}

/** The map itself: React Flow with the boxes and arrows, the background grid, the zoom controls and the minimap. */
export function FlowMapCanvas(props: FlowMapCanvasProps) {
  const { direction, isEditable, startAt } = props;
  return (
    <Paper
      withBorder
      radius="lg"
      style={{ flex: 1, minWidth: 0, height: 'max(440px, calc(100dvh - 290px))', overflow: 'hidden' }}
      data-testid="flow-map"
      aria-busy={props.isBusy || undefined}
    >
      <ReactFlow<MapNode, Edge>
        key={direction}
        nodes={props.nodes}
        edges={props.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        colorMode={props.scheme}
        fitView={!startAt}
        fitViewOptions={{ padding: 0.1, maxZoom: 1.1 }}
        onInit={props.onInit}
        // Zoomed in, the boxes out of view leave the page (a 100-menu map pans at 57 fps instead of 44 at 100 %);
        // zoomed out, where nearly all are in view, checking each frame would cost more than it saves.
        onlyRenderVisibleElements={props.isZoomedIn}
        onMoveEnd={props.onMoveEnd}
        minZoom={0.05}
        maxZoom={2}
        nodesConnectable={isEditable}
        edgesFocusable={false}
        elementsSelectable
        deleteKeyCode={isEditable ? ['Backspace', 'Delete'] : null}
        onNodesChange={props.onNodesChange}
        onNodeDragStop={(_, __, dropped) => props.onNodesDropped(dropped)}
        onNodeClick={(_, node) => props.onNodeClick(node)}
        onEdgeClick={(_, edge) => props.onSelectEdge(edge.id)}
        onPaneClick={() => props.onSelectEdge(null)}
        onConnect={props.onConnect}
        onReconnect={props.onReconnect}
        onBeforeDelete={props.onBeforeDelete}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
        {!props.isPhone && <MiniMap<MapNode> pannable zoomable nodeColor={(n) => minimapColor(n.data as FlowNodeData | undefined)} />}
        {props.children}
      </ReactFlow>
    </Paper>
  );
}
