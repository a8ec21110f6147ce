import { BaseEdge, type Edge, type EdgeProps, getSmoothStepPath } from '@xyflow/react';
import type { FlowDirection } from '../flow-graph';

export type RuleEdgeData = {
  direction: FlowDirection;
  /** Which of the labels arriving at the same box this one is (0 nearest the box): each gets its own row. */
  slot: number;
  /** Top to bottom: how wide the label may be before it reaches the next box (half the box it goes to, and the gap). */
  room: number;
};
export type RuleEdge = Edge<RuleEdgeData, 'rule'>;

/** The labels' font is 11 px: about 6.5 px a character, plus the background's padding. */
const labelWidth = (label: string) => label.length * 6.5 + 10;
const LABEL_ROW = 20;

/** The label cut with '…' to `room` pixels (the whole rule is in the edge's accessible name and on the End box). */
function fitLabel(label: string, room: number): string {
  if (labelWidth(label) <= room) return label;
  const chars = Math.max(4, Math.floor((room - 10) / 6.5));
  return `${label.slice(0, chars - 1).trimEnd()}…`;
}

/**
 * A rule's arrow (a smooth step line), its label beside the last stretch of the line, just before the box it goes
 * to: never on the line itself, where rules leaving the same box run together (a label in the middle of the line,
 * React Flow's place for it, sat on its neighbours' lines). Labels arriving at the same box stack away from it.
 */
export function FlowRuleEdge({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  label,
  labelStyle,
  labelBgStyle,
  labelBgPadding,
  labelBgBorderRadius,
  style,
  markerEnd,
  interactionWidth,
  data,
}: EdgeProps<RuleEdge>) {
  const [path] = getSmoothStepPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
  const isAcross = data?.direction === 'LR';
  const text = typeof label === 'string' && data && !isAcross ? fitLabel(label, data.room) : label;
  const width = typeof text === 'string' ? labelWidth(text) : 0;
  const slot = data?.slot ?? 0;
  // Top to bottom, the line comes down into the box: the label sits to its right, a row above the arrowhead.
  // Left to right, it comes in from the left: the label sits above it, ending before the arrowhead.
  const [labelX, labelY] = isAcross
    ? [targetX - 14 - width / 2, targetY - 12 - slot * LABEL_ROW]
    : [targetX + 8 + width / 2, targetY - 16 - slot * LABEL_ROW];
  return (
    <BaseEdge
      id={id}
      path={path}
      style={style}
      markerEnd={markerEnd}
      interactionWidth={interactionWidth}
      label={text}
      labelX={labelX}
      labelY={labelY}
      labelStyle={labelStyle}
      labelBgStyle={labelBgStyle}
      labelBgPadding={labelBgPadding}
      labelBgBorderRadius={labelBgBorderRadius}
    />
  );
}

export const edgeTypes = { rule: FlowRuleEdge };
