import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { Handle, Position, useConnection, useStore, type Node, type NodeProps } from '@xyflow/react';
import { ACTION_KIND_LABELS } from '../../../../shared/app';
import { findLineOption } from '../flow-edits';
import type { FlowBadge, FlowDirection, FlowEdgeKind, FlowNodeData } from '../flow-graph';

export type MapNodeData = FlowNodeData & {
  direction: FlowDirection;
  /** Ringed: the menu found with "Find a menu". */
  isFound?: boolean;
  /** Rules can be drawn from and to it (a wide screen; never End or missing nodes). */
  isEditable?: boolean;
  /** The app's screen limit, for the length counter. */
  screenLimit?: number;
  /** The connected gateway that narrows it, when one does ('Nalo carries 120'). */
  screenGateway?: string;
  /** On the session path shown: the numbers of the steps at this menu (1 is the first screen). */
  pathSteps?: number[];
};
export type MapNode = Node<MapNodeData, 'flow'>;

/**
 * Below this zoom a box shows its identifier and colours only: its text would be unreadable, and a 100-menu map
 * draws several times faster with a tenth of the elements (bench/flowmap-fps.ts).
 */
export const DETAIL_ZOOM = 0.45;

/** The handle every rule leaves from and arrives at (option handles are `opt:<number>`). */
export const RULE_OUT = 'out';
export const RULE_IN = 'in';
export const optionHandleId = (option: string) => `opt:${option}`;

const BADGE_COLORS: Record<FlowBadge, string> = {
  First: 'teal',
  Terminate: 'grape',
  Back: 'blue',
  Unreachable: 'yellow',
  'Broken target': 'red',
  'Loop without end': 'orange',
  'Duplicate rule': 'orange',
  'Over length': 'orange',
};
const WARNING_BADGES = new Set<FlowBadge>(['Unreachable', 'Broken target', 'Loop without end', 'Duplicate rule', 'Over length']);

export const EDGE_COLORS: Record<FlowEdgeKind, string> = {
  rule: 'var(--mantine-color-gray-6)',
  terminate: 'var(--mantine-color-grape-6)',
  back: 'var(--mantine-color-blue-5)',
  broken: 'var(--mantine-color-red-6)',
};

function borderOf(data: FlowNodeData): string {
  if (data.kind === 'missing' || data.badges.includes('Broken target')) return 'var(--mantine-color-red-6)';
  if (data.badges.includes('Unreachable')) return 'var(--mantine-color-yellow-6)';
  if (data.kind === 'end') return 'var(--mantine-color-grape-5)';
  if (data.kind === 'subflow') return 'var(--mantine-color-indigo-5)';
  if (data.badges.includes('First')) return 'var(--mantine-color-teal-6)';
  return 'var(--mantine-color-default-border)';
}

/** Plain colours: the minimap draws SVG fills. */
export function minimapColor(data: FlowNodeData | undefined): string {
  if (!data) return '#ced4da';
  if (data.kind === 'missing' || data.badges.includes('Broken target')) return '#fa5252';
  if (data.badges.includes('Unreachable')) return '#fab005';
  if (data.kind === 'end') return '#cc5de8';
  if (data.kind === 'subflow') return '#5c7cfa';
  if (data.badges.includes('First')) return '#12b886';
  return '#adb5bd';
}

function backgroundOf(data: FlowNodeData): string {
  if (data.kind === 'missing') return 'var(--mantine-color-red-light)';
  if (data.kind === 'end') return 'var(--mantine-color-grape-light)';
  if (data.kind === 'subflow') return 'var(--mantine-color-indigo-light)';
  if (data.badges.includes('Unreachable')) return 'var(--mantine-color-yellow-light)';
  return 'var(--mantine-color-body)';
}

/** The session path's colour: rings, step numbers and the rules taken. */
export const PATH_COLOR = 'var(--mantine-color-violet-6)';

const DOT = { width: 10, height: 10, background: 'var(--mantine-color-blue-6)', border: '2px solid var(--mantine-color-body)' };
const HIDDEN = { opacity: 0 };

/** The length counter: '42/160', red past the limit. */
/** A screen's length against its limit; a USSD screen sent as UCS-2 says so (its limit is the smaller UCS-2 one). */
function LengthCounter({ length, limit, ucs2, gateway }: { length: number; limit: number; ucs2: boolean; gateway?: string }) {
  const over = length > limit;
  return (
    <Text
      title={gateway ? `${gateway} characters: the strictest gateway this app is connected to` : undefined}
      size="10px"
      c={over ? 'red.8' : 'dimmed'}
      fw={over ? 700 : 400}
      ff="monospace"
      data-testid="flow-length"
      aria-label={`${length} of ${limit} characters${ucs2 ? ', sent as UCS-2' : ''}${gateway ? ` (${gateway})` : ''}`}
    >
      {length}/{limit}
      {ucs2 ? ' UCS-2' : ''}
    </Text>
  );
}

export function FlowNodeBox({ data }: NodeProps<MapNode>) {
  const vertical = data.direction === 'TB';
  const dashed = data.kind !== 'menu' || data.badges.includes('Unreachable');
  // While a rule is being drawn, the whole box takes its end (not only the small handle on top).
  const isDrawing = useConnection((c) => c.inProgress);
  // A selector of a boolean: the boxes render again only when the zoom crosses the line, not on every zoom step.
  const isDetailed = useStore((s) => s.transform[2] >= DETAIL_ZOOM);
  const editable = data.kind === 'menu' && !!data.isEditable;
  // A terminating menu takes no input: rules go to it, never from it.
  const canDrawFrom = editable && !data.badges.includes('Terminate');
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
            : data.kind === 'subflow'
              ? `Open the sub-flow ${data.title}`
              : 'Open the menu with this target'
      }
      style={{
        position: 'relative',
        width: data.width,
        height: data.height,
        boxSizing: 'border-box',
        padding: '6px 10px',
        borderRadius: 10,
        border: `2px ${dashed ? 'dashed' : 'solid'} ${borderOf(data)}`,
        background: backgroundOf(data),
        cursor: 'pointer',
        // The menu found with "Find a menu" and the menus of a session's path: a ring, whatever the border says.
        boxShadow: data.isFound
          ? '0 0 0 4px var(--mantine-color-blue-5)'
          : data.pathSteps
            ? `0 0 0 4px ${PATH_COLOR}`
            : data.kind === 'menu'
              ? 'var(--mantine-shadow-xs)'
              : undefined,
      }}
      data-path={data.pathSteps?.join(',')}
    >
      {data.pathSteps && (
        <Group
          gap={2}
          style={{ position: 'absolute', top: -12, left: -10, zIndex: 4 }}
          aria-label={`Step ${data.pathSteps.join(', ')} of the session`}
        >
          {data.pathSteps.slice(0, 4).map((step) => (
            <Badge key={step} size="sm" circle color="violet" variant="filled">
              {step}
            </Badge>
          ))}
          {data.pathSteps.length > 4 && (
            <Badge size="sm" color="violet" variant="light">
              +{data.pathSteps.length - 4}
            </Badge>
          )}
        </Group>
      )}
      <Handle id={RULE_IN} type="target" position={vertical ? Position.Top : Position.Left} style={HIDDEN} isConnectable={editable} />
      {editable && isDrawing && (
        <Handle
          id="drop"
          type="target"
          position={Position.Top}
          data-testid="flow-drop-target"
          style={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            transform: 'none',
            opacity: 0,
            borderRadius: 10,
            zIndex: 5,
          }}
        />
      )}
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Text
          fw={700}
          size="sm"
          truncate="end"
          ff={data.kind === 'menu' ? 'monospace' : undefined}
          c={data.kind === 'missing' ? 'red.8' : undefined}
        >
          {data.title}
        </Text>
        {data.kind === 'menu' && data.screenLength !== undefined && data.screenLimit !== undefined && (
          <LengthCounter
            length={data.screenLength}
            limit={data.screenLimit}
            ucs2={data.screenMeasure?.encoding === 'UCS-2'}
            gateway={data.screenGateway}
          />
        )}
      </Group>
      {isDetailed ? (
        <>
          <div style={{ marginTop: 2 }}>
            {data.lines.map((line, i) => {
              const option = canDrawFrom ? findLineOption(line) : null;
              return (
                <div key={i} style={{ position: 'relative' }}>
                  <Text size="xs" c="dimmed" lh="17px" truncate="end" ff="monospace">
                    {line}
                  </Text>
                  {option && (
                    <Handle
                      id={optionHandleId(option)}
                      type="source"
                      position={Position.Right}
                      title={`Drag to a menu: a rule for option ${option}`}
                      data-testid="flow-option-handle"
                      data-option={option}
                      style={{ ...DOT, right: -16 }}
                    />
                  )}
                </div>
              );
            })}
          </div>
          {data.actions.length > 0 && (
            <Group gap={4} mt={4} wrap="nowrap" style={{ overflow: 'hidden' }}>
              {data.actions.map((a, i) => (
                <Tooltip
                  key={i}
                  label={`${ACTION_KIND_LABELS[a.kind]} action, ${a.type === 'pre' ? 'before the screen' : 'after the input'}`}
                >
                  <Badge size="xs" variant="outline" color="gray" radius="sm" tt="none" data-testid="flow-action">
                    {a.label}
                  </Badge>
                </Tooltip>
              ))}
            </Group>
          )}
          {data.badges.length > 0 && (
            <Group gap={4} mt={6} wrap="nowrap" style={{ overflow: 'hidden' }}>
              {data.badges.map((b) => (
                <Badge
                  key={b}
                  size="xs"
                  variant={WARNING_BADGES.has(b) ? 'filled' : 'light'}
                  color={BADGE_COLORS[b]}
                  data-testid="flow-badge"
                >
                  {b === 'Back' ? `Back ${data.backIndicator ?? ''}`.trim() : b}
                </Badge>
              ))}
            </Group>
          )}
        </>
      ) : (
        <Text size="xs" c="dimmed" data-testid="flow-node-summary">
          {data.badges.join(' · ')}
        </Text>
      )}
      <Handle
        id={RULE_OUT}
        type="source"
        position={vertical ? Position.Bottom : Position.Right}
        title={canDrawFrom ? 'Drag to a menu: a new rule' : undefined}
        data-testid={canDrawFrom ? 'flow-rule-handle' : undefined}
        isConnectable={canDrawFrom}
        style={canDrawFrom ? DOT : HIDDEN}
      />
      {/* Back edges leave and arrive at the side, apart from the rules' flow. */}
      <Handle id="back-out" type="source" position={vertical ? Position.Right : Position.Bottom} style={HIDDEN} isConnectable={false} />
      <Handle id="back-in" type="target" position={vertical ? Position.Right : Position.Bottom} style={HIDDEN} isConnectable={false} />
    </div>
  );
}

export const nodeTypes = { flow: FlowNodeBox };
