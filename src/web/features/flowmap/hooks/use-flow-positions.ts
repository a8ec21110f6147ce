import type { NodeChange } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { failureText, isOk } from '../../../lib/api';
import { showToast } from '../../../lib/toast';
import { saveMenuPositions } from '../../../../shared/api/menus.calls';
import { call } from '../../../lib/call';
import type { useAppMenus } from '../../menus/use-app-menus';
import type { FlowDirection } from '../flow-graph';
import type { MapNode } from '../components/flow-node';

type AppMenus = ReturnType<typeof useAppMenus>;

export type XY = { x: number; y: number };

/**
 * The layout direction and where boxes stand: saved with the draft for the direction they were placed in, or
 * being dragged now. The map opens in the direction its boxes were placed in.
 */
export function useFlowPositions(appId: string, data: AppMenus) {
  const { menus } = data;
  const [direction, setDirection] = useState<FlowDirection>('TB');
  /** Where the builder dragged boxes, for the layout direction they were dragged in, until the saved ones are read. */
  const [moved, setMoved] = useState<{ direction: FlowDirection; at: Record<string, XY> }>({ direction: 'TB', at: {} });

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

  const movedAt = useMemo(() => ({ ...savedAt, ...(moved.direction === direction ? moved.at : {}) }), [savedAt, moved, direction]);

  const onNodesChange = (changes: NodeChange<MapNode>[]) => {
    const dragged = changes.flatMap((c) => (c.type === 'position' && c.position ? [[c.id, c.position] as const] : []));
    if (dragged.length === 0) return;
    setMoved((old) => ({ direction, at: { ...(old.direction === direction ? old.at : {}), ...Object.fromEntries(dragged) } }));
  };

  /** A box dropped: the arrangement as it is now is saved with the draft (every menu's box, so none jumps later). */
  const savePositions = async (dropped: MapNode[], shownNodes: MapNode[]) => {
    const at = new Map(dropped.map((n) => [n.id, n.position]));
    const positions = shownNodes.filter((n) => n.data.kind === 'menu').map((n) => ({ uniqueId: n.id, ...(at.get(n.id) ?? n.position) }));
    const reply = await call(saveMenuPositions, { body: { appId, direction, positions } });
    if (!isOk(reply))
      showToast({ color: 'red', title: 'Layout not saved', message: failureText(reply, 'The positions could not be saved.') });
    else await data.refreshMenus();
  };

  /** Tidy up: the map lays every box out again, and the saved positions are cleared. */
  const tidyUp = async () => {
    setMoved({ direction, at: {} });
    if (Object.keys(savedAt).length === 0) return;
    const reply = await call(saveMenuPositions, { body: { appId, direction, positions: [] } });
    if (!isOk(reply)) showToast({ color: 'red', title: 'Layout not saved', message: failureText(reply, 'The layout could not be reset.') });
    await data.refreshMenus();
  };

  return {
    direction,
    setDirection,
    /** Every box placed by hand (saved or being dragged), for this direction. */
    movedAt,
    hasMoved: Object.keys(movedAt).length > 0,
    onNodesChange,
    savePositions,
    tidyUp,
  };
}
